/**
 * A passkey button: sign in with a passkey, sign up with one (the email comes from the page's
 * #email field), or add one to the signed-in account. The WebAuthn ceremony runs in the browser
 * with @simplewebauthn/browser; the server checks every answer. Without JavaScript, or in a
 * browser without WebAuthn, nothing is shown and the password forms remain.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useState } from "preact/hooks";

export interface PasskeyProps {
  mode: "login" | "signup" | "register";
  /** The CSRF token the server expects in X-CSRF-Token. */
  csrf: string;
  label: string;
  /** Said when the person cancels the browser's passkey prompt. */
  cancelled: string;
  /** Shown above the button when registering: the field naming the new passkey. */
  nameLabel?: string;
  /** Where to go after signing in or up. */
  next?: string;
  /** Registering: the link offered when the server wants a recent sign-in first (its 403). */
  reauth?: { href: string; label: string };
}

class Refused extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

async function post(path: string, csrf: string, body: unknown) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf-token": csrf, accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Refused(json?.error?.message ?? `the server answered ${res.status}`, res.status);
  return json;
}

export default function Passkey(p: PasskeyProps) {
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [stale, setStale] = useState(false);
  const [name, setName] = useState("");
  useEffect(() => setReady(browserSupportsWebAuthn()), []);
  if (!ready) return <div class="passkey" />;

  async function run() {
    setBusy(true);
    setError("");
    setStale(false);
    try {
      if (p.mode === "login") {
        const { challenge_id, options } = await post("/passkeys/login/options", p.csrf, {});
        const response = await startAuthentication({ optionsJSON: options });
        const done = await post("/passkeys/login/verify", p.csrf, { challenge_id, response, next: p.next });
        location.assign(done.redirect);
        return;
      }
      const email = p.mode === "signup" ? (document.getElementById("email") as HTMLInputElement | null)?.value : "";
      const base = p.mode === "signup" ? "/passkeys/signup" : "/passkeys/register";
      const { challenge_id, options } = await post(`${base}/options`, p.csrf, { email });
      const response = await startRegistration({ optionsJSON: options });
      const done = await post(`${base}/verify`, p.csrf, { challenge_id, response, name: name || undefined });
      location.assign(done.redirect);
    } catch (e) {
      const err = e as Error;
      setError(err.name === "NotAllowedError" ? p.cancelled : err.message);
      setStale(err instanceof Refused && err.status === 403);
      setBusy(false);
    }
  }

  return (
    <div class="passkey">
      {p.mode === "register" && (
        <p class="field">
          <label for="passkey-name">{p.nameLabel ?? "Passkey name"}</label>
          <input id="passkey-name" value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={60} />
        </p>
      )}
      <button type="button" class="secondary" onClick={run} disabled={busy} aria-describedby="passkey-error">
        {p.label}
      </button>
      <p id="passkey-error" class="auth-error" role="alert" hidden={!error}>
        {error}
        {stale && p.reauth && (
          <>
            {" "}
            <a href={p.reauth.href}>{p.reauth.label}</a>
          </>
        )}
      </p>
    </div>
  );
}
