import assert from "node:assert/strict";
import { DEFAULT_PLANS } from "../config.ts";
import { createKey, listKeys, revokeByRef, revokeKey, setPlan } from "../lib/accounts/accounts.ts";
import { LAST_USED_RESOLUTION_MS } from "../lib/accounts/auth.ts";
import { key } from "../lib/kv/keys.ts";
import { setup } from "./helpers.ts";

const cd = { type: "countdown", duration: 60 };

Deno.test("a missing, malformed or wrong key answers 401 with WWW-Authenticate", async () => {
  const s = await setup();
  const cases: (string | null)[] = [null, "tsk_wrongwrongwrongwrongwrongwrong0", "Basic abc", "Bearer", "nonsense"];
  for (const auth of cases) {
    const r = await s.call("GET", "/api/v1/timers", {
      key: null,
      headers: auth === null ? {} : { authorization: auth.startsWith("tsk_") ? `Bearer ${auth}` : auth },
    });
    assert.equal(r.status, 401, String(auth));
    assert.equal(r.body.error.code, 401);
    assert.equal(r.headers.get("www-authenticate"), 'Bearer realm="api"');
    assert.ok(r.headers.get("x-ratelimit-limit"));
  }
  await s.close();
});

Deno.test("a key of another shape than tsk_ + 32 base62 is refused unread: no lookup, nothing kept in memory", async () => {
  const s = await setup();
  const byKeyHash = s.store.accounts.byKeyHash.bind(s.store.accounts);
  let lookups = 0;
  s.store.accounts.byKeyHash = (hash: string) => {
    lookups++;
    return byKeyHash(hash);
  };
  // Each made-up key was looked up and kept in the resolver's cache by its text (up to 10 000 of
  // them, each as long as a header may be: 64 KB × 10 000 = 640 MB held for an anonymous caller).
  for (
    const key of [
      `tsk_${"x".repeat(60_000)}`,
      `tsk_${"A".repeat(31)}`,
      `tsk_${"A".repeat(33)}`,
      `tsk_${"A".repeat(31)}-`,
    ]
  ) {
    const r = await s.call("GET", "/api/v1/timers", { key });
    assert.equal(r.status, 401, key.slice(0, 40));
    assert.equal(r.body.error.message, "invalid or revoked API key");
  }
  assert.equal(lookups, 0);
  // A key of the right shape is looked up as before, and a real one still works.
  assert.equal((await s.call("GET", "/api/v1/timers", { key: `tsk_${"A".repeat(32)}` })).status, 401);
  assert.equal(lookups, 1);
  assert.equal((await s.call("GET", "/api/v1/timers")).status, 200);
  await s.close();
});

Deno.test("a free plan gets 403 on every timer endpoint", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create(cd);
  const key = s.free.apiKey;
  for (
    const [m, p, body] of [
      ["POST", "/api/v1/timers", cd],
      ["GET", "/api/v1/timers", undefined],
      ["GET", `/api/v1/timers/${id}`, undefined],
      ["PATCH", `/api/v1/timers/${id}/state`, { action: "start" }],
      ["DELETE", `/api/v1/timers/${id}`, undefined],
    ] as const
  ) {
    const r = await s.call(m, p, { key, body });
    assert.equal(r.status, 403, `${m} ${p}`);
    assert.match(r.body.error.message, /free plan has no API access/);
  }
  await s.close();
});

Deno.test("a timer is visible only to its owner: another account gets 404", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create({ ...cd, webhook_url: "http://127.0.0.1:9/h" });
  const key = s.other.apiKey;
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`, { key })).status, 404);
  assert.equal((await s.act(id, "start", key)).status, 404);
  assert.equal((await s.call("PATCH", `/api/v1/timers/${id}`, { key, body: { title: "x" } })).status, 404);
  assert.equal((await s.call("DELETE", `/api/v1/timers/${id}`, { key })).status, 404);
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).body.state, "idle");
  await s.close();
});

Deno.test("the control token reads and drives its one timer, and nothing else", async () => {
  const s = await setup();
  const t = await s.create({ ...cd, webhook_url: "http://127.0.0.1:9/h" });
  const token = t.control_url.split("#")[1];
  const other = await s.create(cd);
  const got = await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: token });
  assert.equal(got.status, 200);
  assert.equal(got.body.webhook_url, undefined, "the owner's webhook is not shown to a token holder");
  assert.equal((await s.act(t.timer_id, "start", token)).body.state, "running");
  assert.equal((await s.call("GET", `/api/v1/timers/${other.timer_id}`, { key: token })).status, 401);
  assert.equal((await s.act(other.timer_id, "start", token)).status, 401);
  assert.equal((await s.call("DELETE", `/api/v1/timers/${t.timer_id}`, { key: token })).status, 403);
  assert.equal(
    (await s.call("PATCH", `/api/v1/timers/${t.timer_id}`, { key: token, body: { title: "x" } })).status,
    403,
  );
  // No timer in the path to check a control token against: it is no credential there (401).
  assert.equal((await s.call("POST", "/api/v1/timers", { key: token, body: cd })).status, 401);
  assert.equal((await s.call("GET", "/api/v1/timers", { key: token })).status, 401);
  const forged = await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: "tct_AAAAAAAAAAAAAAAAAAAAAAAA" });
  assert.equal(forged.status, 401);
  await s.close();
});

Deno.test("the owner replaces a control token: the old one stops at once, the new one is shown once", async () => {
  const s = await setup();
  const t = await s.create(cd);
  const old = t.control_url.split("#")[1];
  assert.equal((await s.act(t.timer_id, "start", old)).status, 200, "caches the old token as valid");
  const path = `/api/v1/timers/${t.timer_id}/control_token`;
  // Only the owner's key may: not the token itself, not another account, not anonymous callers.
  assert.equal((await s.call("POST", path, { key: old })).status, 403);
  assert.equal((await s.call("POST", path, { key: s.other.apiKey })).status, 404);
  assert.equal((await s.call("POST", path, { key: "" })).status, 401);
  assert.equal((await s.call("POST", "/api/v1/timers/tmr_0000000000000000/control_token")).status, 404);
  const r = await s.call("POST", path);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("cache-control"), "no-store");
  assert.equal(r.body.state, "running", "the timer runs on");
  const fresh = r.body.control_url.match(new RegExp(`^http://timers.test/c/${t.timer_id}#(tct_[0-9A-Za-z]{24})$`))[1];
  assert.notEqual(fresh, old);
  assert.equal((await s.act(t.timer_id, "pause", old)).status, 401);
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: old })).status, 401);
  assert.equal((await s.act(t.timer_id, "pause", fresh)).body.state, "paused");
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.control_url, undefined);
  await s.close();
});

Deno.test("a replaced control token spends nothing of the new one's rate limit", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro.per_minute = 5; // control tokens are counted per timer at the pro plan's figures
  plans.anonymous.per_minute = 1000;
  plans.pro.per_day = null;
  const s = await setup({ config: { plans } });
  const t = await s.create(cd);
  const old = t.control_url.split("#")[1];
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: old })).status, 200);
  const fresh = (await s.call("POST", `/api/v1/timers/${t.timer_id}/control_token`)).body.control_url.split("#")[1];
  // Whoever holds the leaked link keeps calling with it.
  for (let i = 0; i < 5; i++) {
    assert.notEqual((await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: old })).status, 200);
  }
  const r = await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: fresh });
  assert.equal(r.status, 200, "the new link is not locked out by the old one's calls");
  await s.close();
});

Deno.test("a revoked key stops working and a plan change applies", async () => {
  const s = await setup();
  await revokeByRef(s.store, s.other.account.id);
  s.app.keys.clear();
  assert.equal((await s.call("GET", "/api/v1/timers", { key: s.other.apiKey })).status, 401);
  await setPlan(s.store, s.free.account.id, "pro");
  s.app.keys.clear();
  assert.equal((await s.call("GET", "/api/v1/timers", { key: s.free.apiKey })).status, 200);
  await s.close();
});

Deno.test("the pro plan stores at most 50 timers; deleting one makes room", async () => {
  const s = await setup();
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) ids.push((await s.create(cd)).timer_id);
  const over = await s.call("POST", "/api/v1/timers", { body: cd });
  assert.equal(over.status, 403);
  assert.match(over.body.error.message, /at most 50 timers/);
  await s.call("DELETE", `/api/v1/timers/${ids[0]}`);
  assert.equal((await s.call("POST", "/api/v1/timers", { body: cd })).status, 201);
  // Expired timers no longer count.
  s.clock.advance(31 * 86400_000);
  assert.equal((await s.call("POST", "/api/v1/timers", { body: cd })).status, 201);
  // Enterprise has no limit.
  for (let i = 0; i < 55; i++) await s.create(cd, s.enterprise.apiKey);
  await s.close();
});

Deno.test("concurrent creations cannot pass the stored-timer limit", async () => {
  const s = await setup();
  for (let i = 0; i < 45; i++) await s.create(cd);
  const results = await Promise.all(Array.from({ length: 10 }, () => s.call("POST", "/api/v1/timers", { body: cd })));
  assert.equal(results.filter((r) => r.status === 201).length, 5);
  assert.equal(results.filter((r) => r.status === 403).length, 5);
  await s.close();
});

Deno.test("rate limits: headers on every response, 429 with Retry-After, reset with the minute", async () => {
  const s = await setup({ config: { plans: structuredClone(DEFAULT_PLANS) } });
  let last;
  for (let i = 0; i < 60; i++) {
    last = await s.call("GET", "/api/v1/timers");
    assert.equal(last.status, 200);
  }
  assert.equal(last!.headers.get("x-ratelimit-limit"), "60");
  assert.equal(last!.headers.get("x-ratelimit-remaining"), "0");
  assert.equal(last!.headers.get("x-ratelimit-reset"), String(Date.parse("2026-11-22T12:01:00Z") / 1000));
  const over = await s.call("GET", "/api/v1/timers");
  assert.equal(over.status, 429);
  assert.equal(over.headers.get("retry-after"), "60");
  assert.equal(over.body.error.code, 429);
  // Another account has its own budget.
  assert.equal((await s.call("GET", "/api/v1/timers", { key: s.other.apiKey })).status, 200);
  s.clock.advance(60_000);
  const next = await s.call("GET", "/api/v1/timers");
  assert.equal(next.status, 200);
  assert.equal(next.headers.get("x-ratelimit-remaining"), "59");
  await s.close();
});

Deno.test("anonymous callers are limited per IP", async () => {
  const s = await setup({ config: { plans: structuredClone(DEFAULT_PLANS), trustProxyHops: 1 } });
  const from = (ip: string) => s.call("GET", "/api/v1/timers", { key: null, headers: { "x-forwarded-for": ip } });
  for (let i = 0; i < 30; i++) assert.equal((await from("203.0.113.7")).status, 401);
  assert.equal((await from("203.0.113.7")).status, 429);
  assert.equal((await from("203.0.113.8")).status, 401);
  await s.close();
});

Deno.test("the daily cap applies across minutes", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro.per_day = 3;
  const s = await setup({ config: { plans } });
  for (let i = 0; i < 3; i++) {
    assert.equal((await s.call("GET", "/api/v1/timers")).status, 200);
    s.clock.advance(61_000);
  }
  const r = await s.call("GET", "/api/v1/timers");
  assert.equal(r.status, 429);
  assert.match(r.body.error.message, /per day/);
  assert.ok(Number(r.headers.get("retry-after")) > 60);
  await s.close();
});

Deno.test("an account has several named keys; revoking one leaves the others and the timers working", async () => {
  const s = await setup();
  const t = await s.create(cd);
  const second = await createKey(s.store, s.pro.account.id, "CI deploys");
  assert.match(second.secret, /^tsk_[0-9A-Za-z]{32}$/);
  assert.equal(second.key.prefix, second.secret.slice(0, 12));
  const keys = await listKeys(s.store, s.pro.account.id);
  assert.deepEqual(keys.map((k) => k.name), ["default", "CI deploys"]);
  assert.ok(!JSON.stringify(keys).includes(second.secret), "listings never hold a secret");
  // The timer belongs to the account: the second key sees and drives it.
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: second.secret })).status, 200);
  await revokeKey(s.store, s.pro.account.id, s.pro.key.id, s.clock.now());
  s.app.keys.clear();
  assert.equal((await s.call("GET", "/api/v1/timers", { key: s.pro.apiKey })).status, 401);
  assert.equal((await s.act(t.timer_id, "start", second.secret)).body.state, "running");
  await assert.rejects(() => revokeKey(s.store, s.other.account.id, second.key.id), /no key/);
  await assert.rejects(() => createKey(s.store, s.pro.account.id, "  "), /key name must be 1 to 60 characters/);
  await s.close();
});

Deno.test("a key name holds no control characters: `keys list` prints it to the operator's terminal", async () => {
  const s = await setup();
  // An escape sequence would clear the operator's screen, retitle it or write a line that looks like another account's.
  for (const name of ["\x1b[2J\x1b]0;hi\x07", "ci\rAcct_x enterprise", "\u202Eyek"]) {
    await assert.rejects(
      () => createKey(s.store, s.pro.account.id, name),
      /key name must be .* without control characters/,
    );
  }
  assert.deepEqual((await listKeys(s.store, s.pro.account.id)).map((k) => k.name), ["default"]);
  assert.equal((await createKey(s.store, s.pro.account.id, "Déploiements 🚀")).key.name, "Déploiements 🚀");
  await s.close();
});

Deno.test("a key's last use is recorded coarsely: at most one KV write an hour", async () => {
  const s = await setup();
  const k = await createKey(s.store, s.pro.account.id, "hourly", s.clock.now());
  const lastUsed = async () => (await s.store.accounts.getKey(s.pro.account.id, k.key.id))!.last_used_at;
  let versions = new Set<string>();
  const stamp = async () => versions.add((await s.kv.get(key.apiKey(s.pro.account.id, k.key.id))).versionstamp!);
  for (let i = 0; i < 50; i++) {
    assert.equal((await s.call("GET", "/api/v1/timers", { key: k.secret })).status, 200);
    await stamp();
    s.clock.advance(10_000);
  }
  assert.equal(await lastUsed(), s.clock.now() - 50 * 10_000, "written on the first use");
  assert.equal(versions.size, 1, "and not again within the hour");
  s.clock.advance(LAST_USED_RESOLUTION_MS);
  versions = new Set();
  await s.call("GET", "/api/v1/timers", { key: k.secret });
  assert.equal(await lastUsed(), s.clock.now());
  await s.close();
});

Deno.test("an account stored with one inline key (older data) is read as an account with one named key", async () => {
  const s = await setup();
  const legacyKey = "tsk_LEGACYlegacyLEGACYlegacyLEGACY01";
  const { sha256Hex } = await import("../lib/ids.ts");
  const hash = sha256Hex(legacyKey);
  await s.kv.set(key.account("acct_legacy00001"), {
    id: "acct_legacy00001",
    name: "Old Co",
    plan: "pro",
    key_hash: hash,
    key_prefix: legacyKey.slice(0, 12),
    created_at: s.clock.now(),
    revoked_at: null,
    webhook_secrets: [{ secret: "whsec_x", created_at: s.clock.now() }],
  });
  await s.kv.set(key.keyHash(hash), "acct_legacy00001");
  assert.equal((await s.call("GET", "/api/v1/timers", { key: legacyKey })).status, 200);
  const keys = await listKeys(s.store, "acct_legacy00001");
  assert.equal(keys.length, 1);
  assert.equal(keys[0].prefix, legacyKey.slice(0, 12));
  assert.equal((await s.store.getAccount("acct_legacy00001"))!.webhook_secrets[0].secret, "whsec_x");
  await s.close();
});
