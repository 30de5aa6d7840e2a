/**
 * The account's logs on the real app with real receivers on 127.0.0.1: each attempt's status,
 * duration and the receiver's answer (body capped at 2 KB, headers); the account-wide delivery
 * log and its filters; redelivery of any delivery with the same id; the API request log.
 */
import assert from "node:assert/strict";
import { advance, clocked, receiver, setup } from "./helpers.ts";
import { REQUEST_LOG_SIZE } from "../lib/accounts/request_log.ts";
import { DEFAULT_PLANS } from "../config.ts";
import { readRequests } from "../lib/kv/request_log.ts";
import { DELIVERY_LOG_KEEP } from "../lib/webhooks/delivery_model.ts";
import { LogTrimmer } from "../lib/webhooks/log_trim.ts";
import { newEventId } from "../lib/ids.ts";

type S = Awaited<ReturnType<typeof clocked>>;

/** Reads the account-wide log until `ok` holds for it (deliveries are recorded after they are sent). */
async function logUntil(s: S, query: string, ok: (ds: Delivery[]) => boolean): Promise<Delivery[]> {
  for (let i = 0; i < 200; i++) {
    const r = await s.call("GET", `/api/v1/deliveries${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (ok(r.body.deliveries)) return r.body.deliveries;
    await s.app.scheduler.settled();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the log never matched for ${query}`);
}

interface Delivery {
  id: string;
  event: string;
  state: string;
  payload: { timer_id: string; id: string };
  attempts: {
    n: number;
    status: number | null;
    duration_ms: number;
    response?: { body: string; truncated: boolean; headers: Record<string, string> };
  }[];
}

const API = "/api/v1/webhook_endpoints";

Deno.test("each attempt keeps status, duration, the answer's headers and its body capped at 2 KB; the account log filters; a succeeded delivery redelivered arrives again with its id", async () => {
  const s = await clocked();
  // 3 000 bytes, ending in characters of two bytes: the cut at 2 048 must not leave half of one.
  const long = "a".repeat(2047) + "é".repeat(500);
  const rx = receiver(() =>
    new Response(`<script>alert(1)</script>${long}`, {
      status: 200,
      headers: { "x-receiver": "kept", "set-cookie": "session=theirs", "content-type": "text/html" },
    })
  );
  const failing = receiver(() => new Response("down for maintenance", { status: 503 }));
  await s.call("POST", API, { body: { url: rx.url, events: ["timer.completed"] } });
  const quiet = await s.create({ type: "countdown", duration: 60 });
  const hooked = await s.create({ type: "countdown", duration: 600, webhook_url: failing.url });
  await s.act(quiet.timer_id, "start");
  await s.act(hooked.timer_id, "start");
  await advance(s, 61_000);
  await rx.waitFor(1);
  await failing.waitFor(1);

  const completed = await logUntil(s, "?event=timer.completed", (ds) => ds[0]?.state === "succeeded");
  assert.equal(completed.length, 1);
  const [a] = completed[0].attempts;
  assert.equal(a.status, 200);
  assert.ok(a.duration_ms >= 0 && Number.isInteger(a.duration_ms));
  assert.equal(a.response!.truncated, true);
  assert.ok(new TextEncoder().encode(a.response!.body).length <= 2048);
  assert.ok(a.response!.body.startsWith("<script>alert(1)</script>aaa"), "the body as sent, as text");
  assert.ok(!a.response!.body.includes("\ufffd"), "no half character at the cut");
  assert.equal(a.response!.headers["x-receiver"], "kept");
  assert.equal(a.response!.headers["set-cookie"], "[not kept]");
  assert.equal(completed[0].payload.timer_id, quiet.timer_id);

  // The failing receiver's answer is kept too, with its status.
  const failed = await logUntil(s, `?timer_id=${hooked.timer_id}`, (ds) => ds[0]?.attempts.length > 0);
  assert.deepEqual(failed.map((d) => d.event), ["timer.started"]);
  assert.equal(failed[0].attempts[0].status, 503);
  assert.equal(failed[0].attempts[0].response!.body, "down for maintenance");

  // Filters: by timer, event type and state; all of them together.
  const all = (await s.call("GET", "/api/v1/deliveries")).body.deliveries as Delivery[];
  assert.deepEqual(all.map((d) => d.event).sort(), ["timer.completed", "timer.started"]);
  assert.deepEqual(
    (await s.call("GET", `/api/v1/deliveries?timer_id=${quiet.timer_id}`)).body.deliveries.map((d: Delivery) => d.id),
    [completed[0].id],
  );
  assert.deepEqual(
    (await s.call("GET", "/api/v1/deliveries?status=succeeded")).body.deliveries.map((d: Delivery) => d.id),
    [completed[0].id],
  );
  const none = await s.call("GET", `/api/v1/deliveries?status=succeeded&timer_id=${hooked.timer_id}`);
  assert.deepEqual(none.body, { deliveries: [], next_cursor: null });
  assert.equal((await s.call("GET", "/api/v1/deliveries?status=nope")).status, 400);
  assert.equal((await s.call("GET", "/api/v1/deliveries?cursor=t.x")).status, 400);
  // Another account sees none of them, and cannot redeliver them.
  assert.deepEqual((await s.call("GET", "/api/v1/deliveries", { key: s.other.apiKey })).body.deliveries, []);
  const foreign = await s.call("POST", `/api/v1/deliveries/${completed[0].id}/redeliver`, { key: s.other.apiKey });
  assert.equal(foreign.status, 404);

  // Redelivering the succeeded one: it arrives again, with the same id (receivers dedupe on it).
  const again = await s.call("POST", `/api/v1/deliveries/${completed[0].id}/redeliver`);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.state, "pending");
  await advance(s, 0);
  await rx.waitFor(2);
  assert.equal(rx.received[1].json.id, completed[0].id);
  assert.equal(rx.received[1].headers.get("webhook-id"), completed[0].id);
  const twice = await logUntil(s, `?timer_id=${quiet.timer_id}`, (ds) => ds[0]?.attempts.length === 2);
  assert.equal(twice[0].state, "succeeded");
  assert.deepEqual(twice[0].attempts.map((x) => x.status), [200, 200]);
  await rx.close();
  await failing.close();
  await s.close();
});

Deno.test("the account log pages newest first, and a timer's delete takes its deliveries out of it", async () => {
  const s = await clocked();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
  for (const action of ["start", "pause", "resume", "pause", "resume", "pause"]) {
    assert.equal((await s.act(t.timer_id, action)).status, 200);
  }
  await advance(s, 1000);
  await rx.waitFor(6);
  const first = await s.call("GET", "/api/v1/deliveries?limit=4");
  assert.equal(first.body.deliveries.length, 4);
  const rest = await s.call("GET", `/api/v1/deliveries?limit=4&cursor=${encodeURIComponent(first.body.next_cursor)}`);
  const ids = [...first.body.deliveries, ...rest.body.deliveries].map((d: Delivery) => d.id);
  assert.equal(ids.length, 6);
  assert.deepEqual(ids, [...ids].sort().reverse(), "newest first");
  assert.equal(rest.body.next_cursor, null);
  assert.equal((await s.call("DELETE", `/api/v1/timers/${t.timer_id}`)).status, 200);
  assert.deepEqual((await s.call("GET", "/api/v1/deliveries")).body.deliveries, []);
  let left = 0;
  for await (const _ of s.kv.list({ prefix: ["acct_delivery"] })) left++;
  assert.equal(left, 0, "no index entry outlives its delivery");
  await rx.close();
  await s.close();
});

Deno.test("the request log records a 422 with its request id and never a secret; a bad key is not logged", async () => {
  const s = await setup();
  const bad = await s.call("POST", "/api/v1/timers", {
    body: { type: "countdown", duration: 0 },
    headers: { "x-request-id": "req-422-lookup" },
  });
  assert.equal(bad.status, 422);
  const t = await s.create({ type: "countdown", duration: 60 });
  // A control token acts for the timer's account; a query carrying a secret is redacted.
  const token = new URL(t.control_url).hash.slice(1);
  assert.equal((await s.act(t.timer_id, "start", token)).status, 200);
  await s.call("GET", `/api/v1/timers?limit=5&token=${token}&api_key=${s.pro.apiKey}`);
  await s.call("GET", "/api/v1/timers", { key: "tsk_" + "x".repeat(32) });

  const page = await s.call("GET", "/api/v1/requests?status=422");
  assert.equal(page.status, 200);
  assert.equal(page.body.requests.length, 1);
  const r = page.body.requests[0];
  assert.deepEqual([r.method, r.path, r.status, r.request_id], ["POST", "/api/v1/timers", 422, "req-422-lookup"]);
  assert.equal(r.key_prefix, s.pro.apiKey.slice(0, r.key_prefix.length));
  assert.ok(r.key_prefix.length >= 6 && r.key_prefix.length < 16, r.key_prefix);
  assert.ok(typeof r.duration_ms === "number");
  assert.deepEqual((await s.call("GET", "/api/v1/requests?request_id=req-422-lookup")).body.requests, [r]);

  const everything = (await s.call("GET", "/api/v1/requests?limit=100")).body.requests;
  const text = JSON.stringify(everything);
  assert.ok(!text.includes(token) && !text.includes(s.pro.apiKey), "no control token, no key");
  const control = everything.find((x: { path: string }) => x.path === `/api/v1/timers/${t.timer_id}/state`);
  assert.equal(control.key_prefix, null, "the control token's request is the timer account's");
  assert.ok(
    everything.some((x: { path: string }) => x.path === "/api/v1/timers?limit=5&token=redacted&api_key=redacted"),
  );
  assert.ok(!everything.some((x: { status: number }) => x.status === 401), "a bad key belongs to no account");
  // Another account's log holds none of these (its own first request is written after its answer).
  assert.deepEqual((await s.call("GET", "/api/v1/requests", { key: s.other.apiKey })).body.requests, []);
  assert.equal((await s.call("GET", "/api/v1/requests?status=abc")).status, 400);
  await s.close();
});

Deno.test("redeliveries are budgeted per account: the 61st in a minute answers 429 with Retry-After", async () => {
  const s = await setup();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
  assert.equal((await s.act(t.timer_id, "start")).status, 200);
  // Each asks for one more attempt (200), or finds one under way (409): both count.
  const [d] = (await s.call("GET", "/api/v1/deliveries")).body.deliveries;
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) {
    const path = i % 2
      ? `/api/v1/deliveries/${d.id}/redeliver`
      : `/api/v1/timers/${t.timer_id}/deliveries/${d.id}/redeliver`;
    statuses.push((await s.call("POST", path)).status);
  }
  assert.ok(statuses.every((x) => x === 200 || x === 409), String(statuses));
  assert.ok(statuses.includes(200));
  const last = await s.call("POST", `/api/v1/deliveries/${d.id}/redeliver`);
  assert.equal(last.status, 429);
  assert.ok(Number(last.headers.get("retry-after")) > 0);
  assert.match(last.body.error.message, /60 redeliveries a minute/);
  await rx.close();
  await s.close();
});

Deno.test("a request refused with 429 is not logged: the rate limit bounds the log's writes", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro.per_minute = 3;
  const s = await setup({ config: { plans } });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await s.call("GET", "/api/v1/timers")).status);
  assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
  await s.app.requestLog.flush();
  const logged = await readRequests(s.kv, s.pro.account.id);
  assert.deepEqual(logged.map((r) => r.status), [200, 200, 200]);
  await s.close();
});

Deno.test("the request log keeps the newest 1 000 requests of an account", async () => {
  const s = await setup();
  for (let i = 0; i < REQUEST_LOG_SIZE + 30; i++) {
    await s.call("GET", `/api/v1/timers/tmr_${String(i).padStart(16, "0")}`);
  }
  await s.app.requestLog.flush();
  const all = await readRequests(s.kv, s.pro.account.id);
  assert.equal(all.length, REQUEST_LOG_SIZE);
  assert.equal(all[0].path, `/api/v1/timers/tmr_${String(REQUEST_LOG_SIZE + 29).padStart(16, "0")}`);
  assert.equal(all.at(-1)!.path, `/api/v1/timers/tmr_${String(30).padStart(16, "0")}`);
  let keys = 0;
  for await (const _ of s.kv.list({ prefix: ["api_request", s.pro.account.id] })) keys++;
  assert.equal(keys, REQUEST_LOG_SIZE);
  await s.close();
});

Deno.test("the account log is trimmed with the timers' logs: past the bound, the oldest go from both", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60, webhook_url: "https://example.com/h" });
  const ids: string[] = [];
  for (let i = 0; i < DELIVERY_LOG_KEEP + 30; i++) {
    const id = newEventId(s.clock.now() + i);
    ids.push(id);
    const payload = {
      id,
      event: "timer.started",
      timestamp: new Date(s.clock.now()).toISOString(),
      timer_id: t.timer_id,
      title: null,
      type: "countdown" as const,
      data: {},
    };
    assert.ok(
      await s.store.putDelivery({
        id,
        timer_id: t.timer_id,
        account_id: s.pro.account.id,
        url: "https://example.com/h",
        payload,
        state: "succeeded",
        attempts: [],
        next_attempt_at: null,
        created_at: s.clock.now() + i,
      }),
    );
  }
  assert.equal(await new LogTrimmer(s.store, () => {}).trim(t.timer_id), 30);
  const indexed = (await Array.fromAsync(s.kv.list({ prefix: ["acct_delivery", s.pro.account.id] })))
    .map((e) => e.key[2]);
  assert.deepEqual(indexed, ids.slice(30), "the index holds exactly the deliveries kept");
  await s.close();
});
