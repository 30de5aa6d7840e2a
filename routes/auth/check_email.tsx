/**
 * After sign-up: "check your email", with a button that sends the confirmation link again
 * (throttled per user and per mailbox). Without SMTP_URL the page says where the link is: the
 * server's log. The resend is a POST answered with a redirect, so a reload sends nothing.
 */
import type { Hono } from "hono";
import type { Auth } from "../../lib/accounts/service.ts";
import type { SessionEnv, SessionInfo } from "../../lib/accounts/sessions.ts";
import { ApiError } from "../../lib/errors.ts";
import type { AppEnv } from "../../lib/http.ts";
import { authPage } from "./pages.tsx";
import { html } from "./respond.ts";
import { authLang, type AuthTexts, authTexts, fillText } from "./texts.ts";
import { CSRF_FIELD } from "../../lib/accounts/sessions.ts";

export const CHECK_PATH = "/signup/check";

interface CheckState {
  email: string;
  confirmed: boolean;
  devMailer: boolean;
  administrator: boolean;
  csrf: string;
  /** After a resend: "sent", or the seconds to wait before another. */
  outcome: "sent" | number | null;
}

function checkPage(lang: ReturnType<typeof authLang>, t: AuthTexts, s: CheckState): string {
  if (s.confirmed) {
    return authPage(
      { lang, t, signedIn: true },
      t.verify_title,
      <p role="status">
        {t.verify_ok} <a href="/dashboard">{t.to_dashboard}</a>
      </p>,
    );
  }
  return authPage(
    { lang, t, signedIn: true },
    t.check_title,
    <>
      {s.administrator && <p class="notice">{t.check_admin}</p>}
      <p>{fillText(t.check_text, { email: s.email })}</p>
      {s.devMailer && <p class="notice" id="dev-mailer">{t.check_dev}</p>}
      {s.outcome === "sent" && <p role="status">{fillText(t.check_resent, { email: s.email })}</p>}
      {typeof s.outcome === "number" && (
        <p class="auth-error" role="alert">{fillText(t.check_wait, { n: s.outcome })}</p>
      )}
      <form method="post" action="/signup/resend" class="auth-form">
        <input type="hidden" name={CSRF_FIELD} value={s.csrf} />
        <button type="submit">{t.check_resend}</button>
      </form>
      <p>
        <a class="button" href="/dashboard">{t.to_dashboard}</a>
      </p>
    </>,
  );
}

/** Registers /signup/check and /signup/resend (both need a session). */
export function checkEmailRoutes(app: Hono<AppEnv>, auth: Auth) {
  const signedIn = app as unknown as Hono<SessionEnv>;
  signedIn.use(CHECK_PATH, auth.requireSession());
  signedIn.use("/signup/resend", auth.requireSession(), auth.csrfProtect());

  signedIn.get(CHECK_PATH, async (c) => {
    const lang = authLang(c.req.query("lang"), c.req.header("accept-language"));
    const s: SessionInfo = c.get("session");
    const sent = c.req.query("sent");
    const wait = Number(c.req.query("wait"));
    const state: CheckState = {
      email: s.user.email,
      confirmed: s.user.email_verified_at !== null,
      devMailer: auth.mailer.kind === "log",
      administrator: (await auth.deps.store.accounts.administrator()) === s.account.id,
      csrf: s.csrf,
      outcome: sent === "1" ? "sent" : Number.isSafeInteger(wait) && wait > 0 ? wait : null,
    };
    return html(c, checkPage(lang, authTexts(lang), state));
  });

  signedIn.post("/signup/resend", async (c) => {
    try {
      await auth.users.resendVerification(c.get("session").user, c.get("ip"));
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 429) throw e;
      return c.redirect(`${CHECK_PATH}?wait=${encodeURIComponent(e.headers["Retry-After"] ?? "60")}`, 303);
    }
    return c.redirect(`${CHECK_PATH}?sent=1`, 303);
  });
}
