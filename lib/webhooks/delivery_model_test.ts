import assert from "node:assert/strict";
import { serialize } from "node:v8";
import {
  afterAttempt,
  beyondLog,
  clipError,
  type Delivery,
  DROPPED_FOR_NEW_URL,
  dropRetry,
  MAX_ATTEMPTS_KEPT,
  MAX_ERROR_CHARS,
  retriesToOldUrl,
} from "./delivery_model.ts";

function d(n: number, state: Delivery["state"], url = "https://a.example/hook"): { delivery: Delivery } {
  return {
    delivery: {
      id: `evt_${String(n).padStart(6, "0")}`,
      timer_id: "tmr_a",
      account_id: "acct_a",
      url,
      payload: {
        id: "x",
        event: "interval.round_end",
        timestamp: "",
        timer_id: "tmr_a",
        title: null,
        type: "interval",
        data: {},
      },
      state,
      attempts: [],
      next_attempt_at: state === "pending" ? 1 : null,
      created_at: n,
    },
  };
}

Deno.test("the log keeps the newest 1 000, every pending delivery and the newest 1 000 failed", () => {
  const newestFirst = Array.from(
    { length: 1500 },
    (_, i) => d(1500 - i, i === 1200 ? "failed" : i === 1300 ? "pending" : "succeeded"),
  );
  const gone = beyondLog(newestFirst);
  assert.equal(gone.length, 498);
  assert.ok(gone.every((e) => e.delivery.state === "succeeded"));
  assert.ok(gone.every((e) => e.delivery.created_at <= 500), "only the oldest go");
  assert.equal(beyondLog(newestFirst.slice(0, 1000)).length, 0);
});

Deno.test("a receiver that stays down does not grow the log forever: the newest 1 000 failed stay", () => {
  // A 1-s interval whose receiver never answers: every settled delivery failed, the newest still pending.
  const newestFirst = Array.from({ length: 3000 }, (_, i) => d(3000 - i, i < 200 ? "pending" : "failed"));
  const gone = beyondLog(newestFirst);
  assert.equal(gone.length, 1800);
  assert.ok(gone.every((e) => e.delivery.state === "failed" && e.delivery.created_at <= 1800), "the oldest failed go");
  assert.equal(beyondLog(newestFirst.slice(0, 1200)).length, 0, "pending ones never go");
});

Deno.test("retries to a URL the timer no longer notifies are the ones dropped; first attempts still go", () => {
  const tried = (e: { delivery: Delivery }) => {
    e.delivery.attempts = [{ n: 1, at: "", duration_ms: 1, status: 503, error: "HTTP 503" }];
    return e;
  };
  const entries = [
    tried(d(1, "pending")),
    d(2, "succeeded"),
    tried(d(3, "pending", "https://b.example/hook")),
    tried(d(4, "failed")),
    d(5, "pending"),
  ];
  assert.deepEqual(retriesToOldUrl(entries, "https://b.example/hook").map((e) => e.delivery.created_at), [1]);
  assert.deepEqual(retriesToOldUrl(entries, null).map((e) => e.delivery.created_at), [1, 3]);
  const dropped = dropRetry({ ...entries[0].delivery, claimed: true });
  assert.equal(dropped.state, "failed");
  assert.equal(dropped.next_attempt_at, null);
  assert.equal(dropped.claimed, false);
  assert.equal(dropped.attempts.length, 1);
  assert.equal(dropped.attempts[0].status, 503);
  assert.equal(dropped.attempts[0].error, `HTTP 503; ${DROPPED_FOR_NEW_URL}`);
});

Deno.test("an attempt's outcome settles the delivery or schedules the next retry", () => {
  const claimed = { ...d(1, "pending").delivery, claimed: true, next_attempt_at: 20_000 };
  const failed = afterAttempt(claimed, { ok: false, status: 503, error: "HTTP 503", duration_ms: 5 }, 1000, 1005, [60]);
  assert.equal(failed.state, "pending");
  assert.equal(failed.claimed, false);
  assert.equal(failed.next_attempt_at, 61_005);
  const last = afterAttempt(failed, { ok: false, status: 503, error: "HTTP 503", duration_ms: 5 }, 62_000, 62_005, [
    60,
  ]);
  assert.equal(last.state, "failed");
  assert.equal(last.next_attempt_at, null);
  assert.deepEqual(last.attempts.map((a) => a.n), [1, 2]);
  const ok = afterAttempt(claimed, { ok: true, status: 200, error: null, duration_ms: 5 }, 1000, 1005, [60]);
  assert.equal(ok.state, "succeeded");
  assert.equal(ok.next_attempt_at, null);
});

Deno.test("a delivery redelivered again and again keeps its newest attempts only: its record stays under KV's 64 KiB", () => {
  // The worst case: the longest URL, its host named in every error (a host that never resolves).
  const host = `${"h".repeat(60)}.`.repeat(33) + "example";
  const down = { ok: false, status: null, error: `cannot resolve ${host}: no such host`, duration_ms: 5 };
  const retries = [60, 300, 1800, 7200];
  let del: Delivery = { ...d(1, "pending").delivery, url: `https://${host}/${"p".repeat(2040 - host.length)}` };
  // Every redelivery of a failed delivery is one more attempt (POST …/redeliver, once a second, for hours).
  for (let i = 0; i < 2000; i++) {
    del = afterAttempt({ ...del, last_try: true }, down, i, i + 5, retries);
    if (i % 2) del = dropRetry(del); // its URL changed before the attempt was recorded
  }
  assert.ok(del.attempts.every((a) => a.error!.length <= MAX_ERROR_CHARS + DROPPED_FOR_NEW_URL.length + 2));
  assert.equal(del.state, "failed");
  assert.equal(del.attempts.length, MAX_ATTEMPTS_KEPT);
  assert.deepEqual(
    del.attempts.map((a) => a.n),
    Array.from({ length: MAX_ATTEMPTS_KEPT }, (_, i) => 2001 - MAX_ATTEMPTS_KEPT + i),
  );
  // What a KV commit refuses past 65 536 bytes (V8's serialisation, as Deno KV stores values).
  assert.ok(serialize(del).byteLength < 60_000, `${serialize(del).byteLength} bytes`);
  // The schedule still counts every attempt made, kept or not.
  let fresh: Delivery = { ...d(2, "pending").delivery, attempts: del.attempts };
  fresh = afterAttempt(fresh, down, 0, 5, retries);
  assert.equal(fresh.state, "failed", "past the schedule's attempts a delivery fails");
  const second = afterAttempt({ ...d(3, "pending").delivery }, down, 0, 5, retries);
  assert.equal(second.state, "pending");
  assert.equal(second.next_attempt_at, 60_005);
});

Deno.test("dropping retries of one delivery again and again says so once: its last error does not grow", () => {
  let del: Delivery = {
    ...d(1, "pending").delivery,
    attempts: [{ n: 1, at: "", duration_ms: 1, status: 503, error: "HTTP 503" }],
  };
  // Redeliver (pending again, attempt under way), change the URL (retries dropped), and again.
  for (let i = 0; i < 3; i++) del = dropRetry({ ...dropRetry(del), state: "pending", claimed: true });
  assert.equal(del.attempts[0].error, `HTTP 503; ${DROPPED_FOR_NEW_URL}`);
  assert.equal(
    dropRetry({ ...d(2, "pending").delivery, attempts: [{ n: 1, at: "", duration_ms: 1, status: null, error: null }] })
      .attempts[0].error,
    DROPPED_FOR_NEW_URL,
  );
});

Deno.test("an attempt's error is kept to MAX_ERROR_CHARS, as recorded by a test send too", () => {
  assert.equal(clipError(null), null);
  assert.equal(clipError("HTTP 500"), "HTTP 500");
  const long = clipError(`could not resolve ${"h".repeat(2000)}.example`)!;
  assert.equal(long.length, MAX_ERROR_CHARS);
  assert.ok(long.endsWith("…"));
});
