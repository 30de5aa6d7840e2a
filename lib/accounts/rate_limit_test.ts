import assert from "node:assert/strict";
import { DEFAULT_PLANS } from "../../config.ts";
import { RateLimiter } from "./rate_limit.ts";

const T = Date.parse("2026-11-22T12:00:10Z");

Deno.test("one limit holds across processes sharing a KV file, after a merge", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite3" });
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  let now = T;
  const a = new RateLimiter(kvA, { flushMs: 50, now: () => now });
  const b = new RateLimiter(kvB, { flushMs: 50, now: () => now });
  const plan = { ...DEFAULT_PLANS.pro, per_minute: 10 };
  for (let i = 0; i < 6; i++) assert.ok(a.check("acct:1", plan).allowed);
  await a.flush();
  b.check("acct:1", plan); // B learns of the subject, then merges and reads the total.
  await b.flush();
  const allowedB = Array.from({ length: 10 }, () => b.check("acct:1", plan).allowed).filter(Boolean).length;
  assert.equal(allowedB, 3, "B admits only what is left of the shared 10");
  await b.flush();
  await a.flush();
  assert.equal(a.check("acct:1", plan).allowed, false);
  now += 60_000;
  assert.ok(a.check("acct:1", plan).allowed, "a new minute window starts afresh");
  await a.stop();
  await b.stop();
  kvA.close();
  kvB.close();
  await Deno.remove(path);
});

Deno.test("no KV write happens on the request path", async () => {
  const kv = await Deno.openKv(":memory:");
  const limiter = new RateLimiter(kv, { flushMs: 1000, now: () => T });
  for (let i = 0; i < 5; i++) limiter.check("ip:1", DEFAULT_PLANS.anonymous);
  let rows = 0;
  for await (const _ of kv.list({ prefix: ["rate"] })) rows++;
  assert.equal(rows, 0);
  await limiter.flush();
  for await (const _ of kv.list({ prefix: ["rate"] })) rows++;
  assert.equal(rows, 2, "one minute and one day counter after the merge");
  await limiter.stop();
  kv.close();
});

Deno.test("counters of ended windows are deleted at a later merge", async () => {
  const kv = await Deno.openKv(":memory:");
  let now = T;
  const limiter = new RateLimiter(kv, { flushMs: 1000, now: () => now });
  limiter.check("ip:1", DEFAULT_PLANS.anonymous);
  await limiter.flush();
  now += 60_000;
  limiter.check("ip:1", DEFAULT_PLANS.anonymous);
  await limiter.flush();
  const keys: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix: ["rate"] })) keys.push(e.key);
  assert.deepEqual(keys.filter((k) => k[2] === "m").map((k) => k[3]), [now - (now % 60_000)]);
  await limiter.stop();
  kv.close();
});
