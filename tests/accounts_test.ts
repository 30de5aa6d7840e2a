import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { createApp } from "../app.ts";
import { type Config, testConfig } from "../config.ts";
import { createAccount } from "../lib/accounts/accounts.ts";
import { WRONG_LOGIN } from "../lib/accounts/users.ts";
import { ABSOLUTE_MS, IDLE_MS } from "../lib/accounts/sessions.ts";
import { Store } from "../lib/kv/store.ts";
import { T0, TestClock } from "./helpers.ts";

const SITE = "https://timers.test";

/** The real app on a fresh KV with every log line captured (console included). */
async function world(over: Partial<Config> = {}) {
  const kv = await Deno.openKv(":memory:");
  const clock = new TestClock(T0);
  const logs: string[] = [];
  const config = testConfig({ siteUrl: SITE, logRequests: true, trustProxyHops: 1, ...over });
  const store = new Store(kv);
  const app = createApp({ store, config, now: clock.now, log: (l) => logs.push(JSON.stringify(l)) });
  async function close() {
    await app.scheduler.stop();
    await app.limiter.stop();
    kv.close();
  }
  return { kv, clock, logs, config, store, app, close };
}
type World = Awaited<ReturnType<typeof world>>;

/** A browser of one person: keeps cookies, sends the site's Origin on POSTs unless told otherwise. */
function browser(w: World, ip = "203.0.113.9") {
  const jar = new Map<string, string>();
  async function request(
    method: string,
    path: string,
    o: { form?: Record<string, string>; headers?: Record<string, string>; json?: unknown } = {},
  ) {
    const headers: Record<string, string> = { "x-forwarded-for": ip, ...o.headers };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    if (method !== "GET" && !("origin" in headers)) headers.origin = SITE;
    let body: string | undefined;
    if (o.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(o.form).toString();
    } else if (o.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(o.json);
    }
    for (const [k, v] of Object.entries(headers)) if (v === "") delete headers[k];
    const res = await w.app.app.request(`${SITE}${path}`, { method, headers, body });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [k, v] = pair.split("=");
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c) || v === "") jar.delete(k);
      else jar.set(k, v);
    }
    return { status: res.status, text: await res.text(), headers: res.headers };
  }
  /** The CSRF token in the page's form. */
  async function csrfOf(path: string): Promise<string> {
    const page = await request("GET", path);
    const m = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!m) throw new Error(`no CSRF field on ${path} (${page.status})`);
    return m[1];
  }
  async function signUp(email: string, password: string) {
    return await request("POST", "/signup", { form: { _csrf: await csrfOf("/signup"), email, password } });
  }
  async function signIn(email: string, password: string) {
    return await request("POST", "/login", { form: { _csrf: await csrfOf("/login"), email, password } });
  }
  return { jar, request, csrfOf, signUp, signIn };
}

const errorOf = (html: string) => /role="alert" id="form-error">([^<]*)</.exec(html)?.[1];

Deno.test("sign up gives a session in a __Host- cookie; sign out ends it; sign in starts another", async () => {
  const w = await world();
  const b = browser(w);
  const up = await b.signUp("Ada@Example.com", "a long enough phrase");
  assert.equal(up.status, 303);
  assert.equal(up.headers.get("location"), "/signup/check");
  const cookie = up.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))!;
  assert.match(cookie, /; Path=\//);
  assert.match(cookie, /; HttpOnly/);
  assert.match(cookie, /; Secure/);
  assert.match(cookie, /; SameSite=Lax/);
  const token = b.jar.get("__Host-session")!;
  assert.ok(token.length >= 43, "at least 256 bits");
  const account = await b.request("GET", "/account");
  assert.equal(account.status, 200);
  assert.match(account.text, /ada@example\.com/);

  const raw: string[] = [];
  for await (const e of w.kv.list({ prefix: [] })) raw.push(JSON.stringify(e.value));
  assert.ok(!raw.join().includes(token), "only the token's hash is stored");
  assert.ok(!raw.join().includes("a long enough phrase"), "the password is stored only as its hash");
  assert.ok(raw.join().includes("$argon2id$"), "argon2id");

  const user = (await w.store.users.byEmail("ada@example.com"))!;
  assert.equal((await w.store.getAccount(user.account_id))!.plan, "free", "SIGNUP_PLAN defaults to free");

  const csrf = /name="_csrf" value="([^"]+)"/.exec(account.text)![1];
  assert.equal((await b.request("POST", "/logout", { form: { _csrf: csrf } })).status, 303);
  assert.equal((await b.request("GET", "/account")).headers.get("location"), "/login?next=%2Faccount");
  const again = await b.signIn("ada@example.com", "a long enough phrase");
  assert.equal(again.status, 303);
  assert.equal((await b.request("GET", "/account")).status, 200);
  await w.close();
});

Deno.test("a wrong password and an unknown email get the same answer", async () => {
  const w = await world();
  const b = browser(w);
  await b.signUp("bo@example.com", "correct horse battery");
  const wrong = await browser(w, "198.51.100.1").signIn("bo@example.com", "not the password");
  const unknown = await browser(w, "198.51.100.2").signIn("nobody@example.com", "not the password");
  assert.equal(wrong.status, 401);
  assert.equal(unknown.status, 401);
  assert.equal(errorOf(wrong.text), WRONG_LOGIN);
  assert.equal(errorOf(unknown.text), WRONG_LOGIN);
  const strip = (s: string) => s.replace(/[0-9A-Za-z]{43}/g, "").replace(/value="[^"]*@example\.com"/, "");
  assert.equal(strip(wrong.text), strip(unknown.text), "the whole page is the same");
  await w.close();
});

Deno.test("sign-in does the same work whether or not the account exists", async () => {
  const w = await world();
  await browser(w).signUp("cy@example.com", "correct horse battery");
  const time = async (email: string, i: number) => {
    const b = browser(w, `198.51.100.${i}`);
    const csrf = await b.csrfOf("/login");
    const t = performance.now();
    await b.request("POST", "/login", { form: { _csrf: csrf, email, password: "wrong password here" } });
    return performance.now() - t;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 8; i++) {
    known.push(await time("cy@example.com", 10 + i));
    unknown.push(await time(`nobody${i}@example.com`, 30 + i));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [k, u] = [median(known), median(unknown)];
  // Both verify an argon2id hash (tens of ms); without the dummy hash, unknown would take ~1 ms
  // (a 30–50× gap: the bound leaves room for a loaded machine).
  assert.ok(u > k / 5 && u < k * 5, `known ${k.toFixed(1)} ms vs unknown ${u.toFixed(1)} ms`);
  await w.close();
});

Deno.test("a cross-site POST is refused, and so is one without the CSRF token", async () => {
  const w = await world();
  const b = browser(w);
  await b.signUp("di@example.com", "correct horse battery");
  const page = await b.request("GET", "/account");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
  const evil = await b.request("POST", "/logout", { form: { _csrf: csrf }, headers: { origin: "https://evil.test" } });
  assert.equal(evil.status, 403);
  assert.match(JSON.parse(evil.text).error.message, /cross-site/);
  const fetchSite = await b.request("POST", "/logout", {
    form: { _csrf: csrf },
    headers: { origin: "", "sec-fetch-site": "cross-site" },
  });
  assert.equal(fetchSite.status, 403);
  const none = await b.request("POST", "/logout", { form: {} });
  assert.equal(none.status, 403);
  assert.match(JSON.parse(none.text).error.message, /CSRF token/);
  const wrongToken = await b.request("POST", "/account/delete", {
    form: { _csrf: "x".repeat(43), confirm: "di@example.com" },
  });
  assert.equal(wrongToken.status, 403);
  assert.equal((await b.request("GET", "/account")).status, 200, "still signed in, account still there");
  // Before sign-in too: a cross-site login form post, and one without the token.
  const anon = browser(w, "192.0.2.77");
  const login = await anon.csrfOf("/login");
  const x = await anon.request("POST", "/login", {
    form: { _csrf: login, email: "di@example.com", password: "correct horse battery" },
    headers: { origin: "https://evil.test" },
  });
  assert.equal(x.status, 403);
  const huge = await anon.request("POST", "/login", { form: { _csrf: login, email: "x".repeat(40_000) } });
  assert.equal(huge.status, 413);
  const noToken = await anon.request("POST", "/signup", {
    form: { email: "e@example.com", password: "correct horse battery" },
  });
  assert.equal(noToken.status, 403);
  await w.close();
});

Deno.test("a stolen session cookie is dead after sign-out everywhere", async () => {
  const w = await world();
  const owner = browser(w);
  await owner.signUp("eve@example.com", "correct horse battery");
  const thief = browser(w, "192.0.2.66");
  thief.jar.set("__Host-session", owner.jar.get("__Host-session")!);
  assert.equal((await thief.request("GET", "/account")).status, 200, "the stolen cookie works at first");
  const laptop = browser(w, "192.0.2.7");
  await laptop.signIn("eve@example.com", "correct horse battery");
  const page = await laptop.request("GET", "/account");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
  assert.equal((await laptop.request("POST", "/logout/everywhere", { form: { _csrf: csrf } })).status, 303);
  for (const b of [thief, owner, laptop]) {
    const r = await b.request("GET", "/account");
    assert.equal(r.status, 303);
    assert.match(r.headers.get("location")!, /^\/login/);
  }
  await w.close();
});

Deno.test("sessions end after 7 idle days and 30 days in all", async () => {
  const w = await world();
  const b = browser(w);
  await b.signUp("fay@example.com", "correct horse battery");
  w.clock.advance(IDLE_MS - 60_000);
  assert.equal((await b.request("GET", "/account")).status, 200, "used within the idle time");
  for (let t = 0; t < ABSOLUTE_MS - 2 * IDLE_MS; t += IDLE_MS / 2) {
    w.clock.advance(IDLE_MS / 2);
    assert.equal((await b.request("GET", "/account")).status, 200);
  }
  w.clock.advance(IDLE_MS);
  assert.equal((await b.request("GET", "/account")).status, 303, "30 days after sign-in it ends, used or not");
  const c = browser(w, "192.0.2.1");
  await c.signIn("fay@example.com", "correct horse battery");
  w.clock.advance(IDLE_MS);
  assert.equal((await c.request("GET", "/account")).status, 303, "7 idle days end it");
  await w.close();
});

Deno.test("20 wrong passwords slow the account down; the owner gets in once the delay is over", async () => {
  const w = await world();
  await browser(w).signUp("gus@example.com", "correct horse battery");
  const delays: number[] = [];
  for (let i = 0; i < 20; i++) {
    // Each guess from another address: the per-account limit is what holds.
    const r = await browser(w, `10.0.${i}.1`).signIn("gus@example.com", `guess number ${i}`);
    if (r.status === 429) {
      const wait = Number(r.headers.get("retry-after"));
      delays.push(wait);
      w.clock.advance(wait * 1000);
      i--; // the refused attempt was not checked: try the same guess again
      continue;
    }
    assert.equal(r.status, 401);
  }
  assert.ok(delays.length >= 10, `delays met: ${delays}`);
  for (let i = 1; i < delays.length; i++) assert.ok(delays[i] >= delays[i - 1], `delays grow: ${delays}`);
  assert.ok(Math.max(...delays) <= 15 * 60, "never longer than 15 minutes");
  const owner = browser(w, "192.0.2.200");
  const locked = await owner.signIn("gus@example.com", "correct horse battery");
  assert.equal(locked.status, 429, "right after the 20th wrong password even the right one waits");
  assert.match(errorOf(locked.text)!, /too many attempts; try again in \d+ (seconds|minutes)/);
  w.clock.advance(Number(locked.headers.get("retry-after")) * 1000);
  assert.equal((await owner.signIn("gus@example.com", "correct horse battery")).status, 303);
  await w.close();
});

Deno.test("past the hashing budget (every address together) sign-in answers 503 without hashing, whether or not the account exists", async () => {
  const w = await world({ passwordHashesPerSecond: 2 });
  // The sign-up judges its password (zxcvbn) and hashes it: that costs both hashes of this second.
  assert.equal((await browser(w, "198.51.100.1").signUp("di@example.com", "correct horse battery")).status, 303);
  // From fresh addresses and emails, so that no per-address or per-email limit applies.
  const known = await browser(w, "2001:db8:0:1::1").signIn("di@example.com", "correct horse battery");
  const unknown = await browser(w, "2001:db8:0:2::1").signIn("nobody@example.com", "not the password");
  for (const r of [known, unknown]) {
    assert.equal(r.status, 503);
    assert.equal(r.headers.get("retry-after"), "1");
    assert.match(errorOf(r.text)!, /too many sign-ins on the service right now/);
  }
  const strip = (s: string) => s.replace(/[0-9A-Za-z]{43}/g, "").replace(/value="[^"]*@example\.com"/, "");
  assert.equal(strip(known.text), strip(unknown.text), "the refusal tells nothing about the account");
  const signUp = await browser(w, "2001:db8:0:3::1").signUp("ed@example.com", "another long phrase");
  assert.equal(signUp.status, 503, "sign-up is within the same budget");
  assert.equal(await w.store.users.byEmail("ed@example.com"), null);
  // Refused attempts count against no one: a second later the owner signs in.
  w.clock.advance(1000);
  assert.equal((await browser(w, "2001:db8:0:1::1").signIn("di@example.com", "correct horse battery")).status, 303);
  await w.close();
});

Deno.test("per-IP limits: one address guessing across many emails is slowed down too", async () => {
  const w = await world();
  const b = browser(w, "203.0.113.200");
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    const r = await b.signIn(`user${i}@example.com`, "password guess");
    if (r.status === 429) refused++;
  }
  assert.ok(refused >= 5, `${refused} refused`);
  assert.equal(
    (await browser(w, "203.0.113.201").signIn("x@example.com", "y1234567")).status,
    401,
    "others unaffected",
  );
  await w.close();
});

Deno.test("password rules: at least 8 characters, not a common or easily guessed one; SIGNUP=closed refuses sign-up", async () => {
  const w = await world();
  const b = browser(w);
  const short = await b.signUp("h@example.com", "short");
  assert.equal(short.status, 422);
  assert.equal(errorOf(short.text), "password must be at least 8 characters; it has 5");
  const common = await b.signUp("h@example.com", "Password123");
  assert.equal(common.status, 422);
  assert.match(errorOf(common.text)!, /most common/);
  // Repeated or sequential characters and the account's own email are refused too (NIST SP 800-63B's blocklist).
  for (
    const [weak, why] of [["aaaaaaaa", /Repeated characters/], ["abcdefgh", /sequences/], [
      "h@example.com1",
      /personal/,
    ]]
  ) {
    const r = await b.signUp("h@example.com", weak as string);
    assert.equal(r.status, 422, weak as string);
    assert.match(errorOf(r.text)!, why as RegExp);
  }
  const badEmail = await b.signUp("not-an-email", "correct horse battery");
  assert.equal(badEmail.status, 422);
  const long = "plum violin ocean tractor seventeen lanterns quietly humming jaz";
  assert.equal((await b.signUp("h@example.com", long)).status, 303, "64 characters are fine");
  await w.close();

  const closed = await world({ signup: "closed", signupPlan: "pro" });
  const page = await browser(closed).request("GET", "/signup");
  assert.equal(page.status, 403);
  assert.match(page.text, /Sign-up is closed/);
  await closed.close();

  const pro = await world({ signupPlan: "pro" });
  await browser(pro).signUp("i@example.com", "correct horse battery");
  const user = (await pro.store.users.byEmail("i@example.com"))!;
  assert.equal((await pro.store.getAccount(user.account_id))!.plan, "pro");
  await pro.close();
});

/** An SMTP server on 127.0.0.1 that keeps every message. */
async function smtp() {
  const mails: string[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, done) {
      let text = "";
      stream.on("data", (d: Uint8Array) => text += new TextDecoder().decode(d));
      stream.on("end", () => {
        mails.push(text);
        waiters.splice(0).forEach((w) => w());
        done();
      });
    },
  });
  const { promise, resolve } = Promise.withResolvers<void>();
  server.listen(0, "127.0.0.1", () => resolve());
  await promise;
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}/?tls=off`,
    mails,
    async next(n: number) {
      while (mails.length < n) {
        const { promise, resolve, reject } = Promise.withResolvers<void>();
        const t = setTimeout(() => reject(new Error(`mail ${n} did not arrive (${mails.length} did)`)), 10_000);
        waiters.push(() => (clearTimeout(t), resolve()));
        await promise;
      }
      return mails[n - 1];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The link of a mail, its body decoded when it came quoted-printable (a 7bit body is taken as it is). */
const linkOf = (mail: string) => {
  const qp = /^Content-Transfer-Encoding: quoted-printable/im.test(mail);
  const text = qp
    ? mail.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
    : mail;
  return /https:\/\/timers\.test\/\w+\?token=[0-9A-Za-z]+/.exec(text)![0];
};

Deno.test("password reset by email, end to end through a real SMTP server; no secret in any log line", async () => {
  const mail = await smtp();
  const w = await world({ smtpUrl: mail.url });
  const consoleLines: string[] = [];
  // deno-lint-ignore no-console
  const orig = { log: console.log, error: console.error, warn: console.warn };
  // deno-lint-ignore no-console
  for (const k of ["log", "error", "warn"] as const) console[k] = (...a: unknown[]) => consoleLines.push(a.join(" "));
  try {
    const b = browser(w);
    await b.signUp("jo@example.com", "first password here");
    const verifyMail = await mail.next(1);
    assert.match(verifyMail, /Subject: Confirm your email/);
    const verify = linkOf(verifyMail);
    const vtoken = new URL(verify).searchParams.get("token")!;
    const v = await b.request("POST", "/verify", {
      form: { _csrf: await b.csrfOf(`/verify?token=${vtoken}`), token: vtoken },
    });
    assert.equal(v.status, 200);
    assert.ok((await w.store.users.byEmail("jo@example.com"))!.email_verified_at !== null);

    const stranger = browser(w, "192.0.2.50");
    const ask = await stranger.request("POST", "/reset/request", {
      form: { _csrf: await stranger.csrfOf("/reset"), email: "jo@example.com" },
    });
    assert.equal(ask.status, 200);
    assert.match(ask.text, /If an account has this email/);
    const none = await stranger.request("POST", "/reset/request", {
      form: { _csrf: await stranger.csrfOf("/reset"), email: "nobody@example.com" },
    });
    assert.equal(
      none.text.replace(/value="\w+"/g, ""),
      ask.text.replace(/value="\w+"/g, ""),
      "same answer for no account",
    );

    const resetMail = await mail.next(2);
    assert.match(resetMail, /To: jo@example\.com/);
    const link = linkOf(resetMail);
    const token = new URL(link).searchParams.get("token")!;
    const form = await stranger.request("GET", `/reset?token=${token}`);
    assert.match(form.text, /New password/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const set = await stranger.request("POST", "/reset", {
      form: { _csrf: csrf, token, password: "second password here" },
    });
    assert.equal(set.status, 303);
    assert.equal((await b.request("GET", "/account")).status, 303, "a reset ends the old sessions");
    assert.equal((await browser(w, "192.0.2.51").signIn("jo@example.com", "first password here")).status, 401);
    assert.equal((await browser(w, "192.0.2.52").signIn("jo@example.com", "second password here")).status, 303);
    const reuse = await stranger.request("POST", "/reset", {
      form: { _csrf: csrf, token, password: "third password here" },
    });
    assert.equal(reuse.status, 400, "the link works once");
    assert.equal(mail.mails.length, 2, "no mail for an email without an account");

    // Keys: created and used, never logged.
    const user = (await w.store.users.byEmail("jo@example.com"))!;
    await w.store.accounts.update(user.account_id, (a) => ({ ...a, plan: "pro" }));
    const { createKey } = await import("../lib/accounts/accounts.ts");
    const k = await createKey(w.store, user.account_id, "logged?");
    const api = await w.app.app.request(`${SITE}/api/v1/timers`, { headers: { authorization: `Bearer ${k.secret}` } });
    assert.equal(api.status, 200);
    await api.body?.cancel();

    const lines = [...w.logs, ...consoleLines];
    assert.ok(w.logs.length > 10, "requests were logged");
    const secrets = [
      "first password here",
      "second password here",
      "third password here",
      token,
      vtoken,
      k.secret,
      ...b.jar.values(),
      ...stranger.jar.values(),
    ];
    for (const line of lines) for (const s of secrets) assert.ok(!line.includes(s), `a secret in the log: ${line}`);
  } finally {
    Object.assign(console, orig);
    await w.close();
    await mail.close();
  }
});

Deno.test("without SMTP_URL the development mailer logs the link (and only it)", async () => {
  const w = await world();
  await browser(w).signUp("kim@example.com", "correct horse battery");
  const line = w.logs.map((l) => JSON.parse(l)).find((l) => l.link);
  assert.match(line.msg, /development mailer/);
  assert.match(line.link, /^https:\/\/timers\.test\/verify\?token=/);
  await w.close();
});

Deno.test("the account page changes the password and deletes the account with all its timers and rundowns", async () => {
  const w = await world({ signupPlan: "pro" });
  const b = browser(w);
  await b.signUp("lu@example.com", "correct horse battery");
  const user = (await w.store.users.byEmail("lu@example.com"))!;
  const { createKey } = await import("../lib/accounts/accounts.ts");
  const k = await createKey(w.store, user.account_id, "ci");
  const made = await w.app.app.request(`${SITE}/api/v1/timers`, {
    method: "POST",
    headers: { authorization: `Bearer ${k.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "countdown", duration: 60 }),
  });
  assert.equal(made.status, 201);
  const { timer_id } = await made.json();
  const show = await w.app.app.request(`${SITE}/api/v1/rundowns`, {
    method: "POST",
    headers: { authorization: `Bearer ${k.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Morning", items: [{ timer_id }, { type: "countdown", duration: 30 }] }),
  });
  assert.equal(show.status, 201);
  const { rundown_id } = await show.json();
  // Running: its live item's timer, which DELETE /timers/{id} refuses (409), goes with the account all the same.
  const started = await w.app.app.request(`${SITE}/api/v1/rundowns/${rundown_id}/actions/start`, {
    method: "POST",
    headers: { authorization: `Bearer ${k.secret}` },
  });
  assert.equal(started.status, 200);
  await started.body?.cancel();
  await w.app.requestLog.flush();
  assert.ok((await w.kv.get(["api_request_seq", user.account_id])).value, "the API request was logged");

  const phone = browser(w, "192.0.2.8");
  await phone.signIn("lu@example.com", "correct horse battery");
  let csrf = /name="_csrf" value="([^"]+)"/.exec((await b.request("GET", "/account")).text)![1];
  const wrong = await b.request("POST", "/account/password", {
    form: { _csrf: csrf, current_password: "not it at all", password: "new horse battery" },
  });
  assert.equal(wrong.status, 422);
  assert.match(wrong.text, /the current password is not right/);
  const ok = await b.request("POST", "/account/password", {
    form: { _csrf: csrf, current_password: "correct horse battery", password: "new horse battery" },
  });
  assert.equal(ok.status, 303);
  assert.equal(ok.headers.get("location"), "/account?done=password");
  assert.equal((await b.request("GET", "/account")).status, 200, "this session stays");
  assert.equal((await phone.request("GET", "/account")).status, 303, "every other session ends");
  assert.equal((await browser(w, "192.0.2.9").signIn("lu@example.com", "new horse battery")).status, 303);

  csrf = /name="_csrf" value="([^"]+)"/.exec((await b.request("GET", "/account")).text)![1];
  const refuse = await b.request("POST", "/account/delete", { form: { _csrf: csrf, confirm: "someone@else.com" } });
  assert.equal(refuse.status, 422);
  const del = await b.request("POST", "/account/delete", { form: { _csrf: csrf, confirm: "LU@example.com" } });
  assert.equal(del.status, 303);
  assert.equal(await w.store.getAccount(user.account_id), null);
  assert.equal(await w.store.users.byEmail("lu@example.com"), null);
  assert.equal((await w.kv.get(["timer", timer_id])).value, null, "its timers are gone");
  assert.equal((await w.kv.get(["rundown", rundown_id])).value, null, "and its rundowns");
  assert.equal((await w.app.app.request(`${SITE}/r/${rundown_id}`)).status, 404, "whose stage page is gone");
  const logged = await Array.fromAsync(w.kv.list({ prefix: ["api_request", user.account_id] }));
  assert.equal(logged.length + Number((await w.kv.get(["api_request_seq", user.account_id])).value !== null), 0);
  // At once, though the key was used (and cached) a moment ago: no timer can be added to a deleted account.
  const late = await w.app.app.request(`${SITE}/api/v1/timers`, {
    method: "POST",
    headers: { authorization: `Bearer ${k.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "interval", work: 1, rest: 0 }),
  });
  assert.equal(late.status, 401, "and its keys");
  await late.body?.cancel();
  assert.equal((await browser(w, "192.0.2.10").signIn("lu@example.com", "new horse battery")).status, 401);
  await w.close();
});

Deno.test("an account made on the CLI gets a login; its timers and keys are the same account's", async () => {
  const w = await world();
  const { account } = await createAccount(w.store, { plan: "pro", name: "CLI Co" });
  const { user, mailed } = await w.app.auth.users.setLogin(account.id, "ops@example.com", "operator pass phrase");
  assert.equal(mailed, false);
  assert.equal(user.account_id, account.id);
  assert.equal((await browser(w).signIn("ops@example.com", "operator pass phrase")).status, 303);
  await w.close();
});

Deno.test("the sign-in pages speak the browser's language; English labels by default", async () => {
  const w = await world();
  const en = await browser(w).request("GET", "/login");
  for (const label of [">Email<", ">Password<", ">Sign in<"]) assert.ok(en.text.includes(label), label);
  assert.ok((await browser(w).request("GET", "/signup")).text.includes(">Sign up<"));
  const ja = browser(w, "192.0.2.90");
  const page = await ja.request("GET", "/login", { headers: { "accept-language": "ja,en;q=0.5" } });
  assert.match(page.text, /<html lang="ja"/);
  assert.match(page.text, />メールアドレス</);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
  const wrong = await ja.request("POST", "/login", {
    form: { _csrf: csrf, email: "nobody@example.com", password: "whatever it is" },
    headers: { "accept-language": "ja" },
  });
  assert.equal(wrong.status, 401);
  assert.equal(errorOf(wrong.text), "メールアドレスまたはパスワードが違います");
  assert.match((await browser(w).request("GET", "/signup?lang=de")).text, />Registrieren</);
  await w.close();
});

Deno.test("a mail server that is down does not undo a sign-up; the log says the mail was not sent", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const w = await world({ smtpUrl: `smtp://mailer:s3cret-pass@127.0.0.1:${port}/?tls=off` });
  const up = await browser(w).signUp("mo@example.com", "correct horse battery");
  assert.equal(up.status, 303);
  const line = w.logs.map((l) => JSON.parse(l)).find((l) => l.msg === "confirmation mail not sent");
  assert.ok(line, "logged");
  assert.ok(!w.logs.join().includes("s3cret-pass"), "the SMTP password is not logged");
  await w.close();
});

Deno.test("passkey sign-up options are paced per IP like sign-ups (they too tell a taken email)", async () => {
  const w = await world();
  await browser(w).signUp("ned@example.com", "correct horse battery");
  const b = browser(w, "198.51.100.77");
  const csrf = await b.csrfOf("/signup");
  const statuses: number[] = [];
  for (let i = 0; i < 14; i++) {
    const r = await b.request("POST", "/passkeys/signup/options", {
      json: { email: i % 2 ? "ned@example.com" : `new${i}@example.com` },
      headers: { "x-csrf-token": csrf },
    });
    statuses.push(r.status);
  }
  assert.deepEqual(statuses.slice(0, 10), [200, 409, 200, 409, 200, 409, 200, 409, 200, 409]);
  assert.ok(statuses.slice(10).every((s) => s === 429), String(statuses));
  const other = await browser(w, "198.51.100.78");
  const ok = await other.request("POST", "/passkeys/signup/options", {
    json: { email: "fresh@example.com" },
    headers: { "x-csrf-token": await other.csrfOf("/signup") },
  });
  assert.equal(ok.status, 200);
  const { options } = JSON.parse(ok.text);
  assert.equal(options.rp.id, "timers.test");
  assert.equal(options.authenticatorSelection.residentKey, "required");
  await w.close();
});
