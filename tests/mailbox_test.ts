/**
 * Who holds a mailbox holds the account: one-time links (how long they last, which older ones a
 * reset or a password change kills), the only addresses mail goes to, and what the first proof of
 * a mailbox takes away from whoever signed up with it before. Through the real app on a fresh KV.
 */
import assert from "node:assert/strict";
import { createApp } from "../app.ts";
import { testConfig } from "../config.ts";
import { accountsWorld, formBrowser, strangerPasskey, T0, TestClock } from "./helpers.ts";
import { Store } from "../lib/kv/store.ts";
import { createBareAccount } from "../lib/accounts/accounts.ts";
import { parseEmail, RESET_TTL_MS, SET_PASSWORD_TTL_MS, VERIFY_TTL_MS } from "../lib/accounts/users.ts";

const SITE = "https://timers.test";
const PASSWORD = "a long enough phrase";

const world = accountsWorld;
type World = Awaited<ReturnType<typeof world>>;

/** One person's browser: keeps cookies, posts same-origin forms; with the reset and sign-in forms. */
function browser(w: World, ip = "203.0.113.7") {
  const b = formBrowser(w.app.app, SITE, ip);
  const reset = (token: string, password: string) => b.form(`/reset?token=${token}`, "/reset", { token, password });
  const askReset = (email: string) => b.form("/reset", "/reset/request", { email });
  const signIn = (email: string, password: string) => b.form("/login", "/login", { email, password });
  return { ...b, reset, askReset, signIn };
}

// ── reset links die with the password they were asked for ────────────────────────────────────

Deno.test("a reset kills every older reset link of the user", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "two@example.com", password: PASSWORD })).status, 303);
  await b.askReset("two@example.com");
  const first = w.lastToken("/reset");
  await b.askReset("two@example.com");
  const second = w.lastToken("/reset");
  assert.notEqual(first, second);
  assert.equal((await b.reset(second, "the second link's phrase")).status, 303);
  const old = await b.reset(first, "the first link's phrase");
  assert.equal(old.status, 400, "the older link is dead once a reset went through");
  assert.equal((await browser(w, "198.51.100.1").signIn("two@example.com", "the second link's phrase")).status, 303);
  await w.close();
});

Deno.test("a password change on /account kills the reset links asked for before it", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "chg@example.com", password: PASSWORD })).status, 303);
  await browser(w, "198.51.100.2").askReset("chg@example.com");
  const before = w.lastToken("/reset");
  const changed = await b.form("/account", "/account/password", {
    current_password: PASSWORD,
    password: "a changed long phrase",
  });
  assert.equal(changed.status, 303);
  assert.equal((await browser(w, "198.51.100.3").reset(before, "a hijacker's phrase")).status, 400);
  assert.equal((await browser(w, "198.51.100.4").signIn("chg@example.com", "a changed long phrase")).status, 303);
  // A link asked for after the change works.
  await browser(w, "198.51.100.5").askReset("chg@example.com");
  assert.equal((await browser(w, "198.51.100.6").reset(w.lastToken("/reset"), "a later long phrase")).status, 303);
  await w.close();
});

// ── an account's email is one bare mailbox ────────────────────────────────────────────────────

/** Forms nodemailer reads as an address list delivering to victim@corp.com. */
const DISGUISED = [
  "x<victim@corp.com>",
  "(a)victim@corp.com",
  "victim@corp.com(b)",
  "g:victim@corp.com;",
  "victim@corp.com,",
  "victim@corp.com, other@corp.com",
  '"victim@corp.com"@corp.com',
  "victim@[10.0.0.1]",
  "vic tim@corp.com",
  "vic\\tim@corp.com",
  "victim@@corp.com",
  ".victim@corp.com",
  "vic..tim@corp.com",
  "victim@corp",
  "victim@-corp.com",
  "victim@corp.com.",
];

Deno.test("parseEmail takes a bare mailbox only: no display name, comment, group, list or quotes", () => {
  for (const raw of DISGUISED) assert.throws(() => parseEmail(raw), /email must look like/, raw);
  assert.equal(parseEmail("  Jo.Doe+timers@Mail.Example.org "), "jo.doe+timers@mail.example.org");
  assert.equal(parseEmail("o'neil_#1@sub-domain.example.co.uk"), "o'neil_#1@sub-domain.example.co.uk");
  // The form mail is delivered to (DECISIONS.md): an international domain in punycode.
  assert.equal(parseEmail("müller@bücher.de"), "müller@xn--bcher-kva.de");
  assert.throws(() => parseEmail(`${"a".repeat(65)}@example.com`), /email must look like/);
});

Deno.test("one mailbox cannot get more accounts, nor reset mails, through a disguised address", async () => {
  const w = await world();
  assert.equal(
    (await browser(w).form("/signup", "/signup", { email: "victim@corp.com", password: PASSWORD })).status,
    303,
  );
  const mailed = () => w.logs.filter((l) => l.link).length;
  const before = mailed();
  for (const [i, email] of DISGUISED.slice(0, 6).entries()) {
    const b = browser(w, `198.51.100.${i + 10}`);
    assert.equal((await b.form("/signup", "/signup", { email, password: PASSWORD })).status, 422, email);
    assert.equal((await b.askReset(email)).status, 422, email);
    assert.equal(await w.store.users.byEmail(email.trim().toLowerCase()), null, email);
  }
  assert.equal(mailed(), before, "nothing was mailed to the disguised addresses");
  await w.close();
});

Deno.test("an account stored with a disguised address before this check gets no mail", async () => {
  const w = await world();
  // Written as the old, looser check let sign-up write it.
  const acct = await createBareAccount(w.store, { plan: "free", name: "old", now: w.clock.now() });
  const user = {
    id: "usr_disguised",
    account_id: acct.account.id,
    email: "x<victim@corp.com>",
    password_hash: null,
    email_verified_at: null,
    created_at: w.clock.now(),
  };
  assert.ok(await w.store.users.create(user));
  await assert.rejects(() => w.app.auth.users.requestResetFor(user), /not a bare mailbox/);
  await assert.rejects(() => w.app.auth.users.sendVerification(user), /not a bare mailbox/);
  assert.equal(w.logs.filter((l) => l.link).length, 0);
  await w.close();
});

// ── a link's record lasts as long as the link ────────────────────────────────────────────────

Deno.test("each one-time link is stored with a KV expiry no shorter than its own lifetime", async () => {
  // KV expires records by the real clock, which no test can move by days: so the expiry each
  // link is written with is what is checked. The app runs on a KV that records its writes.
  const kv = await Deno.openKv(":memory:");
  const expiries: { key: Deno.KvKey; expireIn?: number }[] = [];
  const recording = new Proxy(kv, {
    get(target, name) {
      if (name === "set") {
        return (key: Deno.KvKey, value: unknown, o?: { expireIn?: number }) => {
          expiries.push({ key, expireIn: o?.expireIn });
          return target.set(key, value, o);
        };
      }
      const v = Reflect.get(target, name);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const store = new Store(recording);
  const clock = new TestClock(T0);
  const app = createApp({ store, config: testConfig({ siteUrl: SITE }), now: clock.now, log: () => {} });
  const tokenExpiries = () => expiries.filter((e) => e.key[0] === "auth_token").map((e) => e.expireIn ?? Infinity);
  try {
    const { users } = app.auth;
    await users.signUp("seven@example.com", PASSWORD, "203.0.113.1"); // a confirmation link: 7 days
    await users.requestReset("seven@example.com", "203.0.113.1"); // a reset link: 1 hour
    const { account } = await createBareAccount(store, { plan: "free", name: "cli", now: clock.now() });
    await users.setLogin(account.id, "ops@example.com", null); // the CLI's set-password link: 7 days
    const [verify, reset, setPassword] = tokenExpiries();
    assert.ok(verify >= VERIFY_TTL_MS, `the confirmation link's record expires after ${verify} ms`);
    assert.ok(reset >= RESET_TTL_MS, `the reset link's record expires after ${reset} ms`);
    assert.ok(setPassword >= SET_PASSWORD_TTL_MS, `the set-password link's record expires after ${setPassword} ms`);
    assert.ok(reset < verify, "a short link's record does not linger for a long one's time");
  } finally {
    await app.scheduler.stop();
    await app.limiter.stop();
    kv.close();
  }
});

// ── the first proof of a mailbox takes away what came before it ──────────────────────────────

/**
 * Someone signs up first with the victim's email (never confirmed) and gets every way in the
 * account offers: a session, an API key, the revealed webhook secret, a passkey.
 */
async function preHijack(w: World, email: string) {
  const attacker = browser(w, "192.0.2.66");
  assert.equal((await attacker.form("/signup", "/signup", { email, password: PASSWORD })).status, 303);
  // Each form redirects; the page it leads to shows the new key or secret once.
  assert.equal((await attacker.form("/dashboard/keys", "/dashboard/keys", { name: "mine" })).status, 303);
  const apiKey = /tsk_[0-9A-Za-z]{32}/.exec((await attacker.request("GET", "/dashboard/keys")).text)![0];
  assert.equal((await attacker.form("/dashboard/webhooks", "/dashboard/webhooks/reveal", {})).status, 303);
  const shown = await attacker.request("GET", "/dashboard/webhooks");
  const webhookSecret = /whsec_[A-Za-z0-9+/=]+/.exec(shown.text)![0];
  const user = (await w.store.users.byEmail(email))!;
  assert.ok(await w.store.users.addPasskey(strangerPasskey(user.id, w.clock.now())));
  const api = () => w.app.app.request(`${SITE}/api/v1/timers`, { headers: { authorization: `Bearer ${apiKey}` } });
  const apiStatus = async () => {
    const r = await api();
    await r.body?.cancel();
    return r.status;
  };
  assert.equal(await apiStatus(), 200);
  return { attacker, user, apiKey, webhookSecret, apiStatus };
}

/** Asserts the attacker kept nothing: no session, key, passkey, nor a secret that still signs. */
async function assertLockedOut(w: World, h: Awaited<ReturnType<typeof preHijack>>) {
  assert.equal((await h.attacker.request("GET", "/dashboard")).status, 303, "the attacker's session ended");
  assert.equal(await h.apiStatus(), 401, "the attacker's API key is gone");
  assert.deepEqual(
    await w.store.accounts.listKeys(h.user.account_id),
    [],
    "deleted, revoked ones too: no limit filled",
  );
  assert.deepEqual(await w.store.users.listPasskeys(h.user.id), [], "the attacker's passkey is gone");
  const account = (await w.store.accounts.get(h.user.account_id))!;
  const secrets = account.webhook_secrets;
  assert.ok(secrets.every((s) => s.secret !== h.webhookSecret), "the secret the attacker saw signs nothing");
  assert.equal(secrets.length, 1);
  assert.equal(secrets[0].revealed, false, "the new secret is the owner's to reveal, once");
}

Deno.test("a confirmation link opened outside the account's session confirms nothing and points to sign-in or a reset", async () => {
  const w = await world({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  // The owner of the mailbox opens the confirmation link mailed at sign-up, in their own browser.
  const owner = browser(w);
  const token = w.lastToken("/verify");
  const v = await owner.form(`/verify?token=${token}`, "/verify", { token });
  assert.equal(v.status, 403);
  assert.match(v.text, /Sign in to this account first/);
  assert.match(v.text, /href="\/reset"/);
  assert.equal((await w.store.users.get(h.user.id))!.email_verified_at, null, "not confirmed");
  assert.equal(await h.apiStatus(), 200, "nothing changed yet");
  // The reset it points to is the first proof: it takes every way in away and the password too.
  await owner.askReset("victim@example.org");
  assert.equal((await owner.reset(w.lastToken("/reset"), "the owner's own phrase")).status, 303);
  await assertLockedOut(w, h);
  assert.notEqual((await w.store.users.get(h.user.id))!.email_verified_at, null, "the reset confirmed the email");
  // The confirmation link, never used, now confirms nothing more for a stranger's session.
  const again = await h.attacker.form(`/verify?token=${token}`, "/verify", { token });
  assert.notEqual(again.status, 200);
  await w.close();
});

Deno.test("a confirmation link opened while signed in as another account leads to the sign-in form, not back to itself", async () => {
  const w = await world({ signupPlan: "pro" });
  const mine = browser(w);
  assert.equal((await mine.form("/signup", "/signup", { email: "a@example.org", password: PASSWORD })).status, 303);
  const tokenA = w.lastToken("/verify");
  assert.equal((await mine.form("/signup", "/signup", { email: "b@example.org", password: PASSWORD })).status, 303);
  // Signed in as b, the link of a is opened.
  const v = await mine.form(`/verify?token=${tokenA}`, "/verify", { token: tokenA });
  assert.equal(v.status, 403);
  const link = /href="(\/login\?reauth=1&amp;next=[^"]+)"/.exec(v.text)?.[1].replaceAll("&amp;", "&");
  assert.ok(link, "the page links to signing in again");
  const login = await mine.request("GET", link);
  assert.equal(login.status, 200, "the form shows to a signed-in browser instead of sending it back");
  const signedIn = await mine.form(link, "/login", {
    email: "a@example.org",
    password: PASSWORD,
    next: new URL(link, SITE).searchParams.get("next")!,
    reauth: "1",
  });
  assert.equal(signedIn.status, 303);
  const back = signedIn.headers.get("location")!;
  assert.match(back, /^\/verify\?token=/);
  assert.equal((await mine.form(back, "/verify", { token: tokenA })).status, 200);
  const a = (await w.store.users.byEmail("a@example.org"))!;
  assert.notEqual(a.email_verified_at, null);
  await w.close();
});

Deno.test("confirming in the browser signed in as the account's own user keeps its keys and secret", async () => {
  const w = await world({ signupPlan: "pro" });
  const h = await preHijack(w, "owner@example.org"); // here the sign-up was the mailbox owner's own
  const token = w.lastToken("/verify");
  const v = await h.attacker.form(`/verify?token=${token}`, "/verify", { token });
  assert.equal(v.status, 200);
  assert.notEqual((await w.store.users.get(h.user.id))!.email_verified_at, null);
  assert.equal(await h.apiStatus(), 200, "the key made before confirming still works");
  assert.equal((await h.attacker.request("GET", "/dashboard")).status, 200, "still signed in");
  await w.close();
});

Deno.test("a reset that first proves the mailbox revokes the keys, passkeys, sessions and seen secret; a later one does not", async () => {
  const w = await world({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  const owner = browser(w);
  await owner.askReset("victim@example.org");
  assert.equal((await owner.reset(w.lastToken("/reset"), "the owner's own phrase")).status, 303);
  await assertLockedOut(w, h);
  assert.equal((await browser(w, "192.0.2.67").signIn("victim@example.org", PASSWORD)).status, 401);
  // The owner is signed in and makes their own key and secret; a later reset keeps them.
  assert.equal((await owner.form("/dashboard/keys", "/dashboard/keys", { name: "owner's" })).status, 303);
  const ownerKey = /tsk_[0-9A-Za-z]{32}/.exec((await owner.request("GET", "/dashboard/keys")).text)![0];
  await owner.form("/dashboard/webhooks", "/dashboard/webhooks/reveal", {});
  const secretsBefore = (await w.store.accounts.get(h.user.account_id))!.webhook_secrets;
  await owner.askReset("victim@example.org");
  assert.equal((await owner.reset(w.lastToken("/reset"), "the owner's next phrase")).status, 303);
  const r = await w.app.app.request(`${SITE}/api/v1/timers`, { headers: { authorization: `Bearer ${ownerKey}` } });
  assert.equal(r.status, 200, "a reset of a confirmed account leaves its keys");
  await r.body?.cancel();
  assert.deepEqual((await w.store.accounts.get(h.user.account_id))!.webhook_secrets, secretsBefore);
  await w.close();
});

Deno.test("a passkey whose registration was under way when the first proof ended the sessions is not added", async () => {
  const w = await world({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  const csrf = await h.attacker.csrfOf("/account");
  // The stranger's ceremony passed its session check; its verification ends after the owner's reset.
  const entered = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  const passkeys = w.app.auth.passkeys;
  const verify = passkeys.verifyRegistration.bind(passkeys);
  passkeys.verifyRegistration = async () => {
    entered.resolve();
    await gate.promise;
    const passkey = { ...strangerPasskey(h.user.id, w.clock.now()), id: "cred-registered-late" };
    const challenge = { challenge: "c", kind: "register" as const, user_id: h.user.id, email: null, expires_at: 0 };
    return { challenge, passkey };
  };
  const late = w.app.app.request(`${SITE}/passkeys/register/verify`, {
    method: "POST",
    headers: {
      "x-forwarded-for": "192.0.2.66",
      cookie: [...h.attacker.jar].map(([k, v]) => `${k}=${v}`).join("; "),
      origin: SITE,
      "sec-fetch-site": "same-origin",
      "content-type": "application/json",
      "x-csrf-token": csrf,
    },
    body: JSON.stringify({ challenge_id: "c", response: {} }),
  });
  await entered.promise;
  const owner = browser(w);
  await owner.askReset("victim@example.org");
  assert.equal((await owner.reset(w.lastToken("/reset"), "the owner's own phrase")).status, 303);
  gate.resolve();
  const res = await late;
  await res.body?.cancel();
  passkeys.verifyRegistration = verify;
  assert.deepEqual((await w.store.users.listPasskeys(h.user.id)).map((p) => p.id), [], "no passkey outlives the proof");
  assert.ok(res.status >= 400 && res.status < 500, `answered ${res.status}`);
  await w.close();
});

Deno.test("a sign-in under way when a reset replaced the password gets no session", async () => {
  const w = await world({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  // The stranger signs in again and again; one sign-in has read the old password when the owner resets.
  const stranger = browser(w, "192.0.2.66");
  const csrf = await stranger.csrfOf("/login");
  const entered = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  const byEmail = w.store.users.byEmail.bind(w.store.users);
  let held = false;
  w.store.users.byEmail = async (email: string) => {
    const found = await byEmail(email);
    if (!held && email === "victim@example.org") {
      held = true;
      entered.resolve();
      await gate.promise;
    }
    return found;
  };
  const signIn = stranger.request("POST", "/login", {
    form: { _csrf: csrf, email: "victim@example.org", password: PASSWORD },
  });
  await entered.promise;
  w.store.users.byEmail = byEmail;
  const owner = browser(w);
  await owner.askReset("victim@example.org");
  assert.equal((await owner.reset(w.lastToken("/reset"), "the owner's own phrase")).status, 303);
  gate.resolve();
  await signIn;
  assert.equal((await stranger.request("GET", "/dashboard")).status, 303, "the stranger has no session");
  await assertLockedOut(w, h);
  await w.close();
});

Deno.test("a secret rotated by a request under way when the first proof ended the sessions is shown to nobody", async () => {
  const w = await world({ signupPlan: "pro" });
  const h = await preHijack(w, "victim@example.org");
  const csrf = await h.attacker.csrfOf("/dashboard/webhooks");
  // The stranger's rotation passed its session check; its change lands after the owner's reset.
  const entered = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  const update = w.store.accounts.update.bind(w.store.accounts);
  let held = false;
  w.store.accounts.update = async (...args: Parameters<typeof update>) => {
    if (!held) {
      held = true;
      entered.resolve();
      await gate.promise;
    }
    return await update(...args);
  };
  const rotation = h.attacker.request("POST", "/dashboard/webhooks/rotate", { form: { _csrf: csrf } });
  await entered.promise;
  const owner = browser(w);
  await owner.askReset("victim@example.org");
  assert.equal((await owner.reset(w.lastToken("/reset"), "the owner's own phrase")).status, 303);
  gate.resolve();
  const shown = await rotation;
  w.store.accounts.update = update;
  const secrets = (await w.store.accounts.get(h.user.account_id))!.webhook_secrets.map((s) => s.secret);
  const seen = /whsec_[A-Za-z0-9+/=]+/.exec(shown.text)?.[0];
  assert.ok(seen === undefined || !secrets.includes(seen), "the stranger holds no secret that signs");
  assert.equal(shown.status, 401);
  await w.close();
});
