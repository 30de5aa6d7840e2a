/** Completions at the deadline: sent once they happen, never when withdrawn a moment before. */
import assert from "node:assert/strict";
import { receiver, setup } from "./helpers.ts";

async function running() {
  const s = await setup({
    realTime: true,
    config: { webhookRetryDelays: [0.2], webhookTimeoutMs: 500, sweepIntervalMs: 100 },
  });
  s.app.scheduler.start();
  return s;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const events = (r: ReturnType<typeof receiver>) => r.received.map((x) => x.json.event);

Deno.test("a completion is not in the delivery log before its deadline, and is after", async () => {
  const s = await running();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 1, webhook_url: rx.url });
  await s.act(t.timer_id, "start");
  await rx.waitFor(1);
  const before = (await s.call("GET", `/api/v1/timers/${t.timer_id}/deliveries`)).body.deliveries;
  assert.deepEqual(before.map((d: { event: string }) => d.event), ["timer.started"]);
  await rx.waitFor(2, 3000);
  await s.app.scheduler.settled();
  const after = (await s.call("GET", `/api/v1/timers/${t.timer_id}/deliveries`)).body.deliveries;
  assert.deepEqual(after.map((d: { event: string; state: string }) => `${d.event}:${d.state}`), [
    "timer.completed:succeeded",
    "timer.started:succeeded",
  ]);
  await s.close();
  await rx.close();
});

Deno.test("a pause a moment before the deadline withdraws the completion", async () => {
  const s = await running();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 2, webhook_url: rx.url });
  const start = await s.act(t.timer_id, "start");
  const deadline = Date.parse(start.body.started_at) + 2000;
  await sleep(Math.max(0, deadline - Date.now() - 400));
  const paused = await s.act(t.timer_id, "pause");
  // Past its deadline already (a stalled machine), the pause answers 409 and the completion stands:
  // either way the answer and the webhooks agree.
  const withdrawn = paused.status === 200;
  if (!withdrawn) assert.equal(paused.status, 409, JSON.stringify(paused.body));
  else assert.equal(paused.body.state, "paused", JSON.stringify(paused.body));
  // Well past the deadline by the real clock, with every wake-up of that instant done.
  await sleep(Math.max(0, deadline - Date.now() + 500));
  await s.app.scheduler.settled();
  if (!withdrawn) await rx.waitFor(2, 5000);
  assert.deepEqual(events(rx), withdrawn ? ["timer.started", "timer.paused"] : ["timer.started", "timer.completed"]);
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.state, withdrawn ? "paused" : "completed");
  await s.close();
  await rx.close();
});

Deno.test("an action just after the deadline answers 409: the timer completed", async () => {
  const s = await running();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 1, webhook_url: rx.url });
  const started = Date.now();
  await s.act(t.timer_id, "start");
  await sleep(Math.max(0, 1000 - (Date.now() - started) + 20));
  const r = await s.act(t.timer_id, "pause");
  assert.equal(r.status, 409, JSON.stringify(r.body));
  assert.match(r.body.error.message, /completed/);
  await rx.waitFor(2, 3000);
  await sleep(200);
  await s.app.scheduler.settled();
  assert.deepEqual(events(rx), ["timer.started", "timer.completed"]);
  await s.close();
  await rx.close();
});

Deno.test("changing webhook_url while running sends the completion to the new URL only", async () => {
  const s = await running();
  const a = receiver();
  const b = receiver();
  const t = await s.create({ type: "countdown", duration: 2, webhook_url: a.url });
  await s.act(t.timer_id, "start");
  await s.call("PATCH", `/api/v1/timers/${t.timer_id}`, { body: { webhook_url: b.url } });
  await b.waitFor(1, 5000);
  await a.waitFor(1);
  await s.app.scheduler.settled();
  assert.deepEqual(events(a), ["timer.started"]);
  assert.deepEqual(events(b), ["timer.completed"]);
  await s.close();
  await a.close();
  await b.close();
});

Deno.test("deleting a running timer withdraws its completion", async () => {
  const s = await running();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 3, webhook_url: rx.url });
  const start = await s.act(t.timer_id, "start");
  const deadline = Date.parse(start.body.started_at) + 3000;
  // timer.started first: a DELETE drops what is still queued for the timer, this one included.
  await rx.waitFor(1);
  assert.equal((await s.call("DELETE", `/api/v1/timers/${t.timer_id}`)).status, 200);
  assert.ok(Date.now() < deadline, "deleted before its deadline");
  // Well past the deadline by the real clock, with every wake-up of that instant done.
  await sleep(Math.max(0, deadline - Date.now() + 500));
  await s.app.scheduler.settled();
  assert.deepEqual(events(rx), ["timer.started"]);
  await s.close();
  await rx.close();
});
