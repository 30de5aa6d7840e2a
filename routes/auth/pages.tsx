/**
 * Server renders of the sign-in pages: sign up, sign in, password reset, email verification.
 * Every form works without JavaScript; the passkey buttons are an island on top.
 */
import type { ComponentChildren } from "preact";
import { type Place, SiteHeader } from "../../components/SiteHeader.tsx";
import Passkey from "../../islands/Passkey.tsx";
import { island, renderPage } from "../../lib/islands.tsx";
import { CSRF_FIELD, FRESH_MS, reauthPath } from "../../lib/accounts/sessions.ts";
import type { Lang } from "../../lib/i18n.ts";
import { type AuthTexts, fillText } from "./texts.ts";

export const PasskeyButton = island("Passkey", Passkey);

export interface FormState {
  lang: Lang;
  t: AuthTexts;
  csrf: string;
  email?: string;
  /** One message for the form, announced to screen readers. */
  error?: string;
  /** The field the error is about. */
  field?: string;
  next?: string;
  /** Signing in again, signed in already, for an action that needs a recent sign-in. */
  reauth?: boolean;
  /** The browser holds a session cookie: the header offers the dashboard. */
  signedIn?: boolean;
}

/** A whole auth page: one narrow card, the site's style sheet and ours. */
export function authPage(
  s: { lang: Lang; t: AuthTexts; signedIn?: boolean; place?: Place },
  title: string,
  body: ComponentChildren,
): string {
  return renderPage(
    <>
      <SiteHeader lang={s.lang} signedIn={s.signedIn ?? false} current={s.place} />
      <main class="auth">
        <div class="auth-card">
          <h1>{title}</h1>
          {body}
        </div>
      </main>
    </>,
    { lang: s.lang, title: `${title} · ${s.t.brand}`, css: ["site.css", "auth.css"] },
  );
}

/** Why an action was refused for an old sign-in, and the way to sign in again and come back to `next`. */
export function Reauth({ t, next }: { t: AuthTexts; next: string }) {
  return (
    <p role="alert">
      {fillText(t.reauth_text, { n: FRESH_MS / 60_000 })} <a href={reauthPath(next)}>{t.reauth_title}</a>
    </p>
  );
}

/** The page answering a form that needs a recent sign-in (403). */
export function reauthPage(s: { lang: Lang; t: AuthTexts; signedIn?: boolean }, next: string): string {
  return authPage(s, s.t.reauth_title, <Reauth t={s.t} next={next} />);
}

export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

function ErrorLine({ s }: { s: FormState }) {
  return s.error ? <p class="auth-error" role="alert" id="form-error">{s.error}</p> : null;
}

/**
 * Whether a refused form puts the cursor in its password field: the error names it, or the email
 * was kept and the error is not about it (a wrong password is typed again, not the email).
 */
function passwordFirst(s: FormState): boolean {
  return s.field === "password" || (!!s.error && !!s.email && s.field !== "email");
}

/** `autoFocus`: the page's first field; `withPassword`: a password follows, which may take the focus instead. */
function EmailField({ s, autoFocus, withPassword }: { s: FormState; autoFocus?: boolean; withPassword?: boolean }) {
  const bad = s.field === "email";
  return (
    <p class="field">
      <label for="email">{s.t.email}</label>
      <input
        id="email"
        name="email"
        type="email"
        autocomplete="username webauthn"
        required
        value={s.email ?? ""}
        autofocus={autoFocus && !(withPassword && passwordFirst(s))}
        aria-invalid={bad ? "true" : undefined}
        aria-describedby={bad ? "form-error" : undefined}
      />
    </p>
  );
}

function PasswordField(
  { s, name = "password", label = s.t.password, fresh }: {
    s: FormState;
    name?: string;
    label?: string;
    fresh?: boolean;
  },
) {
  const bad = s.field === name;
  const hint = fresh ? `${name}-hint` : undefined;
  return (
    <p class="field">
      <label for={name}>{label}</label>
      <input
        id={name}
        name={name}
        type="password"
        autocomplete={fresh ? "new-password" : "current-password"}
        required
        minLength={fresh ? 8 : undefined}
        maxLength={256}
        autofocus={name === "password" && passwordFirst(s) ? true : undefined}
        aria-invalid={bad ? "true" : undefined}
        aria-describedby={[bad ? "form-error" : "", hint ?? ""].join(" ").trim() || undefined}
      />
      {fresh && <span class="hint" id={hint}>{s.t.password_hint}</span>}
    </p>
  );
}

/** `first`: no account exists yet and SIGNUP_PLAN is unset, so this sign-up becomes the administrator's. */
export function signupPage(s: FormState, closed: boolean, first = false): string {
  const { t } = s;
  if (closed) {
    return authPage(
      s,
      t.sign_up,
      <>
        <p>{t.signup_closed}</p>
        <p>
          <a href="/login">{t.sign_in}</a>
        </p>
      </>,
    );
  }
  return authPage(
    { ...s, place: "sign-up" },
    t.sign_up,
    <>
      {first && <p class="notice">{t.signup_first}</p>}
      <ErrorLine s={s} />
      <form method="post" action="/signup" class="auth-form">
        <Csrf token={s.csrf} />
        <EmailField s={s} autoFocus withPassword />
        <PasswordField s={s} fresh />
        <button type="submit" class="primary">{t.sign_up}</button>
      </form>
      <div class="auth-alt">
        <p>{t.or_passkey}</p>
        <PasskeyButton mode="signup" csrf={s.csrf} label={t.passkey_signup} cancelled={t.passkey_cancelled} />
      </div>
      <p class="auth-links">
        {t.have_account} <a href="/login">{t.sign_in}</a>
      </p>
    </>,
  );
}

export function loginPage(s: FormState): string {
  const { t } = s;
  return authPage(
    { ...s, place: s.reauth ? "" : "sign-in" },
    s.reauth ? t.reauth_title : t.sign_in,
    <>
      {s.reauth && <p>{t.reauth_intro}</p>}
      <ErrorLine s={s} />
      <form method="post" action="/login" class="auth-form">
        <Csrf token={s.csrf} />
        {s.next && <input type="hidden" name="next" value={s.next} />}
        {s.reauth && <input type="hidden" name="reauth" value="1" />}
        <EmailField s={s} autoFocus withPassword />
        <PasswordField s={s} />
        <button type="submit" class="primary">{t.sign_in}</button>
      </form>
      <div class="auth-alt">
        <PasskeyButton
          mode="login"
          csrf={s.csrf}
          label={t.passkey_signin}
          cancelled={t.passkey_cancelled}
          next={s.next ?? "/dashboard"}
        />
      </div>
      <p class="auth-links">
        <a href="/reset">{t.forgot}</a> · <a href="/signup">{t.create_account}</a>
      </p>
    </>,
  );
}

export function resetRequestPage(s: FormState, sent: boolean): string {
  const { t } = s;
  return authPage(
    s,
    t.reset_title,
    sent ? <p role="status">{t.reset_sent}</p> : (
      <>
        <ErrorLine s={s} />
        <form method="post" action="/reset/request" class="auth-form">
          <Csrf token={s.csrf} />
          <EmailField s={s} autoFocus />
          <button type="submit" class="primary">{t.send_link}</button>
        </form>
      </>
    ),
  );
}

export function resetPage(s: FormState, token: string): string {
  const { t } = s;
  return authPage(
    s,
    t.new_password_title,
    <>
      <ErrorLine s={s} />
      <form method="post" action="/reset" class="auth-form">
        <Csrf token={s.csrf} />
        <input type="hidden" name="token" value={token} />
        <PasswordField s={s} label={t.new_password} fresh />
        <button type="submit" class="primary">{t.set_the_password}</button>
      </form>
    </>,
  );
}

export function verifyPage(s: FormState, token: string, result?: "ok" | "bad" | "sign-in"): string {
  const { t } = s;
  if (result === "sign-in") {
    const back = `/verify?token=${encodeURIComponent(token)}`;
    return authPage(
      s,
      t.verify_title,
      <p role="status">
        {t.verify_sign_in} <a href={reauthPath(back)}>{t.sign_in}</a> · <a href="/reset">{t.forgot}</a>
      </p>,
    );
  }
  if (result) {
    return authPage(
      s,
      t.verify_title,
      <p role="status">
        {result === "ok" ? t.verify_ok : t.verify_bad} <a href="/dashboard">{t.to_dashboard}</a>
      </p>,
    );
  }
  return authPage(
    s,
    t.verify_title,
    <form method="post" action="/verify" class="auth-form">
      <Csrf token={s.csrf} />
      <input type="hidden" name="token" value={token} />
      <button type="submit" class="primary">{t.verify_button}</button>
    </form>,
  );
}
