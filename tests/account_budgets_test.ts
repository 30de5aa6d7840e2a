/**
 * The service-wide budgets of sign-in work against what they must let through: a password change
 * at the default hashing rate, sign-ups refused by a budget (they count against no address), and
 * mails with a link (one mailbox's budget, `+tag` or not; resends count against the address).
 * Through the real app on a fresh KV with the test clock.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { accountsWorld, formBrowser } from "./helpers.ts";

const SITE = "https://timers.test";
const PASSWORD = "a long enough phrase";
type World = Awaited<ReturnType<typeof accountsWorld>>;
/** PASSWORD_HASHES_PER_SECOND unset (5): what an operator gets; the tests' config makes it 1000. */
const DEFAULT_HASHES = loadConfig({}).passwordHashesPerSecond;

const signUp = (w: World, ip: string, email: string) =>
  formBrowser(w.app.app, SITE, ip).form("/signup", "/signup", { email, password: PASSWORD });

Deno.test("at the default PASSWORD_HASHES_PER_SECOND a password change on /account goes through", async () => {
  const w = await accountsWorld({ passwordHashesPerSecond: DEFAULT_HASHES });
  const b = formBrowser(w.app.app, SITE, "203.0.113.7");
  assert.equal((await b.form("/signup", "/signup", { email: "pat@example.com", password: PASSWORD })).status, 303);
  w.clock.advance(1000); // an idle second: the budget is full again
  const changed = await b.form("/account", "/account/password", {
    current_password: PASSWORD,
    password: "another long phrase",
  });
  assert.equal(changed.status, 303, changed.text.slice(0, 300));
  assert.match(changed.headers.get("location")!, /done=password/);
  // The budget still bounds it: the change took this second's hashes, so a sign-up now waits.
  const next = await signUp(w, "198.51.100.9", "quinn@example.com");
  assert.equal(next.status, 503);
  assert.equal(next.headers.get("retry-after"), "1");
  w.clock.advance(1000);
  const signIn = await formBrowser(w.app.app, SITE, "198.51.100.10").form("/login", "/login", {
    email: "pat@example.com",
    password: "another long phrase",
  });
  assert.equal(signIn.status, 303, "the new password signs in");
  await w.close();
});

Deno.test("a wrong current password is still 422 and counted against the email, within the one budget call", async () => {
  const w = await accountsWorld({ passwordHashesPerSecond: DEFAULT_HASHES });
  const b = formBrowser(w.app.app, SITE, "203.0.113.7");
  await b.form("/signup", "/signup", { email: "pat@example.com", password: PASSWORD });
  for (let i = 0; i < 5; i++) {
    w.clock.advance(1000);
    const r = await b.form("/account", "/account/password", { current_password: "not it at all", password: "x" });
    assert.equal(r.status, 422, `attempt ${i + 1}`);
  }
  w.clock.advance(1000);
  const locked = await b.form("/account", "/account/password", { current_password: PASSWORD, password: "x" });
  assert.equal(locked.status, 429, "the 5th wrong one locks the email, as at sign-in");
  await w.close();
});

Deno.test("sign-ups refused by a service budget (503) count neither against the address nor SIGNUP_PER_HOUR", async () => {
  const w = await accountsWorld({ passwordHashesPerSecond: DEFAULT_HASHES, signupPerHour: 2 });
  assert.equal((await signUp(w, "198.51.100.1", "first@example.com")).status, 303); // takes the second's hashes
  for (let i = 0; i < 11; i++) {
    const r = await signUp(w, "203.0.113.7", `later${i}@example.com`);
    assert.equal(r.status, 503, `attempt ${i + 1}`);
    assert.match(r.text, /too many sign-ins on the service right now/);
  }
  w.clock.advance(1000);
  const r = await signUp(w, "203.0.113.7", "later@example.com");
  assert.equal(r.status, 303, "neither the address's 10 an hour nor the service's 2 an hour were used up");
  await w.close();
});

/** The development mailer's mails to `mailbox` (any +tag). */
const mailsTo = (w: World, mailbox: string) =>
  w.logs.filter((l) => typeof l.to === "string" && l.to.replace(/\+[^@]*(?=@)/, "") === mailbox);

Deno.test("confirmation mails count against the mailbox's budget, +tag addresses and sign-ups too", async () => {
  const w = await accountsWorld();
  const browsers = [];
  for (let i = 1; i <= 4; i++) {
    const b = formBrowser(w.app.app, SITE, `198.51.100.${i}`);
    assert.equal(
      (await b.form("/signup", "/signup", { email: `target+${i}@example.com`, password: PASSWORD })).status,
      303,
    );
    browsers.push(b);
  }
  const answers = [];
  for (const b of browsers) {
    const r = await b.form("/signup/check", "/signup/resend", {});
    answers.push(r.headers.get("location"));
  }
  assert.equal(answers[0], "/signup/check?sent=1", "the 5th mail to the mailbox goes");
  for (const a of answers.slice(1)) assert.match(a!, /^\/signup\/check\?wait=\d+$/, "then the mailbox waits");
  assert.equal(mailsTo(w, "target@example.com").length, 5);
  // A reset of another +tag account of the mailbox sends nothing more now (the same answer).
  await formBrowser(w.app.app, SITE, "198.51.100.9").form("/reset", "/reset/request", {
    email: "target+2@example.com",
  });
  assert.equal(mailsTo(w, "target@example.com").length, 5);
  // And a sign-up whose mailbox has no mails left stands, without its mail.
  assert.equal((await signUp(w, "198.51.100.10", "target+5@example.com")).status, 303);
  assert.equal(mailsTo(w, "target@example.com").length, 5);
  await w.close();
});

Deno.test("mails sent again count against the address's sign-ups and resets: one address cannot spend MAILS_PER_HOUR", async () => {
  const w = await accountsWorld();
  const ip = "203.0.113.50";
  const browsers = [];
  for (let i = 0; i < 6; i++) {
    const b = formBrowser(w.app.app, SITE, ip);
    assert.equal(
      (await b.form("/signup", "/signup", { email: `box${i}@example${i}.com`, password: PASSWORD })).status,
      303,
    );
    browsers.push(b);
  }
  const answers = [];
  for (const b of browsers) answers.push((await b.form("/signup/check", "/signup/resend", {})).headers.get("location"));
  assert.deepEqual(answers.slice(0, 4), Array(4).fill("/signup/check?sent=1"), "sign-ups and resends: 10 an hour");
  for (const a of answers.slice(4)) assert.match(a!, /^\/signup\/check\?wait=\d+$/);
  const mails = w.logs.filter((l) => String(l.link ?? "").includes("/verify?token="));
  assert.equal(mails.length, 10);
  await w.close();
});
