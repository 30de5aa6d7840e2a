/**
 * Server renders of the sign-in pages: sign up, sign in, password reset, email verification.
 * Every form works without JavaScript; the passkey buttons are an island on top.
 */
import type { ComponentChildren } from "preact";
import Passkey from "../../islands/Passkey.tsx";
import { island, renderPage } from "../../lib/islands.tsx";
import { CSRF_FIELD } from "../../lib/accounts/sessions.ts";

export const PasskeyButton = island("Passkey", Passkey);

export interface FormState {
  csrf: string;
  email?: string;
  /** One message for the form, announced to screen readers. */
  error?: string;
  /** The field the error is about. */
  field?: string;
  next?: string;
}

/** A whole auth page: one narrow card, the site's style sheet and ours. */
export function authPage(title: string, body: ComponentChildren): string {
  return renderPage(
    <main class="auth">
      <p class="auth-brand">
        <a href="/">Timer Service</a>
      </p>
      <div class="auth-card">
        <h1>{title}</h1>
        {body}
      </div>
    </main>,
    { lang: "en", title: `${title} · Timer Service`, css: ["site.css", "auth.css"] },
  );
}

export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

function ErrorLine({ s }: { s: FormState }) {
  return s.error ? <p class="auth-error" role="alert" id="form-error">{s.error}</p> : null;
}

function EmailField({ s, autoFocus }: { s: FormState; autoFocus?: boolean }) {
  const bad = s.field === "email";
  return (
    <p class="field">
      <label for="email">Email</label>
      <input
        id="email"
        name="email"
        type="email"
        autocomplete="username webauthn"
        required
        value={s.email ?? ""}
        autofocus={autoFocus}
        aria-invalid={bad ? "true" : undefined}
        aria-describedby={bad ? "form-error" : undefined}
      />
    </p>
  );
}

function PasswordField(
  { s, name = "password", label = "Password", fresh }: { s: FormState; name?: string; label?: string; fresh?: boolean },
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
        aria-invalid={bad ? "true" : undefined}
        aria-describedby={[bad ? "form-error" : "", hint ?? ""].join(" ").trim() || undefined}
      />
      {fresh && <span class="hint" id={hint}>At least 8 characters; a long phrase is best.</span>}
    </p>
  );
}

export function signupPage(s: FormState, closed: boolean): string {
  if (closed) {
    return authPage(
      "Sign up",
      <>
        <p>Sign-up is closed on this service. Ask its operator for an account.</p>
        <p>
          <a href="/login">Sign in</a>
        </p>
      </>,
    );
  }
  return authPage(
    "Sign up",
    <>
      <ErrorLine s={s} />
      <form method="post" action="/signup" class="auth-form">
        <Csrf token={s.csrf} />
        <EmailField s={s} autoFocus />
        <PasswordField s={s} fresh />
        <button type="submit" class="primary">Sign up</button>
      </form>
      <div class="auth-alt">
        <p>Or without a password:</p>
        <PasskeyButton mode="signup" csrf={s.csrf} label="Sign up with a passkey" />
      </div>
      <p class="auth-links">
        Already have an account? <a href="/login">Sign in</a>
      </p>
    </>,
  );
}

export function loginPage(s: FormState): string {
  return authPage(
    "Sign in",
    <>
      <ErrorLine s={s} />
      <form method="post" action="/login" class="auth-form">
        <Csrf token={s.csrf} />
        {s.next && <input type="hidden" name="next" value={s.next} />}
        <EmailField s={s} autoFocus />
        <PasswordField s={s} />
        <button type="submit" class="primary">Sign in</button>
      </form>
      <div class="auth-alt">
        <PasskeyButton mode="login" csrf={s.csrf} label="Sign in with a passkey" next={s.next ?? "/dashboard"} />
      </div>
      <p class="auth-links">
        <a href="/reset">Forgot your password?</a> · <a href="/signup">Create an account</a>
      </p>
    </>,
  );
}

export function resetRequestPage(s: FormState, sent: boolean): string {
  return authPage(
    "Reset your password",
    sent
      ? (
        <p role="status">
          If an account has this email, a link to set a new password is on its way. It works once, within an hour.
        </p>
      )
      : (
        <>
          <ErrorLine s={s} />
          <form method="post" action="/reset/request" class="auth-form">
            <Csrf token={s.csrf} />
            <EmailField s={s} autoFocus />
            <button type="submit" class="primary">Send the link</button>
          </form>
        </>
      ),
  );
}

export function resetPage(s: FormState, token: string): string {
  return authPage(
    "Choose a new password",
    <>
      <ErrorLine s={s} />
      <form method="post" action="/reset" class="auth-form">
        <Csrf token={s.csrf} />
        <input type="hidden" name="token" value={token} />
        <PasswordField s={s} label="New password" fresh />
        <button type="submit" class="primary">Set the password</button>
      </form>
    </>,
  );
}

export function verifyPage(s: FormState, token: string, result?: "ok" | "bad"): string {
  if (result) {
    return authPage(
      "Confirm your email",
      <p role="status">
        {result === "ok" ? "Your email is confirmed." : "This link is not valid any more."}{" "}
        <a href="/dashboard">Go to the dashboard</a>
      </p>,
    );
  }
  return authPage(
    "Confirm your email",
    <form method="post" action="/verify" class="auth-form">
      <Csrf token={s.csrf} />
      <input type="hidden" name="token" value={token} />
      <button type="submit" class="primary">Confirm my email</button>
    </form>,
  );
}
