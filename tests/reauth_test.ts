/**
 * Recent sign-in: what adds a way in or shows a secret (API keys, the webhook secret, passkeys, a
 * first password, deleting the account) needs a session started less than FRESH_MS ago, so that
 * a session cookie stolen later does not become lasting access. /login?reauth=1 makes it fresh.
 */
import assert from "node:assert/strict";
import { createKey, secretRevealable } from "../lib/accounts/accounts.ts";
import { FRESH_MS } from "../lib/accounts/sessions.ts";
import { LANGS } from "../lib/i18n.ts";
import { authTexts } from "../routes/auth/texts.ts";
import { accountsWorld, formBrowser } from "./helpers.ts";

const SITE = "https://timers.test";
const PASSWORD = "a long enough phrase";

type World = Awaited<ReturnType<typeof accountsWorld>>;

/** A browser signed up as `email` (password account), and its account's id. */
async function signedUp(w: World, email: string) {
  const b = formBrowser(w.app.app, SITE);
  assert.equal((await b.form("/signup", "/signup", { email, password: PASSWORD })).status, 303);
  const user = (await w.store.users.byEmail(email))!;
  return { b, user, account: user.account_id };
}

/** Signs in again through /login?reauth=1 (the page shows the form although the browser is signed in). */
async function reauth(b: ReturnType<typeof formBrowser>, email: string, next: string) {
  const page = await b.request("GET", `/login?reauth=1&next=${encodeURIComponent(next)}`);
  assert.equal(page.status, 200, "the sign-in form, not a redirect");
  assert.match(page.text, /name="reauth" value="1"/);
  assert.match(page.text, new RegExp(`value="${email}"`), "the email is filled in");
  const r = await b.form(`/login?reauth=1&next=${encodeURIComponent(next)}`, "/login", {
    email,
    password: PASSWORD,
    next,
    reauth: "1",
  });
  assert.equal(r.status, 303);
  assert.equal(r.headers.get("location"), next);
}

/** The session's CSRF token, which the JSON helper sends as X-CSRF-Token. */
async function jsonToken(b: ReturnType<typeof formBrowser>) {
  b.jar.set("__Host-csrf", await b.csrfOf("/account"));
}

Deno.test("a session older than FRESH_MS creates no API key and neither reveals nor rotates the webhook secret", async () => {
  const w = await accountsWorld();
  const { b, account } = await signedUp(w, "keys@example.com");
  const before = (await w.store.accounts.get(account))!;
  w.clock.advance(FRESH_MS - 1000);
  assert.equal((await b.form("/dashboard/keys", "/dashboard/keys", { name: "early" })).status, 303, "still fresh");
  w.clock.advance(1000);

  const keysBefore = (await w.store.accounts.listKeys(account)).length;
  const key = await b.form("/dashboard/keys", "/dashboard/keys", { name: "late" });
  assert.equal(key.status, 403);
  assert.match(key.text, /href="\/login\?reauth=1&amp;next=%2Fdashboard%2Fkeys"/);
  assert.match(key.text, /more than 15 minutes/);
  assert.equal((await w.store.accounts.listKeys(account)).length, keysBefore, "no key was created");

  for (const action of ["reveal", "rotate"]) {
    const r = await b.form("/dashboard/webhooks", `/dashboard/webhooks/${action}`, {});
    assert.equal(r.status, 403, action);
    assert.match(r.text, /href="\/login\?reauth=1&amp;next=%2Fdashboard%2Fwebhooks"/);
    assert.doesNotMatch(r.text, /whsec_/, "no secret shown");
  }
  const after = (await w.store.accounts.get(account))!;
  assert.deepEqual(after.webhook_secrets, before.webhook_secrets, "the secret is unchanged");
  assert.ok(secretRevealable(after), "the first secret is still unrevealed");

  // The pages still show their controls; revoking a key needs no recent sign-in.
  assert.match((await b.request("GET", "/dashboard/keys")).text, /action="\/dashboard\/keys"/);
  assert.match((await b.request("GET", "/dashboard/webhooks")).text, /action="\/dashboard\/webhooks\/rotate"/);
  const old = await createKey(w.store, account, "old");
  assert.equal((await b.form("/dashboard/keys", `/dashboard/keys/${old.key.id}/revoke`, {})).status, 303);

  // Signing in again starts a fresh session (the old one ends) and comes back to the page.
  const stale = b.jar.get("__Host-session")!;
  const otherTab = await b.csrfOf("/dashboard/keys");
  await reauth(b, "keys@example.com", "/dashboard/keys");
  // A form another tab opened before still posts: the same person in the same browser keeps its CSRF token.
  const fromOtherTab = await b.request("POST", "/dashboard/keys", { form: { _csrf: otherTab, name: "tab" } });
  assert.equal(fromOtherTab.status, 303);
  assert.notEqual(b.jar.get("__Host-session"), stale);
  const thief = formBrowser(w.app.app, SITE, "192.0.2.66");
  thief.jar.set("__Host-session", stale);
  assert.equal((await thief.request("GET", "/dashboard")).status, 303, "the old session has ended");
  assert.equal((await b.form("/dashboard/keys", "/dashboard/keys", { name: "late" })).status, 303);
  assert.equal((await b.form("/dashboard/webhooks", "/dashboard/webhooks/reveal", {})).status, 303);
  assert.match((await b.request("GET", "/dashboard/webhooks")).text, /whsec_/);
  assert.equal((await b.form("/dashboard/webhooks", "/dashboard/webhooks/rotate", {})).status, 303);
  await w.close();
});

Deno.test("a session older than FRESH_MS adds no passkey, sets no first password and deletes no account", async () => {
  const w = await accountsWorld();
  const { b, user } = await signedUp(w, "old@example.com");
  await jsonToken(b);
  w.clock.advance(FRESH_MS);

  // The challenge is refused; verify (checked against a challenge only a fresh session gets) adds nothing either.
  const r = await b.request("POST", "/passkeys/register/options", { json: {} });
  assert.equal(r.status, 403);
  const body = JSON.parse(r.text);
  assert.equal(body.error.code, 403);
  assert.match(body.error.message, /Sign in again/);
  const verify = await b.request("POST", "/passkeys/register/verify", { json: {} });
  assert.ok(verify.status >= 400, `verify without a challenge: ${verify.status}`);
  assert.deepEqual(await w.store.users.listPasskeys(user.id), []);
  let challenges = 0;
  for await (const _ of w.kv.list({ prefix: ["webauthn_challenge"] })) challenges++;
  assert.equal(challenges, 0, "no registration challenge was stored");
  // In the browser's language.
  const de = await w.app.app.request(`${SITE}/passkeys/register/options`, {
    method: "POST",
    headers: {
      cookie: `__Host-session=${b.jar.get("__Host-session")}`,
      origin: SITE,
      "content-type": "application/json",
      "x-csrf-token": b.jar.get("__Host-csrf")!,
      "accept-language": "de",
    },
    body: "{}",
  });
  assert.equal(de.status, 403);
  assert.match((await de.json()).error.message, /Melden Sie sich erneut an/);

  const del = await b.form("/account", "/account/delete", { confirm: "old@example.com", back: "/dashboard/account" });
  assert.equal(del.status, 403);
  assert.match(del.text, /href="\/login\?reauth=1&amp;next=%2Fdashboard%2Faccount"/);
  assert.ok(await w.store.users.get(user.id), "the account is still there");

  // A passkey-only account (no password): setting a first password is a new way in.
  await w.store.users.update(user.id, (u) => ({ ...u, password_hash: null }));
  const set = await b.form("/account", "/account/password", { password: "another long phrase" });
  assert.equal(set.status, 403);
  assert.match(set.text, /href="\/login\?reauth=1&amp;next=%2Faccount"/);
  assert.equal((await w.store.users.get(user.id))!.password_hash, null, "no password was set");
  await w.close();
});

Deno.test("changing the password and signing out everywhere need no recent sign-in", async () => {
  const w = await accountsWorld();
  const { b } = await signedUp(w, "change@example.com");
  w.clock.advance(FRESH_MS * 2);
  const r = await b.form("/account", "/account/password", {
    current_password: PASSWORD,
    password: "a new long phrase",
  });
  assert.equal(r.status, 303);
  assert.equal((await b.form("/account", "/logout/everywhere", {})).status, 303);
  await w.close();
});

Deno.test("after /login?reauth=1 the passkey options, a first password and the deletion go through", async () => {
  const w = await accountsWorld();
  const { b, user } = await signedUp(w, "back@example.com");
  w.clock.advance(FRESH_MS + 1);
  // Without reauth=1 a signed-in browser is still sent on to next.
  const on = await b.request("GET", "/login?next=%2Faccount");
  assert.equal(on.status, 303);
  assert.equal(on.headers.get("location"), "/account");

  await reauth(b, "back@example.com", "/account");
  await jsonToken(b);
  assert.equal((await b.request("POST", "/passkeys/register/options", { json: {} })).status, 200);
  await w.store.users.update(user.id, (u) => ({ ...u, password_hash: null }));
  assert.equal((await b.form("/account", "/account/password", { password: "another long phrase" })).status, 303);
  assert.notEqual((await w.store.users.get(user.id))!.password_hash, null);
  const del = await b.form("/account", "/account/delete", { confirm: "back@example.com" });
  assert.equal(del.status, 303);
  assert.equal(await w.store.users.get(user.id), null);
  await w.close();
});

Deno.test("every language has the recent sign-in texts, and says how many minutes", () => {
  for (const lang of LANGS) {
    const t = authTexts(lang);
    for (const k of ["reauth_title", "reauth_text", "reauth_intro"] as const) assert.ok(t[k], `${lang} lacks ${k}`);
    assert.match(t.reauth_text, /\{n\}/, `${lang}.reauth_text names the minutes`);
  }
});

Deno.test("signing in as another person in the same browser starts a new CSRF token: the first one's forms no longer post", async () => {
  const w = await accountsWorld();
  const { b } = await signedUp(w, "first@example.com");
  const second = await signedUp(w, "second@example.com");
  await second.b.request("POST", "/logout", { form: { _csrf: await second.b.csrfOf("/account") } });
  const firstsTab = await b.csrfOf("/dashboard/keys");
  const next = "/dashboard/keys";
  const signedIn = await b.form(`/login?reauth=1&next=${encodeURIComponent(next)}`, "/login", {
    email: "second@example.com",
    password: PASSWORD,
    next,
    reauth: "1",
  });
  assert.equal(signedIn.status, 303);
  const posted = await b.request("POST", "/dashboard/keys", { form: { _csrf: firstsTab, name: "from the first" } });
  assert.equal(posted.status, 403);
  assert.equal((await w.store.accounts.listKeys(second.account)).length, 0);
  await w.close();
});
