/**
 * Attacks on sign-in and the dashboard from the internet's side, through the real app on a fresh
 * KV: over-long inputs, anonymous writes to KV, sessions that outlive sign-out, one-time links.
 */
import assert from "node:assert/strict";
import { DEFAULT_PLANS } from "../config.ts";
import { createAccount, createKey, MAX_KEYS, MAX_LIVE_KEYS, revokeKey } from "../lib/accounts/accounts.ts";
import { MAX_PASSKEYS } from "../lib/accounts/passkeys.ts";
import { MAX_SESSIONS } from "../lib/accounts/sessions.ts";
import { addressBucket } from "../lib/accounts/throttle.ts";
import { RESET_TTL_MS } from "../lib/accounts/users.ts";
import { Hono } from "hono";
import { Store } from "../lib/kv/store.ts";
import { LIVE_FEEDS_PER_ACCOUNT } from "../routes/dashboard/timer_feed.ts";
import { resolveDestination } from "../lib/webhooks/destinations.ts";
import { signDelivery } from "../lib/webhooks/signing.ts";
import { verifyWebhook } from "../sdk/src/webhooks.ts";
import { accountsWorld, formBrowser, strangerPasskey } from "./helpers.ts";

const SITE = "https://timers.test";

const world = accountsWorld;
type World = Awaited<ReturnType<typeof world>>;

/** One person's browser: keeps cookies, sends the site's Origin on POSTs. */
const browser = (w: World, ip?: string) => formBrowser(w.app.app, SITE, ip);

const PASSWORD = "a long enough phrase";

Deno.test("an email longer than any account's at sign-in is a wrong login, not a server error", async () => {
  const w = await world();
  const b = browser(w);
  for (const email of ["a".repeat(3000) + "@example.com", "b".repeat(255)]) {
    const r = await b.form("/login", "/login", { email, password: PASSWORD });
    assert.equal(r.status, 401, `${email.length} characters`);
    assert.match(r.text, /wrong email or password/i);
  }
  assert.equal(w.logs.filter((l) => l.level === "error").length, 0);
  await w.close();
});

Deno.test("anonymous passkey sign-in options are paced per IP: no unbounded challenges in KV", async () => {
  const w = await world();
  const b = browser(w);
  await b.request("GET", "/login");
  const statuses: number[] = [];
  for (let i = 0; i < 200; i++) {
    statuses.push((await b.request("POST", "/passkeys/login/options", { json: {} })).status);
  }
  assert.equal(statuses[0], 200);
  assert.ok(statuses.includes(429), "some are refused");
  let challenges = 0;
  for await (const _ of w.kv.list({ prefix: ["webauthn_challenge"] })) challenges++;
  assert.ok(challenges <= 60, `${challenges} challenges stored by one address`);
  // Another address is not held up by this one.
  const other = browser(w, "198.51.100.4");
  await other.request("GET", "/login");
  assert.equal((await other.request("POST", "/passkeys/login/options", { json: {} })).status, 200);
  await w.close();
});

Deno.test("the dashboard's live feed ends when its session is signed out everywhere", async () => {
  const w = await world({}, true);
  const owner = browser(w);
  assert.equal(
    (await owner.form("/signup", "/signup", { email: "owner@example.com", password: PASSWORD })).status,
    303,
  );
  // The thief holds a copy of the session cookie and keeps the live feed open.
  const thief = browser(w, "192.0.2.66");
  for (const [k, v] of owner.jar) thief.jar.set(k, v);
  const res = await thief.raw("GET", "/dashboard/live");
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  assert.match(new TextDecoder().decode((await reader.read()).value), /retry/);
  const out = await owner.form("/dashboard/account", "/logout/everywhere", {});
  assert.equal(out.status, 303);
  const ended = new Promise<boolean>((resolve) => {
    (async () => {
      try {
        while (!(await reader.read()).done) { /* rows, heartbeats */ }
        resolve(true);
      } catch {
        resolve(true);
      }
    })();
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), 5000));
  const done = await Promise.race([ended, late]);
  clearTimeout(timer);
  if (!done) await reader.cancel();
  assert.ok(done, "the stream is still open 5 s after sign-out everywhere");
  assert.equal((await thief.request("GET", "/dashboard")).status, 303);
  await w.close();
});

Deno.test("a refused new password does not use up the reset link", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "reset@example.com", password: PASSWORD })).status, 303);
  const r = await b.form("/reset", "/reset/request", { email: "reset@example.com" });
  assert.equal(r.status, 200);
  const link = w.logs.map((l) => String(l.link ?? "")).find((l) => l.includes("/reset?token="))!;
  const token = new URL(link).searchParams.get("token")!;
  const weak = await b.form(`/reset?token=${token}`, "/reset", { token, password: "short" });
  assert.equal(weak.status, 422);
  const good = await b.form(`/reset?token=${token}`, "/reset", { token, password: "another long phrase" });
  assert.equal(good.status, 303, "the link still works after a refused password");
  // …once: a second use is refused.
  const again = await b.form(`/reset?token=${token}`, "/reset", { token, password: "a third long phrase" });
  assert.equal(again.status, 400);
  // Opening the used link says so at once, with the form to ask for a new one (not after typing a password).
  const used = await b.request("GET", `/reset?token=${token}`);
  assert.equal(used.status, 400);
  assert.match(used.text, /This link is not valid any more\./);
  assert.match(used.text, /action="\/reset\/request"/);
  assert.doesNotMatch(used.text, /name="password"/);
  const live = await b.request("GET", `/reset?token=${"x".repeat(300)}`);
  assert.equal(live.status, 400, "a made-up token alike");
  await w.close();
});

Deno.test("guessing the current password on the account page is slowed down like sign-in", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "guess@example.com", password: PASSWORD })).status, 303);
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await b.form("/account", "/account/password", {
      current_password: `guess number ${i}`,
      password: "a brand new phrase",
    });
    statuses.push(r.status);
  }
  assert.equal(statuses[0], 422);
  assert.ok(statuses.includes(429), `statuses: ${statuses.join(",")}`);
  // Locked: even the right password waits, so guesses cannot go on at full speed.
  const right = await b.form("/account", "/account/password", { current_password: PASSWORD, password: "x".repeat(9) });
  assert.equal(right.status, 429);
  await w.close();
});

Deno.test("an over-long id in a dashboard path is 404, not a server error", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "ids@example.com", password: PASSWORD })).status, 303);
  const long = "x".repeat(3000);
  for (const path of [`/dashboard/timers/${long}`, `/dashboard/timers/tmr_x/deliveries/${long}/redeliver`]) {
    assert.equal((await b.request("GET", path)).status, 404, path);
  }
  for (
    const path of [
      `/dashboard/keys/${long}/revoke`,
      `/dashboard/timers/${long}/action`,
      `/dashboard/timers/${long}/delete`,
    ]
  ) {
    const r = await b.form("/dashboard/keys", path, { action: "start" });
    assert.equal(r.status, 404, path);
  }
  assert.equal(w.logs.filter((l) => l.level === "error").length, 0);
  await w.close();
});

Deno.test("one account holds at most LIVE_FEEDS_PER_ACCOUNT live feeds of the dashboard at once", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "feeds@example.com", password: PASSWORD })).status, 303);
  const open: Response[] = [];
  for (let i = 0; i < LIVE_FEEDS_PER_ACCOUNT; i++) {
    const res = await b.raw("GET", "/dashboard/live");
    assert.equal(res.status, 200);
    open.push(res);
  }
  const over = await b.request("GET", "/dashboard/live");
  assert.equal(over.status, 429);
  await open.shift()!.body!.cancel();
  const again = await b.raw("GET", "/dashboard/live");
  assert.equal(again.status, 200, "a closed feed makes room");
  open.push(again);
  for (const res of open) await res.body!.cancel();
  await w.close();
});

Deno.test("a dashboard live feed its browser does not read ends, rather than queue its rows in memory without end", async () => {
  const w = await world({ signupPlan: "pro" }, true);
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "unread@example.com", password: PASSWORD })).status, 303);
  const account = (await w.store.accounts.get((await w.store.users.byEmail("unread@example.com"))!.account_id))!;
  const principal = { kind: "account" as const, account };
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) {
    ids.push((await w.app.timers.create(principal, { type: "countdown", duration: 600 })).timer.id);
  }
  // Opened and never read: every change of the page's timers is a frame of its 50 rows (~30 KB).
  const connection = new AbortController();
  const res = await w.app.app.request(`${SITE}/dashboard/live`, {
    headers: { cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join("; "), "x-forwarded-for": "203.0.113.7" },
    signal: connection.signal,
  });
  assert.equal(res.status, 200);
  for (let round = 0; round < 20 && w.app.streams.size > 0; round++) {
    for (const id of ids) await w.app.timers.update(principal, id, { title: `${round} ${"x".repeat(90)}` });
    await new Promise((r) => setTimeout(r, 1100)); // the feed looks every second
  }
  assert.equal(w.app.streams.size, 0, "the feed ended once its unread rows passed the bound");
  await res.body?.cancel().catch(() => {});
  // Its connection keeps its place among the account's feeds until it ends.
  const feeds = async () => {
    const open = [];
    for (let i = 0; i < LIVE_FEEDS_PER_ACCOUNT; i++) open.push(await b.raw("GET", "/dashboard/live"));
    for (const r of open) await r.body?.cancel();
    return open.map((r) => r.status);
  };
  assert.equal((await feeds()).at(-1), 429);
  connection.abort();
  assert.equal((await feeds()).at(-1), 200);
  await w.close();
});

Deno.test("a reset that first proves the mailbox drops passkeys added before (account pre-hijacking)", async () => {
  const w = await world();
  // Someone signs up first with the victim's email (never verified) and adds a passkey.
  const attacker = browser(w, "192.0.2.66");
  assert.equal(
    (await attacker.form("/signup", "/signup", { email: "victim@example.com", password: PASSWORD })).status,
    303,
  );
  const user = (await w.store.users.byEmail("victim@example.com"))!;
  const passkey = strangerPasskey(user.id, w.clock.now());
  assert.ok(await w.store.users.addPasskey(passkey));
  // The owner of the mailbox takes the account back with a reset link.
  const victim = browser(w);
  assert.equal((await victim.form("/reset", "/reset/request", { email: "victim@example.com" })).status, 200);
  const link = w.logs.map((l) => String(l.link ?? "")).findLast((l) => l.includes("/reset?token="))!;
  const token = new URL(link).searchParams.get("token")!;
  assert.equal(
    (await victim.form(link.slice(SITE.length), "/reset", { token, password: "the owner's phrase" })).status,
    303,
  );
  assert.deepEqual(await w.store.users.listPasskeys(user.id), [], "the attacker's passkey is gone");
  assert.equal(await w.store.users.getPasskey(passkey.id), null);
  // A verified account keeps its passkeys through a later reset.
  assert.ok(await w.store.users.addPasskey({ ...passkey, id: "cred-of-the-owner", name: "Mine" }));
  await victim.form("/reset", "/reset/request", { email: "victim@example.com" });
  const second = w.logs.map((l) => String(l.link ?? "")).findLast((l) => l.includes("/reset?token="))!;
  const token2 = new URL(second).searchParams.get("token")!;
  assert.equal(
    (await victim.form(second.slice(SITE.length), "/reset", { token: token2, password: "another phrase" })).status,
    303,
  );
  assert.equal((await w.store.users.listPasskeys(user.id)).length, 1);
  await w.close();
});

Deno.test("the SDK's verifyWebhook refuses an old delivery replayed with a fresh webhook-timestamp", async () => {
  const secret = "whsec_" + btoa("s".repeat(32));
  const sentAt = Date.parse("2026-11-22T12:00:00.000Z");
  const payload = {
    id: "evt_00mhqk6k0abcdefghijklmn",
    event: "timer.started",
    timestamp: new Date(sentAt).toISOString(),
    timer_id: "tmr_AAAAAAAAAAAAAAAA",
    title: null,
    type: "countdown",
    data: { state: "running", duration: 60, remaining_seconds: 60, started_at: new Date(sentAt).toISOString() },
  };
  const { body, headers } = signDelivery(payload as never, [secret], sentAt);
  const later = sentAt + 86_400_000;
  // As received, a day later: refused.
  assert.equal(await verifyWebhook(body, headers, secret, { now: later }), null);
  // The replayer drops the Standard Webhooks signature and writes a fresh timestamp header: still refused.
  const replay = {
    "x-service-signature": headers["x-service-signature"],
    "webhook-timestamp": String(Math.floor(later / 1000)),
  };
  assert.equal(await verifyWebhook(body, replay, secret, { now: later }), null);
  // The genuine delivery verifies on time.
  assert.ok(await verifyWebhook(body, headers, secret, { now: sentAt + 1000 }));
  assert.ok(
    await verifyWebhook(body, { ...replay, "webhook-timestamp": String(sentAt / 1000) }, secret, { now: sentAt }),
  );
});

Deno.test("simultaneous key creations cannot pass the active-key limit together", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = new Store(kv);
  const { account } = await createAccount(store, { plan: "pro", name: "Race" });
  const results = await Promise.allSettled(
    Array.from({ length: 80 }, (_, i) => createKey(store, account.id, `k${i}`)),
  );
  const live = (await store.accounts.listKeys(account.id)).filter((k) => k.revoked_at === null);
  assert.ok(live.length <= MAX_LIVE_KEYS, `${live.length} active keys`);
  assert.equal(live.length, 1 + results.filter((r) => r.status === "fulfilled").length);
  for (const r of results) if (r.status === "rejected") assert.equal(r.reason.status, 409, String(r.reason));
  kv.close();
});

Deno.test("an account holds a bounded number of API keys: creating (and revoking) cannot fill KV", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "keys@example.com", password: PASSWORD })).status, 303);
  const csrf = await b.csrfOf("/dashboard/keys");
  const create = (name: string) => b.request("POST", "/dashboard/keys", { form: { _csrf: csrf, name } });
  for (let i = 0; i < MAX_LIVE_KEYS; i++) assert.equal((await create(`k${i}`)).status, 303);
  const over = await create("one too many");
  assert.equal(over.status, 409);
  assert.match(over.text, new RegExp(`at most ${MAX_LIVE_KEYS} active keys`));
  // Revoking makes room, but revoked keys stay listed: their number is bounded too.
  const account = (await w.store.users.byEmail("keys@example.com"))!.account_id;
  for (const k of await w.store.accounts.listKeys(account)) {
    await b.request("POST", `/dashboard/keys/${k.id}/revoke`, { form: { _csrf: csrf } });
  }
  let created = MAX_LIVE_KEYS;
  for (let i = 0; i < MAX_KEYS; i++) {
    const r = await create(`r${i}`);
    if (r.status !== 303) {
      assert.equal(r.status, 409);
      assert.match(r.text, new RegExp(`at most ${MAX_KEYS} keys, revoked ones included`));
      break;
    }
    created++;
    const fresh = (await w.store.accounts.listKeys(account)).find((k) => k.revoked_at === null)!;
    await revokeKey(w.store, account, fresh.id);
  }
  assert.equal(created, MAX_KEYS);
  assert.equal((await w.store.accounts.listKeys(account)).length, MAX_KEYS);
  await w.close();
});

Deno.test("passkey registration is bounded too: options paced per user, at most MAX_PASSKEYS a user", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "pk@example.com", password: PASSWORD })).status, 303);
  const csrf = /name="_csrf" value="([^"]+)"/.exec((await b.request("GET", "/account")).text)![1];
  b.jar.set("__Host-csrf", csrf); // the JSON helper sends this as X-CSRF-Token; here it is the session's token
  const statuses: number[] = [];
  for (let i = 0; i < 100; i++) {
    statuses.push((await b.request("POST", "/passkeys/register/options", { json: {} })).status);
  }
  assert.equal(statuses[0], 200);
  assert.ok(statuses.includes(429));
  let challenges = 0;
  for await (const _ of w.kv.list({ prefix: ["webauthn_challenge"] })) challenges++;
  assert.ok(challenges <= 40, `${challenges} challenges stored for one user`);
  // The number of passkeys a user holds is bounded where they are added.
  const user = (await w.store.users.byEmail("pk@example.com"))!;
  const base = { user_id: user.id, public_key: "AAAA", counter: 0, transports: [], created_at: 0, last_used_at: null };
  for (let i = 0; i < MAX_PASSKEYS; i++) await w.app.auth.passkeys.add({ ...base, id: `cred${i}`, name: `k${i}` });
  await assert.rejects(
    () => w.app.auth.passkeys.add({ ...base, id: "one-more", name: "one more" }),
    /at most 20 passkeys/,
  );
  await w.close();
});

Deno.test("a user holds at most MAX_SESSIONS sessions: signing in again ends the oldest", async () => {
  const w = await world();
  const first = browser(w);
  assert.equal((await first.form("/signup", "/signup", { email: "many@example.com", password: PASSWORD })).status, 303);
  const user = (await w.store.users.byEmail("many@example.com"))!;
  // Sign-ins as a script would make them (the password check is not what is tested here).
  for (let i = 0; i < MAX_SESSIONS + 10; i++) {
    w.clock.advance(1000);
    const signer = new Hono().get("/", async (c) => {
      await w.app.auth.sessions.start(c, user);
      return c.text("ok");
    });
    await (await signer.request("/")).body?.cancel();
  }
  assert.equal((await w.store.users.sessionsOf(user.id)).length, MAX_SESSIONS);
  assert.equal((await first.request("GET", "/dashboard")).status, 303, "the oldest session has ended");
  await w.close();
});

Deno.test("concurrent attempts from one address cannot outrun the per-IP limits (sign-up, sign-in)", async () => {
  const w = await world();
  const b = browser(w);
  const csrf = await b.csrfOf("/signup");
  const ups = await Promise.all(
    Array.from(
      { length: 40 },
      (_, i) =>
        b.request("POST", "/signup", { form: { _csrf: csrf, email: `spam${i}@example.com`, password: PASSWORD } }),
    ),
  );
  const created = ups.filter((r) => r.status === 303).length;
  assert.ok(created <= 10 + 3, `${created} accounts made by one address at once (the limit is 10 an hour)`);
  assert.ok(ups.every((r) => r.status === 303 || r.status === 429), ups.map((r) => r.status).join(","));

  const guesser = browser(w, "198.51.100.77");
  const token = await guesser.csrfOf("/login");
  const guesses = await Promise.all(
    Array.from(
      { length: 80 },
      (_, i) =>
        guesser.request("POST", "/login", { form: { _csrf: token, email: `who${i}@example.com`, password: PASSWORD } }),
    ),
  );
  const checked = guesses.filter((r) => r.status === 401).length;
  assert.ok(checked <= 30 + 3, `${checked} passwords hashed for one address at once (30 free failures an hour)`);
  await w.close();
});

Deno.test("a refused destination's error does not tell the owner which internal address a name has", async () => {
  const resolve = () => Promise.resolve(["10.1.2.3"]);
  const d = await resolveDestination(new URL("https://db.internal.example/"), { allowPrivate: false, resolve });
  assert.match(d.error!, /non-public address/);
  assert.ok(!d.error!.includes("10.1.2.3"), d.error);
});

Deno.test("reset links to one mailbox are bounded however many addresses ask (no mail-bombing)", async () => {
  const w = await world();
  assert.equal(
    (await browser(w).form("/signup", "/signup", { email: "inbox@example.com", password: PASSWORD })).status,
    303,
  );
  const pages = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const r = await browser(w, `198.51.100.${i + 1}`).form("/reset", "/reset/request", { email: "inbox@example.com" });
    assert.equal(r.status, 200);
    pages.add(r.text.replace(/value="[^"]{43}"/g, ""));
  }
  assert.equal(pages.size, 1, "every request gets the same answer");
  const mailed = w.logs.filter((l) => String(l.link ?? "").includes("/reset?token=")).length;
  assert.ok(mailed >= 1 && mailed <= 6, `${mailed} reset links mailed`);
  await w.close();
});

Deno.test("an over-long credential id at passkey sign-in is refused, not a server error", async () => {
  const w = await world();
  const b = browser(w);
  await b.request("GET", "/login");
  const { challenge_id } = JSON.parse((await b.request("POST", "/passkeys/login/options", { json: {} })).text);
  const r = await b.request("POST", "/passkeys/login/verify", {
    json: { challenge_id, response: { id: "A".repeat(3000), rawId: "A", type: "public-key", response: {} } },
  });
  assert.equal(r.status, 400, r.text);
  assert.equal(w.logs.filter((l) => l.level === "error").length, 0);
  await w.close();
});

Deno.test("a credential id within the length but not base64url (too many bytes for a KV key) is refused, not a 500", async () => {
  const w = await world();
  const b = browser(w);
  await b.request("GET", "/login");
  // 1364 characters of three UTF-8 bytes each: 4092 bytes, over KV's 2048-byte key limit.
  for (const id of ["\u0800".repeat(1364), "a+b/c="]) {
    const { challenge_id } = JSON.parse((await b.request("POST", "/passkeys/login/options", { json: {} })).text);
    const r = await b.request("POST", "/passkeys/login/verify", {
      json: { challenge_id, response: { id, rawId: "A", type: "public-key", response: {} } },
    });
    assert.equal(r.status, 400, r.text);
  }
  assert.equal(w.logs.filter((l) => l.level === "error").length, 0);
  await w.close();
});

Deno.test("a form whose Content-Type is a header's worth of parameters is refused before it is parsed", async () => {
  const w = await world();
  // Deno's form parser read 15 000 parameters of the type (15–50 ms of the event loop) before the
  // CSRF check could refuse the request: anyone could post such forms to /login without limit.
  for (const path of ["/login", "/signup", "/reset/request", "/verify"]) {
    const res = await w.app.app.request(`${SITE}${path}`, {
      method: "POST",
      headers: {
        origin: SITE,
        "content-type": `application/x-www-form-urlencoded${";a=b".repeat(15_000)}`,
        "x-forwarded-for": "203.0.113.9",
      },
      body: "email=a%40example.com",
    });
    assert.equal(res.status, 400, path);
    assert.match(await res.text(), /Content-Type/);
  }
  // A multipart boundary (at most 70 characters) still passes.
  const b = browser(w);
  const csrf = await b.csrfOf("/login");
  const form = new FormData();
  form.set("_csrf", csrf);
  form.set("email", "nobody@example.com");
  form.set("password", PASSWORD);
  const res = await w.app.app.request(`${SITE}/login`, {
    method: "POST",
    headers: {
      origin: SITE,
      cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join("; "),
      "x-forwarded-for": "203.0.113.7",
    },
    body: form,
  });
  assert.equal(res.status, 401);
  await w.close();
});

Deno.test("a dashboard form over 32 KiB is refused before it is read", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "big@example.com", password: PASSWORD })).status, 303);
  const csrf = await b.csrfOf("/dashboard/keys");
  const huge = await b.request("POST", "/dashboard/keys", { form: { _csrf: csrf, name: "a".repeat(1 << 20) } });
  assert.equal(huge.status, 413);
  const streamed = await w.app.app.request(`${SITE}/dashboard/keys`, {
    method: "POST",
    headers: {
      cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join("; "),
      origin: SITE,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": "203.0.113.7",
    },
    // No Content-Length: counted as it comes.
    body: ReadableStream.from([new TextEncoder().encode(`_csrf=${csrf}&name=`), new Uint8Array(64 * 1024).fill(97)]),
  });
  assert.equal(streamed.status, 413);
  await streamed.body?.cancel();
  assert.equal((await b.request("POST", "/dashboard/keys", { form: { _csrf: csrf, name: "fine" } })).status, 303);
  await w.close();
});

Deno.test("a form body that cannot be parsed is refused (400 or 403), never a server error", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "forms@example.com", password: PASSWORD })).status, 303);
  const dashCsrf = await b.csrfOf("/dashboard/keys");
  const preCsrf = b.jar.get("__Host-csrf") ?? "";
  // A multipart type without a boundary, and a boundary whose body is not multipart.
  const bodies = [
    { type: "multipart/form-data", body: "email=a%40b.co" },
    { type: "multipart/form-data; boundary=zz", body: "not multipart at all" },
  ];
  const posts = [
    ["/login", null],
    ["/signup", null],
    ["/reset/request", null],
    ["/passkeys/login/options", null],
    // With the CSRF token in its header, the body is read by the handler itself.
    ["/login", preCsrf],
    ["/dashboard/keys", dashCsrf],
    ["/dashboard/timers", dashCsrf],
    ["/account/password", dashCsrf],
    ["/account/delete", dashCsrf],
  ] as const;
  for (const [path, csrf] of posts) {
    for (const { type, body } of bodies) {
      const res = await w.app.app.request(`${SITE}${path}`, {
        method: "POST",
        headers: {
          cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join("; "),
          origin: SITE,
          "content-type": type,
          "x-forwarded-for": "203.0.113.7",
          ...(csrf && { "x-csrf-token": csrf }),
        },
        body,
      });
      await res.body?.cancel();
      assert.ok(
        [400, 403].includes(res.status),
        `${path} (${type}, token ${csrf ? "in header" : "none"}): ${res.status}`,
      );
    }
  }
  assert.deepEqual(w.logs.filter((l) => l.level === "error"), []);
  await w.close();
});

Deno.test("per-address limits count an IPv6 /64 as one address", async () => {
  const w = await world();
  let created = 0;
  for (let i = 1; i <= 20; i++) {
    const b = browser(w, `2001:db8:1:2::${i.toString(16)}`);
    const r = await b.form("/signup", "/signup", { email: `v6-${i}@example.com`, password: PASSWORD });
    if (r.status === 303) created++;
    else assert.equal(r.status, 429);
  }
  assert.equal(created, 10, "10 sign-ups an hour per address, the /64 being one");
  // Another /64 is another address.
  const elsewhere = browser(w, "2001:db8:1:3::1");
  assert.equal(
    (await elsewhere.form("/signup", "/signup", { email: "v6-other@example.com", password: PASSWORD })).status,
    303,
  );
  assert.equal(addressBucket("2001:db8:1:2:aaaa::1"), addressBucket("2001:db8:1:2::ffff"));
  assert.equal(addressBucket("::ffff:203.0.113.9"), "203.0.113.9");
  assert.equal(addressBucket("203.0.113.9"), "203.0.113.9");
  assert.equal(addressBucket("someone@example.com"), "someone@example.com");
  await w.close();
});

Deno.test("the API's per-IP limits and the live streams per address count an IPv6 /64 as one", async () => {
  const w = await world({ liveStreamsPerIp: 3 });
  const statuses: number[] = [];
  for (let i = 1; i <= 40; i++) {
    const res = await w.app.app.request(`${SITE}/api/v1/events`, {
      headers: { "x-forwarded-for": `2001:db8:9::${i}` },
    });
    await res.body?.cancel();
    statuses.push(res.status);
  }
  assert.equal(statuses.filter((s) => s === 429).length, 10, "30 a minute for the /64");
  const pro = await createAccount(w.store, { plan: "pro", name: "Live" });
  const made = await w.app.app.request(`${SITE}/api/v1/timers`, {
    method: "POST",
    headers: { authorization: `Bearer ${pro.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "countdown", duration: 60 }),
  });
  const { timer_id } = await made.json();
  const open: Response[] = [];
  for (let i = 1; i <= 4; i++) {
    open.push(
      await w.app.app.request(`${SITE}/live/${timer_id}`, { headers: { "x-forwarded-for": `2001:db8:7::${i}` } }),
    );
  }
  assert.deepEqual(open.map((r) => r.status), [200, 200, 200, 429]);
  for (const r of open) await r.body?.cancel();
  await w.close();
});

Deno.test("a return path with a control character falls back instead of failing the redirect", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "back@example.com", password: PASSWORD })).status, 303);
  for (const back of ["/dashboard/\r\nX-Evil: 1", "/dashboard/a b", "//evil.example/dashboard", "/dashboard\\..\\x"]) {
    const r = await b.request("GET", `/dashboard/lang?lang=fr&back=${encodeURIComponent(back)}`);
    assert.equal(r.status, 303, back);
    assert.equal(r.headers.get("location"), "/dashboard", back);
    assert.equal(r.headers.get("x-evil"), null);
  }
  assert.equal(
    (await b.request("GET", `/dashboard/lang?lang=fr&back=${encodeURIComponent("/dashboard/keys?x=1")}`)).headers.get(
      "location",
    ),
    "/dashboard/keys?x=1",
  );
  await w.close();
});

Deno.test("a reset link stops working after an hour (checked in code, not by KV's lazy expiry)", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "late@example.com", password: PASSWORD })).status, 303);
  await b.form("/reset", "/reset/request", { email: "late@example.com" });
  const link = w.logs.map((l) => String(l.link ?? "")).findLast((l) => l.includes("/reset?token="))!;
  const token = new URL(link).searchParams.get("token")!;
  w.clock.advance(RESET_TTL_MS + 1000);
  const r = await b.form(link.slice(SITE.length), "/reset", { token, password: "a later long phrase" });
  assert.equal(r.status, 400);
  // The old password still signs in: nothing was changed.
  assert.equal(
    (await browser(w, "198.51.100.9").form("/login", "/login", { email: "late@example.com", password: PASSWORD }))
      .status,
    303,
  );
  await w.close();
});

Deno.test("changes made in the dashboard count against the account's API rate limit", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro.per_minute = 5;
  const w = await world({ plans, signupPlan: "pro" });
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "fast@example.com", password: PASSWORD })).status, 303);
  const csrf = await b.csrfOf("/dashboard/timers");
  const made = await b.request("POST", "/dashboard/timers", {
    form: { _csrf: csrf, type: "countdown", duration: "60" },
  });
  assert.equal(made.status, 303);
  const id = /\/dashboard\/timers\/(tmr_\w+)/.exec(made.headers.get("location")!)![1];
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const action = i % 2 ? "pause" : "start";
    statuses.push(
      (await b.request("POST", `/dashboard/timers/${id}/action`, { form: { _csrf: csrf, action } })).status,
    );
  }
  assert.deepEqual(statuses.slice(0, 4), [303, 303, 303, 303]);
  assert.ok(statuses.slice(4).every((s) => s === 429), statuses.join(","));
  // Pages still read.
  assert.equal((await b.request("GET", `/dashboard/timers/${id}`)).status, 200);
  await w.close();
});

/** Base64url without padding, as WebAuthn spells bytes. */
function b64url(b: Uint8Array): string {
  let s = "";
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

const fromB64url = (s: string) =>
  Uint8Array.from(atob(s.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));

/** An ES256 public key as the COSE_Key a WebAuthn authenticator reports: {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}. */
async function es256CoseKey(publicKey: CryptoKey): Promise<Uint8Array> {
  const jwk = await crypto.subtle.exportKey("jwk", publicKey);
  const field = (label: number, b64: string) => [label, 0x58, 0x20, ...fromB64url(b64)];
  return new Uint8Array([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, ...field(0x21, jwk.x!), ...field(0x22, jwk.y!)]);
}

/** A software authenticator with one ES256 credential: its stored record and its sign-in answers. */
async function softAuthenticator(credentialId: string, userId: string, at: number) {
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const cose = await es256CoseKey(keys.publicKey);
  const der = (raw: Uint8Array) => {
    const int = (x: Uint8Array) => {
      let i = 0;
      while (i < x.length - 1 && x[i] === 0) i++;
      const v = x.slice(i);
      return v[0] & 0x80 ? [0x02, v.length + 1, 0, ...v] : [0x02, v.length, ...v];
    };
    const body = [...int(raw.slice(0, 32)), ...int(raw.slice(32))];
    return new Uint8Array([0x30, body.length, ...body]);
  };
  let counter = 0;
  return {
    record: { ...strangerPasskey(userId, at), id: credentialId, public_key: b64url(cose) },
    async answer(challenge: string) {
      const rpIdHash = new Uint8Array(
        await crypto.subtle.digest("SHA-256", new TextEncoder().encode(new URL(SITE).hostname)),
      );
      const authData = new Uint8Array([...rpIdHash, 0x05, 0, 0, 0, ++counter]);
      const clientData = new TextEncoder().encode(JSON.stringify({ type: "webauthn.get", challenge, origin: SITE }));
      const signed = new Uint8Array([
        ...authData,
        ...new Uint8Array(await crypto.subtle.digest("SHA-256", clientData)),
      ]);
      const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, keys.privateKey, signed));
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData),
          authenticatorData: b64url(authData),
          signature: b64url(der(raw)),
        },
        clientExtensionResults: {},
      };
    },
  };
}

Deno.test("a passkey removed while someone signs in with it stays removed", async () => {
  const w = await world();
  const owner = browser(w);
  assert.equal((await owner.form("/signup", "/signup", { email: "lost@example.com", password: PASSWORD })).status, 303);
  const user = (await w.store.users.byEmail("lost@example.com"))!;
  const thief = await softAuthenticator("cred-lost-key", user.id, w.clock.now());
  assert.ok(await w.store.users.addPasskey(thief.record));
  const passkeys = w.app.auth.passkeys;
  // It works: whoever holds the authenticator signs in with it.
  let o = await passkeys.loginOptions();
  assert.equal((await passkeys.verifyLogin(o.challengeId, await thief.answer(o.options.challenge))).id, user.id);
  // The owner removes it (a lost key) while the thief's sign-in is between its read and its write.
  const read = w.store.users.getPasskey.bind(w.store.users);
  w.store.users.getPasskey = async (id: string) => {
    const found = await read(id);
    await w.store.users.deletePasskey(user.id, id);
    return found;
  };
  o = await passkeys.loginOptions();
  await passkeys.verifyLogin(o.challengeId, await thief.answer(o.options.challenge)).catch(() => null);
  w.store.users.getPasskey = read;
  assert.deepEqual(await w.store.users.listPasskeys(user.id), [], "not listed: the owner cannot see or remove it");
  assert.equal(await w.store.users.getPasskey("cred-lost-key"), null, "no record left behind");
  o = await passkeys.loginOptions();
  await assert.rejects(
    async () => await passkeys.verifyLogin(o.challengeId, await thief.answer(o.options.challenge)),
    /not registered/,
    "the removed passkey signs nobody in",
  );
  await w.close();
});

Deno.test("a session ended while one of its requests is under way stays ended (its touch writes nothing back)", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "st@example.com", password: PASSWORD })).status, 303);
  const user = (await w.store.users.byEmail("st@example.com"))!;
  assert.equal((await b.request("GET", "/dashboard")).status, 200);
  // Unused for a while, so the next request records that it was seen.
  w.clock.advance(6 * 60_000);

  // "Sign out everywhere" lands just after that request has read the session.
  const read = w.kv.get.bind(w.kv);
  let ended = false;
  w.kv.get = (async (k: Deno.KvKey, o?: { consistency?: Deno.KvConsistencyLevel }) => {
    const e = await read(k, o);
    if (!ended && k[0] === "session" && e.value) {
      ended = true;
      await w.app.auth.sessions.endAll(user.id);
    }
    return e;
  }) as typeof w.kv.get;
  const r = await b.request("GET", "/dashboard");
  w.kv.get = read;
  assert.ok(ended);
  assert.equal(r.status, 303, "the ended session is not let in");
  assert.deepEqual(await w.store.users.sessionsOf(user.id), [], "and not written back");
  assert.equal((await b.request("GET", "/dashboard")).status, 303);
  await w.close();
});

/** A "none"-attestation registration answer for `challenge` whose credential id has `idBytes` bytes. */
async function registrationWithId(challenge: string, idBytes: number) {
  const text = (s: string) => [0x60 + s.length, ...new TextEncoder().encode(s)];
  const bstr = (b: Uint8Array) => [0x59, b.length >> 8, b.length & 255, ...b];
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
  const cose = await es256CoseKey(pair.publicKey);
  const rpIdHash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("timers.test")));
  const credId = new Uint8Array(idBytes).fill(7);
  const authData = new Uint8Array([
    ...rpIdHash,
    0x45, // user present, user verified, attested credential data
    0,
    0,
    0,
    0,
    ...new Uint8Array(16), // AAGUID
    idBytes >> 8,
    idBytes & 255,
    ...credId,
    ...cose,
  ]);
  const attestation = new Uint8Array([
    0xa3,
    ...text("fmt"),
    ...text("none"),
    ...text("attStmt"),
    0xa0,
    ...text("authData"),
    ...bstr(authData),
  ]);
  const clientData = new TextEncoder().encode(JSON.stringify({ type: "webauthn.create", challenge, origin: SITE }));
  return {
    id: b64url(credId),
    rawId: b64url(credId),
    type: "public-key",
    clientExtensionResults: {},
    response: { attestationObject: b64url(attestation), clientDataJSON: b64url(clientData), transports: ["internal"] },
  };
}

Deno.test("a passkey refused at sign-up (an over-long or a registered credential id) leaves no account; no server error", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "long@example.com", password: PASSWORD })).status, 303);
  const csrf = await b.csrfOf("/account");
  /** A JSON POST as the page's script sends it: the CSRF token of the page in its header. */
  const post = async (who: typeof b, path: string, json: unknown, token: string) => {
    const res = await w.app.app.request(`${SITE}${path}`, {
      method: "POST",
      headers: {
        cookie: [...who.jar].map(([k, v]) => `${k}=${v}`).join("; "),
        origin: SITE,
        "content-type": "application/json",
        "x-csrf-token": token,
        "x-forwarded-for": who === b ? "203.0.113.7" : "198.51.100.9",
      },
      body: JSON.stringify(json),
    });
    return { status: res.status, text: await res.text() };
  };
  const options = async (path: string, json: unknown, token: string, who = b) =>
    JSON.parse((await post(who, path, json, token)).text);

  // A normal-sized one registers (the answer is well formed).
  let o = await options("/passkeys/register/options", {}, csrf);
  let r = await post(b, "/passkeys/register/verify", {
    challenge_id: o.challenge_id,
    response: await registrationWithId(o.options.challenge, 32),
  }, csrf);
  assert.equal(r.status, 200, r.text);

  // WebAuthn caps credential ids at 1023 bytes; 2000 would not fit in a KV key.
  o = await options("/passkeys/register/options", {}, csrf);
  r = await post(b, "/passkeys/register/verify", {
    challenge_id: o.challenge_id,
    response: await registrationWithId(o.options.challenge, 2000),
  }, csrf);
  assert.equal(r.status, 400, r.text);

  const stranger = browser(w, "198.51.100.9");
  const pre = await stranger.csrfOf("/signup");
  o = await options("/passkeys/signup/options", { email: "squat@example.com" }, pre, stranger);
  r = await post(stranger, "/passkeys/signup/verify", {
    challenge_id: o.challenge_id,
    response: await registrationWithId(o.options.challenge, 2000),
  }, pre);
  assert.equal(r.status, 400, r.text);
  assert.equal(await w.store.users.byEmail("squat@example.com"), null, "no account left without a way in");

  // A credential id already registered (b's, above) is refused at sign-up, and leaves no account either.
  o = await options("/passkeys/signup/options", { email: "again@example.com" }, pre, stranger);
  r = await post(stranger, "/passkeys/signup/verify", {
    challenge_id: o.challenge_id,
    response: await registrationWithId(o.options.challenge, 32),
  }, pre);
  assert.equal(r.status, 400, r.text);
  assert.match(r.text, /already registered/);
  assert.equal(await w.store.users.byEmail("again@example.com"), null, "no account left without a way in");
  assert.deepEqual(w.logs.filter((l) => l.level === "error"), []);
  await w.close();
});

Deno.test("the dashboard's message and language cookies are __Host- ones: a sibling subdomain's cookie shows nothing", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "toss@example.com", password: PASSWORD })).status, 303);
  // What evil.example.com could set for the whole site (Domain=example.com), or a plain-http page of it.
  const lie = encodeURIComponent(JSON.stringify({ kind: "error", text: "Account suspended: call +1 555 0100" }));
  b.jar.set("dash_flash", lie);
  b.jar.set("dash_lang", "ja");
  const page = await b.request("GET", "/dashboard");
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.text, /Account suspended/);
  assert.match(page.text, /<html lang="en"/);

  // The dashboard's own messages still come and go.
  const retired = await b.form("/dashboard/webhooks", "/dashboard/webhooks/retire", {});
  assert.equal(retired.status, 303);
  assert.match(retired.headers.get("set-cookie") ?? "", /__Host-dash_flash=[^;]+;.*Path=\/;.*Secure/);
  b.jar.delete("dash_flash");
  const shown = await b.request("GET", "/dashboard/webhooks");
  assert.match(shown.text, /class="flash/);
  assert.match(shown.headers.get("set-cookie") ?? "", /__Host-dash_flash=;.*Max-Age=0/);
  await w.close();
});

Deno.test("a refused account form answered in the dashboard's frame speaks the language chosen there", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "lang@example.com", password: PASSWORD })).status, 303);
  assert.equal((await b.request("GET", "/dashboard/lang?lang=de&back=/dashboard/account")).status, 303);
  assert.match((await b.request("GET", "/dashboard/account")).text, /<html lang="de"/);
  // Posted to sign-in's /account route, which answers in the dashboard's frame: its language too.
  const refused = await b.form("/dashboard/account", "/account/password", {
    current_password: "not the password",
    password: "another long phrase",
    back: "/dashboard/account",
  });
  assert.equal(refused.status, 422);
  assert.match(refused.text, /<html lang="de"/);
  await w.close();
});

Deno.test("a password change refused by the per-email limit carries Retry-After, on /account and in the dashboard's frame", async () => {
  const w = await world();
  const b = browser(w);
  assert.equal((await b.form("/signup", "/signup", { email: "wait@example.com", password: PASSWORD })).status, 303);
  for (const back of ["/account", "/dashboard/account"]) {
    let last = { status: 0, headers: new Headers() };
    for (let i = 0; i < 7 && last.status !== 429; i++) {
      last = await b.form(back, "/account/password", {
        current_password: `wrong ${i}`,
        password: "another long phrase",
        back,
      });
    }
    assert.equal(last.status, 429, back);
    assert.match(last.headers.get("retry-after") ?? "", /^\d+$/, `${back}: as every other 429 of the site`);
  }
  await w.close();
});
