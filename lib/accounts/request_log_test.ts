import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { loggedPath, RequestLog, type RequestRecord } from "./request_log.ts";
import type { Store } from "../kv/store.ts";

const rec = (i: number): Omit<RequestRecord, "seq"> => ({
  at: 1_800_000_000_000 + i,
  method: "GET",
  path: "/api/v1/timers",
  status: 200,
  key_prefix: "tsk_abcd",
  request_id: `req_${i}`,
  duration_ms: 0.1,
});

/** A KV whose commits and reads take `ms` (a KV Connect round trip). */
function slow(kv: Deno.Kv, ms: number): Deno.Kv {
  const atomic = kv.atomic.bind(kv);
  const get = kv.get.bind(kv);
  const pause = () => new Promise((r) => setTimeout(r, ms));
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => (await pause(), await commit());
    return op;
  };
  // deno-lint-ignore no-explicit-any
  (kv as any).get = async (...a: Parameters<typeof get>) => (await pause(), await get(...a));
  return kv;
}

Deno.test("a failed owner lookup is reported, never an unhandled rejection, and the rest is written", async () => {
  const kv = await Deno.openKv(":memory:");
  const failing = () => Promise.reject(new Error("KV read failed"));
  const store = { kv, getTimer: failing, rundowns: { get: failing } } as unknown as Store;
  const reported: string[] = [];
  const log = new RequestLog(store, { failed: (m) => reported.push(m) });
  log.record({ controlled: "tmr_AAAAAAAAAAAAAAAA" }, rec(1));
  log.record({ account: "acct_1" }, rec(2));
  await log.flush(); // resolves: does not reject
  assertEquals(reported.length, 1);
  assertEquals((await log.read("acct_1")).map((r) => r.request_id), ["req_2"]);
  kv.close();
});

Deno.test("reading an account's log answers while other requests keep arriving on a slow store", async () => {
  const kv = slow(await Deno.openKv(":memory:"), 20);
  const log = new RequestLog({ kv } as unknown as Store, { flushMs: 50 });
  log.start();
  let i = 0, done = false;
  // Another account's traffic never stops until the read has answered.
  const traffic = (async () => {
    while (!done) {
      log.record({ account: "acct_busy" }, rec(i++));
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  log.record({ account: "acct_quiet" }, rec(-1));
  const read = await log.read("acct_quiet");
  done = true;
  await traffic;
  await log.stop();
  assertEquals(read.map((r) => r.request_id), ["req_-1"]);
  kv.close();
});

Deno.test("logged paths keep only plain parameter names and harmless values", () => {
  assertEquals(
    loggedPath("http://x/api/v1/timers/tmr_1/actions/adjust?seconds=60&token=tct_secret&tsk_SECRET=1"),
    "/api/v1/timers/tmr_1/actions/adjust?seconds=60&token=redacted&param=redacted",
  );
});
