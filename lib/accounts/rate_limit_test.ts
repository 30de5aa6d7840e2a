import assert from "node:assert/strict";
import { DEFAULT_PLANS, type PlanLimits } from "../../config.ts";
import { RateLimiter } from "./rate_limit.ts";

const T = Date.parse("2026-11-22T12:00:10Z");

/** Counts `n` requests and returns how many were let in. */
async function admit(l: RateLimiter, subject: string, plan: PlanLimits, n: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < n; i++) if ((await l.check(subject, plan)).allowed) allowed++;
  return allowed;
}

async function rows(kv: Deno.Kv): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix: ["rate"] })) keys.push(e.key);
  return keys;
}

Deno.test("one limit holds across processes sharing a KV file, after a merge", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite3" });
  const kvA = await Deno.openKv(path);
  const kvB = await Deno.openKv(path);
  let now = T;
  const a = new RateLimiter(kvA, { flushMs: 50, now: () => now });
  const b = new RateLimiter(kvB, { flushMs: 50, now: () => now });
  const plan = { ...DEFAULT_PLANS.pro, per_minute: 10 };
  assert.equal(await admit(a, "acct:1", plan, 6), 6);
  await a.flush();
  // B meets the subject for the first time: it reads the shared total before deciding.
  assert.equal(await admit(b, "acct:1", plan, 10), 4, "B admits only what is left of the shared 10");
  await b.flush();
  await a.flush();
  assert.equal((await a.check("acct:1", plan)).allowed, false);
  now += 60_000;
  assert.ok((await a.check("acct:1", plan)).allowed, "a new minute window starts afresh");
  await a.stop();
  await b.stop();
  kvA.close();
  kvB.close();
  await Deno.remove(path);
});

Deno.test("no KV write happens on the request path", async () => {
  const kv = await Deno.openKv(":memory:");
  const limiter = new RateLimiter(kv, { flushMs: 1000, now: () => T });
  for (let i = 0; i < 5; i++) await limiter.check("ip:1", DEFAULT_PLANS.anonymous);
  assert.equal((await rows(kv)).length, 0);
  await limiter.flush();
  assert.equal((await rows(kv)).length, 2, "one minute and one day counter after the merge");
  await limiter.stop();
  kv.close();
});

Deno.test("counters of ended windows are deleted at a later merge", async () => {
  const kv = await Deno.openKv(":memory:");
  let now = T;
  const limiter = new RateLimiter(kv, { flushMs: 1000, now: () => now });
  await limiter.check("ip:1", DEFAULT_PLANS.anonymous);
  await limiter.flush();
  now += 60_000;
  await limiter.check("ip:1", DEFAULT_PLANS.anonymous);
  await limiter.flush();
  const keys = await rows(kv);
  assert.deepEqual(keys.filter((k) => k[2] === "m").map((k) => k[3]), [now - (now % 60_000)]);
  await limiter.stop();
  kv.close();
});

Deno.test("one process never overshoots, also while its counts are being merged", async () => {
  const kv = await Deno.openKv(":memory:");
  const limiter = new RateLimiter(kv, { flushMs: 1000, now: () => T });
  const plan = { ...DEFAULT_PLANS.pro, per_minute: 100, per_day: null };
  // Hold every commit until released, so requests arrive while the merge is under way.
  const atomic = kv.atomic.bind(kv);
  const gate = Promise.withResolvers<void>();
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      await gate.promise;
      return await commit();
    };
    return op;
  };
  let allowed = await admit(limiter, "acct:1", plan, 60);
  const merging = limiter.flush();
  allowed += await admit(limiter, "acct:1", plan, 100);
  gate.resolve();
  await merging;
  allowed += await admit(limiter, "acct:1", plan, 100);
  await limiter.flush();
  allowed += await admit(limiter, "acct:1", plan, 100);
  assert.equal(allowed, 100, "exactly the limit, before, during and after the merge");
  await limiter.stop();
  kv.close();
});

Deno.test("a subject forgotten after being blocked is still blocked for the rest of the day", async () => {
  const kv = await Deno.openKv(":memory:");
  let now = T;
  const limiter = new RateLimiter(kv, { flushMs: 1000, now: () => now });
  const plan = { ...DEFAULT_PLANS.pro, per_minute: 10, per_day: 15 };
  assert.equal(await admit(limiter, "acct:1", plan, 10), 10);
  now += 60_000;
  assert.equal(await admit(limiter, "acct:1", plan, 10), 5);
  await limiter.flush();
  // Still knocking while blocked keeps it in memory; silence for a while lets it be forgotten.
  now += 3 * 60_000;
  await limiter.flush();
  await limiter.flush();
  assert.equal(await admit(limiter, "acct:1", plan, 10), 0, "the day's total is read back, not restarted");
  await limiter.stop();
  kv.close();
});
