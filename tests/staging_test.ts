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
  const t = await s.create({ type: "countdown", duration: 1, webhook_url: rx.url });
  const started = Date.now();
  await s.act(t.timer_id, "start");
  await sleep(Math.max(0, 1000 - (Date.now() - started) - 250));
  const paused = await s.act(t.timer_id, "pause");
  assert.equal(paused.body.state, "paused", JSON.stringify(paused.body));
  await sleep(800);
  await s.app.scheduler.settled();
  assert.deepEqual(events(rx), ["timer.started", "timer.paused"]);
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.state, "paused");
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
  const t = await s.create({ type: "countdown", duration: 1, webhook_url: a.url });
  await s.act(t.timer_id, "start");
  await s.call("PATCH", `/api/v1/timers/${t.timer_id}`, { body: { webhook_url: b.url } });
  await b.waitFor(1, 3000);
  await sleep(200);
  assert.deepEqual(events(a), ["timer.started"]);
  assert.deepEqual(events(b), ["timer.completed"]);
  await s.close();
  await a.close();
  await b.close();
});

Deno.test("deleting a running timer withdraws its completion", async () => {
  const s = await running();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 1, webhook_url: rx.url });
  await s.act(t.timer_id, "start");
  await sleep(500);
  await s.call("DELETE", `/api/v1/timers/${t.timer_id}`);
  await sleep(900);
  await s.app.scheduler.settled();
  assert.deepEqual(events(rx), ["timer.started"]);
  await s.close();
  await rx.close();
});
