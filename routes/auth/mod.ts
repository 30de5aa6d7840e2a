/**
 * Sign-in routes: /signup, /login, /logout (and everywhere), /reset, /verify, the passkey
 * ceremonies under /passkeys, and the account's own actions (routes/auth/account.tsx). Thin
 * handlers over lib/accounts. Forms before sign-in carry a CSRF token bound to a cookie (double
 * submit); after sign-in, the session's token. Every POST must also be same-origin.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { bodyLimit } from "hono/body-limit";
import { getCookie, setCookie } from "hono/cookie";
import { holdsSession } from "../../components/SiteHeader.tsx";
import type { Auth } from "../../lib/accounts/service.ts";
import type { KeyResolver } from "../../lib/accounts/auth.ts";
import { csrfTokenOf, FRESH_MS, type SessionEnv } from "../../lib/accounts/sessions.ts";
import { addressBucket } from "../../lib/accounts/throttle.ts";
import { ApiError } from "../../lib/errors.ts";
import { type AppEnv, formFields } from "../../lib/http.ts";
import { newSecretToken, newUserId, timingSafeEqual } from "../../lib/ids.ts";
import type { TimerService } from "../../lib/timers/service.ts";
import { type AccountFrame, accountRoutes } from "./account.tsx";
import { CHECK_PATH, checkEmailRoutes } from "./check_email.tsx";
import { type FormState, loginPage, resetPage, resetRequestPage, signupPage, verifyPage } from "./pages.tsx";
import { html } from "./respond.ts";
import { authLang, authTexts, fillText } from "./texts.ts";

/** Sign-in requests (sign-up, sign-in, reset, passkeys, account) one address may have under way at once. */
export const MAX_RUNNING_PER_IP = 4;

/** A same-site path to go to after signing in; anything else goes to the dashboard. */
export function safeNext(raw: unknown): string {
  return typeof raw === "string" && /^\/(?![/\\])[\x21-\x7e]*$/.test(raw) ? raw : "/dashboard";
}

async function jsonOf(c: Context): Promise<Record<string, unknown>> {
  const body = await c.req.json().catch(() => null);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ApiError(400, "send a JSON object");
  return body as Record<string, unknown>;
}

/** `accountFrames`: pages besides /account that show the account's sections (see accountRoutes). */
export function authRoutes(
  app: Hono<AppEnv>,
  auth: Auth,
  timers: TimerService,
  keys: KeyResolver,
  accountFrames: Record<string, AccountFrame> = {},
) {
  const { sessions, users, passkeys } = auth;
  const preCookie = () => (sessions.secure ? "__Host-csrf" : "csrf");

  /** The pre-session CSRF token of this browser, set as a cookie when it has none. */
  function preToken(c: Context): string {
    const have = getCookie(c, preCookie());
    if (have && /^[0-9A-Za-z]{43}$/.test(have)) return have;
    const token = newSecretToken();
    setCookie(c, preCookie(), token, { path: "/", httpOnly: true, sameSite: "Lax", secure: sessions.secure });
    return token;
  }

  /** Same-origin, and the form's (or header's) token matches the cookie's. */
  async function checkPre(c: Context): Promise<void> {
    if (!sessions.sameOrigin(c)) throw new ApiError(403, "cross-site request refused");
    const cookie = getCookie(c, preCookie());
    const sent = await csrfTokenOf(c);
    if (!cookie || !sent || !timingSafeEqual(cookie, sent)) {
      throw new ApiError(403, "missing or wrong CSRF token; reload the page and try again", "_csrf");
    }
  }

  /** What every form page knows: language, texts and the pre-session CSRF token. */
  function base(c: Context): FormState {
    const lang = authLang(c.req.query("lang"), c.req.header("accept-language"));
    return { lang, t: authTexts(lang), csrf: preToken(c), signedIn: holdsSession(c.req.header("cookie")) };
  }

  /** Renders a form again with the error of a refused attempt (in the page's language where it has one). */
  function refused(
    c: Context,
    e: unknown,
    page: (s: FormState) => string,
    s: Omit<FormState, "csrf" | "lang" | "t">,
  ) {
    if (!(e instanceof ApiError) || e.status === 403 && e.field === "_csrf") throw e;
    for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
    const b = base(c);
    const wait = Number(e.headers["Retry-After"]);
    const minutes = { n: Math.ceil(wait / 60), unit: b.t.minutes };
    const error = e.status === 401
      ? b.t.wrong_login
      : e.status === 429 && wait > 0
      ? fillText(b.t.too_many, wait < 120 ? { n: wait, unit: b.t.seconds } : minutes)
      : e.message;
    return html(c, page({ ...b, ...s, error, field: e.field }), e.status as ContentfulStatusCode);
  }

  const closed = () => auth.deps.config.signup === "closed";

  // The throttles count an attempt once it is over: attempts sent at once from one address would
  // all pass the check before any is counted (40 sign-ups at once made 40 accounts). So only a
  // few run at a time per address in this process; the rest are refused at once.
  const running = new Map<string, number>();
  const oneAtATime: MiddlewareHandler<AppEnv> = async (c, next) => {
    const ip = addressBucket(c.get("ip"));
    const n = running.get(ip) ?? 0;
    if (n >= MAX_RUNNING_PER_IP) {
      throw new ApiError(429, "too many attempts at once from this address; wait for one to finish", undefined, {
        "Retry-After": "1",
      });
    }
    running.set(ip, n + 1);
    try {
      await next();
    } finally {
      const left = (running.get(ip) ?? 1) - 1;
      if (left > 0) running.set(ip, left);
      else running.delete(ip);
    }
  };

  // Forms and WebAuthn answers are small; a larger body is refused before it is read.
  const limit = bodyLimit({
    maxSize: 32 * 1024,
    onError: () => {
      throw new ApiError(413, "the request body is over 32 KiB");
    },
  });
  app.on(
    "POST",
    [
      "/signup",
      "/signup/resend",
      "/login",
      "/logout/*",
      "/logout",
      "/reset/*",
      "/reset",
      "/verify",
      "/passkeys/*",
      "/account/*",
    ],
    limit,
    oneAtATime,
  );

  /** Whether the next sign-up becomes the administrator's (SIGNUP_PLAN unset, nobody signed up yet). */
  const firstSignup = async () =>
    !auth.deps.config.signupPlan && !closed() && !(await auth.deps.store.accounts.administrator());

  app.get("/signup", async (c) => html(c, signupPage(base(c), closed(), await firstSignup()), closed() ? 403 : 200));

  app.post("/signup", async (c) => {
    const f = await formFields(c);
    await checkPre(c);
    try {
      const user = await users.signUp(f.email, f.password ?? "", c.get("ip"));
      await sessions.start(c, user);
    } catch (e) {
      const first = await firstSignup();
      return refused(c, e, (s) => signupPage(s, closed(), first), { email: f.email });
    }
    return c.redirect(CHECK_PATH, 303);
  });

  // A signed-in browser goes on to `next`, unless it was sent to sign in again (reauth=1): an
  // action that needs a recent sign-in refused its session; signing in here starts a fresh one.
  app.get("/login", async (c) => {
    const reauth = c.req.query("reauth") === "1";
    const session = await sessions.read(c);
    if (session && !reauth) return c.redirect(safeNext(c.req.query("next")), 303);
    return html(c, loginPage({ ...base(c), next: c.req.query("next"), reauth, email: session?.user.email }));
  });

  app.post("/login", async (c) => {
    const f = await formFields(c);
    await checkPre(c);
    try {
      const user = await users.signIn(f.email, f.password ?? "", c.get("ip"));
      await sessions.start(c, user);
    } catch (e) {
      return refused(c, e, loginPage, { email: f.email, next: f.next, reauth: f.reauth === "1" });
    }
    return c.redirect(safeNext(f.next), 303);
  });

  app.get("/reset", async (c) => {
    const token = c.req.query("token");
    const s = base(c);
    if (!token) return html(c, resetRequestPage(s, false));
    // A used or expired link says so at once, with the form to ask for a new one.
    if (!(await users.resetLinkLive(token))) {
      return html(c, resetRequestPage({ ...s, error: s.t.verify_bad }, false), 400);
    }
    return html(c, resetPage(s, token));
  });

  app.post("/reset/request", async (c) => {
    const f = await formFields(c);
    await checkPre(c);
    try {
      await users.requestReset(f.email, c.get("ip"));
    } catch (e) {
      return refused(c, e, (s) => resetRequestPage(s, false), { email: f.email });
    }
    return html(c, resetRequestPage(base(c), true));
  });

  app.post("/reset", async (c) => {
    const f = await formFields(c);
    await checkPre(c);
    try {
      const user = await users.resetPassword(f.token ?? "", f.password ?? "");
      // A first proof of the mailbox may have revoked the account's keys: at once in this process.
      keys.clear();
      await sessions.start(c, user);
    } catch (e) {
      return refused(c, e, (s) => resetPage(s, f.token ?? ""), {});
    }
    return c.redirect("/dashboard", 303);
  });

  app.get("/verify", (c) => html(c, verifyPage(base(c), c.req.query("token") ?? "")));

  app.post("/verify", async (c) => {
    const f = await formFields(c);
    await checkPre(c);
    const user = await users.verifyEmail(f.token ?? "", (await sessions.read(c))?.user.id ?? null);
    if (user === "sign-in") return html(c, verifyPage(base(c), f.token ?? "", "sign-in"), 403);
    return html(c, verifyPage(base(c), "", user ? "ok" : "bad"), user ? 200 : 400);
  });

  // ── passkeys before sign-in (JSON, called by islands/Passkey.tsx) ──────────────────────────

  app.post("/passkeys/login/options", async (c) => {
    await checkPre(c);
    // Each answer stores a challenge: paced per IP, so that nobody can fill KV with them.
    const wait = await users.throttle.retryAfter([["challenge", c.get("ip")]]);
    if (wait > 0) {
      throw new ApiError(429, `too many attempts; try again in ${wait} seconds`, undefined, {
        "Retry-After": String(wait),
      });
    }
    await users.throttle.fail("challenge", c.get("ip"));
    const { challengeId, options } = await passkeys.loginOptions();
    return c.json({ challenge_id: challengeId, options });
  });

  app.post("/passkeys/login/verify", async (c) => {
    const body = await jsonOf(c);
    await checkPre(c);
    const wait = await users.throttle.retryAfter([["ip", c.get("ip")]]);
    if (wait > 0) {
      throw new ApiError(429, `too many attempts; try again in ${wait} seconds`, undefined, {
        "Retry-After": String(wait),
      });
    }
    const user = await passkeys.verifyLogin(body.challenge_id, body.response).catch(async (e) => {
      await users.throttle.fail("ip", c.get("ip"));
      throw e;
    });
    await sessions.start(c, user);
    return c.json({ redirect: safeNext(body.next) });
  });

  app.post("/passkeys/signup/options", async (c) => {
    const body = await jsonOf(c);
    await checkPre(c);
    const email = users.checkSignUp(body.email);
    // Paced like a sign-up: this answer, too, says whether an email has an account.
    const wait = await users.throttle.retryAfter([["create", c.get("ip")]]);
    if (wait > 0) {
      throw new ApiError(429, `too many attempts; try again in ${wait} seconds`, undefined, {
        "Retry-After": String(wait),
      });
    }
    await users.throttle.fail("create", c.get("ip"));
    if (await auth.deps.store.users.byEmail(email)) {
      throw new ApiError(409, "an account with this email exists; sign in or reset its password", "email");
    }
    const { challengeId, options } = await passkeys.registrationOptions({ kind: "signup", userId: newUserId(), email });
    return c.json({ challenge_id: challengeId, options });
  });

  app.post("/passkeys/signup/verify", async (c) => {
    const body = await jsonOf(c);
    await checkPre(c);
    const { challenge, passkey } = await passkeys.verifyRegistration(
      body.challenge_id,
      body.response,
      "signup",
      String(body.name ?? "Passkey"),
    );
    const user = await users.signUp(challenge.email, null, c.get("ip"), challenge.user_id!);
    // A passkey refused here (one already registered) would leave an account nobody can enter.
    await passkeys.add(passkey).catch(async (e) => {
      await users.deleteAccount(user, timers);
      throw e;
    });
    await sessions.start(c, user);
    return c.json({ redirect: CHECK_PATH });
  });

  // ── signed in ──────────────────────────────────────────────────────────────────────────────

  const signedIn = app as unknown as Hono<SessionEnv>;
  for (const path of ["/logout", "/logout/everywhere", "/passkeys/register/*", "/account", "/account/*"]) {
    signedIn.use(path, auth.requireSession(), auth.csrfProtect());
  }
  // A new passkey outlives sign-out everywhere and password changes: only a recent sign-in adds one.
  // Checked when the challenge is issued (it lives 5 minutes): a ceremony that crosses the limit
  // still completes, rather than leave the authenticator a credential the account never records.
  signedIn.use("/passkeys/register/options", async (c, next) => {
    if (sessions.fresh(c.get("session"))) return await next();
    const t = authTexts(authLang(undefined, c.req.header("accept-language")));
    throw new ApiError(403, fillText(t.reauth_text, { n: FRESH_MS / 60_000 }));
  });

  signedIn.post("/logout", async (c) => {
    await sessions.end(c, c.get("session").record);
    return c.redirect("/login", 303);
  });

  signedIn.post("/logout/everywhere", async (c) => {
    await sessions.endAll(c.get("session").user.id);
    sessions.clearCookie(c);
    return c.redirect("/login", 303);
  });

  signedIn.post("/passkeys/register/options", async (c) => {
    const { user } = c.get("session");
    // Each answer stores a challenge: paced per user, as sign-in's are per IP.
    const wait = await users.throttle.retryAfter([["challenge", user.id]]);
    if (wait > 0) {
      throw new ApiError(429, `too many attempts; try again in ${wait} seconds`, undefined, {
        "Retry-After": String(wait),
      });
    }
    await users.throttle.fail("challenge", user.id);
    const { challengeId, options } = await passkeys.registrationOptions({
      kind: "register",
      userId: user.id,
      email: user.email,
    });
    return c.json({ challenge_id: challengeId, options });
  });

  signedIn.post("/passkeys/register/verify", async (c) => {
    const { user } = c.get("session");
    const body = await jsonOf(c);
    const { challenge, passkey } = await passkeys.verifyRegistration(
      body.challenge_id,
      body.response,
      "register",
      String(body.name ?? "Passkey"),
    );
    if (challenge.user_id !== user.id) throw new ApiError(400, "passkey not accepted: the request was another user's");
    await passkeys.add(passkey, c.get("session").record.hash);
    return c.json({ redirect: safeNext(body.next ?? "/account") });
  });

  accountRoutes(signedIn, auth, timers, keys, accountFrames);
  checkEmailRoutes(app, auth);
}
