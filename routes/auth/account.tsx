/**
 * The account's own settings: change the password, add and remove passkeys, sign out
 * everywhere, delete the account with all its data. The parts are exported as components so the
 * dashboard can place them (each form posts here with the session's CSRF token and a `back`
 * path to return to); /account shows them all on one page.
 */
import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Auth } from "../../lib/accounts/service.ts";
import type { KeyResolver } from "../../lib/accounts/auth.ts";
import { reauthPath, type SessionEnv } from "../../lib/accounts/sessions.ts";
import { ApiError } from "../../lib/errors.ts";
import { formFields } from "../../lib/http.ts";
import type { Passkey } from "../../lib/kv/users.ts";
import type { TimerService } from "../../lib/timers/service.ts";
import { authPage, Csrf, PasskeyButton, reauthPage } from "./pages.tsx";
import { html } from "./respond.ts";
import { authLang, type AuthTexts, authTexts, fillText } from "./texts.ts";

/** Where a form returns to: a same-site path, else /account. */
function backOf(raw: unknown): string {
  return typeof raw === "string" && /^\/(?![/\\])[\x21-\x7e]*$/.test(raw) ? raw : "/account";
}

export interface AccountProps {
  csrf: string;
  email: string;
  hasPassword: boolean;
  passkeys: Pick<Passkey, "id" | "name" | "created_at" | "last_used_at">[];
  /** The page the forms return to (default /account). */
  back?: string;
  /** A message after an action, or the error of a refused one. */
  notice?: { kind: "ok" | "error"; text: string; section?: string };
  /** The page's texts (default English): `authTexts(lang)` from routes/auth/texts.ts. */
  t?: AuthTexts;
}

const textsOf = (p: AccountProps) => p.t ?? authTexts("en");

/** Whether the section's form was refused: its first field takes the cursor, to type again. */
const refusedIn = (p: AccountProps, section: string) => p.notice?.kind === "error" && p.notice.section === section;

function Notice({ p, section }: { p: AccountProps; section: string }) {
  const n = p.notice;
  if (!n || (n.section ?? "") !== section) return null;
  return <p class={n.kind === "ok" ? "auth-ok" : "auth-error"} role={n.kind === "ok" ? "status" : "alert"}>{n.text}</p>;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function PasswordSection(p: AccountProps) {
  const t = textsOf(p);
  return (
    <section class="auth-section" aria-labelledby="password-heading">
      <h2 id="password-heading">{p.hasPassword ? t.change_password : t.set_a_password}</h2>
      <Notice p={p} section="password" />
      <form method="post" action="/account/password" class="auth-form">
        <Csrf token={p.csrf} />
        <input type="hidden" name="back" value={backOf(p.back)} />
        <input type="hidden" name="email" value={p.email} autocomplete="username" />
        {p.hasPassword && (
          <p class="field">
            <label for="current_password">{t.current_password}</label>
            <input
              id="current_password"
              name="current_password"
              type="password"
              autocomplete="current-password"
              required
              autofocus={refusedIn(p, "password") || undefined}
            />
          </p>
        )}
        <p class="field">
          <label for="new_password">{t.new_password}</label>
          <input
            id="new_password"
            name="password"
            type="password"
            autocomplete="new-password"
            minLength={8}
            required
            autofocus={(!p.hasPassword && refusedIn(p, "password")) || undefined}
          />
        </p>
        <button type="submit" class="primary">{p.hasPassword ? t.change_password : t.set_password}</button>
      </form>
    </section>
  );
}

export function PasskeysSection(p: AccountProps) {
  const t = textsOf(p);
  return (
    <section class="auth-section" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">{t.passkeys}</h2>
      <Notice p={p} section="passkeys" />
      {p.passkeys.length === 0 ? <p>{t.no_passkeys}</p> : (
        <ul class="passkey-list">
          {p.passkeys.map((k) => (
            <li key={k.id}>
              <span>
                <strong>{k.name}</strong> · {fillText(t.added, { date: day(k.created_at) })}
                {k.last_used_at !== null && <>· {fillText(t.last_used, { date: day(k.last_used_at) })}</>}
              </span>
              <form method="post" action="/account/passkeys/remove">
                <Csrf token={p.csrf} />
                <input type="hidden" name="back" value={backOf(p.back)} />
                <input type="hidden" name="id" value={k.id} />
                <button type="submit" class="secondary" aria-label={fillText(t.remove_label, { name: k.name })}>
                  {t.remove}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <PasskeyButton
        mode="register"
        csrf={p.csrf}
        label={t.passkey_add}
        nameLabel={t.passkey_name}
        cancelled={t.passkey_cancelled}
        next={backOf(p.back)}
        reauth={{ href: reauthPath(backOf(p.back)), label: t.reauth_title }}
      />
    </section>
  );
}

export function SessionsSection(p: AccountProps) {
  const t = textsOf(p);
  return (
    <section class="auth-section" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">{t.everywhere_title}</h2>
      <p>{t.everywhere_text}</p>
      <form method="post" action="/logout/everywhere">
        <Csrf token={p.csrf} />
        <button type="submit" class="secondary">{t.everywhere_title}</button>
      </form>
    </section>
  );
}

export function DeleteSection(p: AccountProps) {
  const t = textsOf(p);
  return (
    <section class="auth-section danger" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t.delete_title}</h2>
      <Notice p={p} section="delete" />
      <p>{t.delete_text}</p>
      <form method="post" action="/account/delete" class="auth-form">
        <Csrf token={p.csrf} />
        <input type="hidden" name="back" value={backOf(p.back)} />
        <p class="field">
          <label for="confirm">{t.confirm_label}</label>
          <input
            id="confirm"
            name="confirm"
            type="email"
            autocomplete="off"
            required
            autofocus={refusedIn(p, "delete") || undefined}
          />
        </p>
        <button type="submit" class="danger">{t.delete_title}</button>
      </form>
    </section>
  );
}

/** Every part, in order. */
export function AccountPanel(p: AccountProps) {
  return (
    <>
      <PasswordSection {...p} />
      <PasskeysSection {...p} />
      <SessionsSection {...p} />
      <DeleteSection {...p} />
    </>
  );
}

/**
 * Another page that shows these sections (the dashboard's /dashboard/account): a refused form
 * posted from it is answered there, its error beside the form, and it keeps coming back there.
 */
export type AccountFrame = (c: Context<SessionEnv>, p: AccountProps, status: ContentfulStatusCode) => Response;

export function accountRoutes(
  app: Hono<SessionEnv>,
  auth: Auth,
  timers: TimerService,
  keys: KeyResolver,
  frames: Record<string, AccountFrame> = {},
) {
  const { users, passkeys, sessions } = auth;
  const langOf = (c: Context) => authLang(c.req.query("lang"), c.req.header("accept-language"));

  async function props(
    c: Context<SessionEnv>,
    notice?: AccountProps["notice"],
    back?: unknown,
  ): Promise<AccountProps> {
    const { user, csrf } = c.get("session");
    const fresh = (await auth.deps.store.users.get(user.id)) ?? user;
    return {
      csrf,
      email: fresh.email,
      hasPassword: fresh.password_hash !== null,
      passkeys: await passkeys.list(user.id),
      notice,
      back: back === undefined ? undefined : backOf(back),
      t: authTexts(langOf(c)),
    };
  }

  const page = (c: Context<SessionEnv>, p: AccountProps, status: ContentfulStatusCode = 200) => {
    const framed = p.back ? frames[p.back.replace(/[?#].*/, "")] : undefined;
    if (framed) return framed(c, p, status);
    const lang = langOf(c);
    const body = authPage(
      { lang, t: authTexts(lang), signedIn: true },
      authTexts(lang).account,
      <AccountPanel {...p} />,
    );
    return html(c, body.replace('class="auth-card"', 'class="auth-card wide"'), status);
  };

  app.get("/account", async (c) => {
    const t = authTexts(langOf(c));
    const done = c.req.query("done");
    const notice: AccountProps["notice"] = done === "password"
      ? { kind: "ok", text: t.password_done, section: "password" }
      : done === "passkey"
      ? { kind: "ok", text: t.passkey_done, section: "passkeys" }
      : undefined;
    return page(c, await props(c, notice));
  });

  /** The refusal of a form that needs a recent sign-in (see FRESH_MS), or null when the session is fresh. */
  const stale = (c: Context<SessionEnv>, back: unknown) => {
    if (sessions.fresh(c.get("session"))) return null;
    const lang = langOf(c);
    return html(c, reauthPage({ lang, t: authTexts(lang), signedIn: true }, backOf(back)), 403);
  };

  /** A form refused with `e`: the page again, the message beside the form, the error's headers (a 429's Retry-After). */
  async function refusedPage(c: Context<SessionEnv>, e: ApiError, section: string, back: unknown) {
    for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
    return page(c, await props(c, { kind: "error", text: e.message, section }, back), e.status as ContentfulStatusCode);
  }

  app.post("/account/password", async (c) => {
    const f = await formFields(c);
    // A first password is a new way in (a change asks for the current one, which is proof enough).
    if (c.get("session").user.password_hash === null) {
      const refused = stale(c, f.back);
      if (refused) return refused;
    }
    try {
      const { user, record } = c.get("session");
      await users.changePassword(user, String(f.current_password ?? ""), String(f.password ?? ""), record.hash);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return await refusedPage(c, e, "password", f.back);
    }
    return c.redirect(`${backOf(f.back)}${backOf(f.back).includes("?") ? "&" : "?"}done=password`, 303);
  });

  app.post("/account/passkeys/remove", async (c) => {
    const f = await formFields(c);
    try {
      await passkeys.remove(c.get("session").user, String(f.id ?? ""));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return await refusedPage(c, e, "passkeys", f.back);
    }
    return c.redirect(`${backOf(f.back)}${backOf(f.back).includes("?") ? "&" : "?"}done=passkey`, 303);
  });

  app.post("/account/delete", async (c) => {
    const f = await formFields(c);
    const refused = stale(c, f.back);
    if (refused) return refused;
    const { user } = c.get("session");
    if (String(f.confirm ?? "").trim().toLowerCase() !== user.email) {
      const text = "type the account's email exactly to confirm the deletion";
      return page(c, await props(c, { kind: "error", text, section: "delete" }, f.back), 422);
    }
    await sessions.endAll(user.id);
    await users.deleteAccount(user, timers, () => keys.clear());
    sessions.clearCookie(c);
    return c.redirect("/?account=deleted", 303);
  });
}
