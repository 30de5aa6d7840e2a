import assert from "node:assert/strict";
import { serialize } from "node:v8";
import { excerptOf, keepResponses, RESPONSE_BODY_BYTES, RESPONSE_HEADER_CHARS } from "./response.ts";
import { afterAttempt, type Delivery, MAX_ATTEMPTS_KEPT, MAX_ERROR_CHARS } from "./delivery_model.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("an answer keeps its first 2 KB, cut between characters, and headers up to 1 KB", () => {
  const body = "é".repeat(3000);
  const e = excerptOf({ "x-a": "1", "set-cookie": ["a=b", "c=d"], "x-big": "v".repeat(5000) }, [bytes(body)], 6000);
  assert.equal(e.truncated, true);
  assert.equal(e.body, "é".repeat(RESPONSE_BODY_BYTES / 2));
  assert.equal(e.headers["x-a"], "1");
  assert.equal(e.headers["set-cookie"], "[not kept]");
  assert.equal(e.headers["x-big"].length, 256);
  const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, "v".repeat(100)]));
  const capped = excerptOf(many, [], 0);
  assert.equal(capped.headers_truncated, true);
  const size = Object.entries(capped.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
  assert.ok(size <= RESPONSE_HEADER_CHARS);
  assert.deepEqual(excerptOf({}, [bytes("ok")], 2), { body: "ok", truncated: false, headers: {} });
});

Deno.test("a delivery with every attempt answered at the caps stays under KV's 64 KiB", () => {
  const url = `https://${"h".repeat(60)}.example/${"p".repeat(1980)}`;
  let d: Delivery = {
    id: "evt_x",
    timer_id: "tmr_x",
    account_id: "acct_x",
    url,
    endpoint_id: "we_x",
    payload: {
      id: "evt_x",
      event: "timer.completed",
      timestamp: new Date(0).toISOString(),
      timer_id: "tmr_x",
      title: "界".repeat(100),
      type: "countdown",
      data: { state: "completed", duration: 60 },
    },
    state: "pending",
    attempts: [],
    next_attempt_at: 0,
    created_at: 0,
  };
  // Two-byte characters and the longest headers: the worst a receiver can answer.
  const headers = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x-${i}`, "ü".repeat(300)]));
  for (let i = 0; i < MAX_ATTEMPTS_KEPT + 5; i++) {
    const response = excerptOf(headers, [bytes("界".repeat(2000))], 6000);
    const error = "e".repeat(MAX_ERROR_CHARS + 50);
    d = afterAttempt({ ...d, last_try: false }, { ok: false, status: 500, error, duration_ms: 1, response }, 0, 0, [
      ...Array(100).fill(1),
    ]);
  }
  assert.equal(d.attempts.length, MAX_ATTEMPTS_KEPT);
  assert.ok(d.attempts.at(-1)!.response, "the newest attempt keeps its answer");
  const size = serialize(d).byteLength;
  assert.ok(size < 60_000, `${size} bytes`);
});

Deno.test("small answers are kept for every attempt; large ones for the newest", () => {
  const small = excerptOf({ "x-a": "1" }, [bytes("ok")], 2);
  const big = excerptOf({}, [bytes("x".repeat(3000))], 3000);
  const kept = keepResponses([1, 2, 3].map((n) => ({ n, response: small })));
  assert.ok(kept.every((a) => a.response));
  const large = keepResponses([1, 2, 3, 4, 5].map((n) => ({ n, response: big })));
  assert.deepEqual(large.map((a) => a.response !== undefined), [false, true, true, true, true]);
});
