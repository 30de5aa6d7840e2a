/**
 * Order under failure: a timer's later delivery is not sent while an earlier one was never tried,
 * so a crash delays later events instead of reordering them; a failing receiver delays them by one
 * attempt only. On the test clock and an injected monotonic clock.
 */
import assert from "node:assert/strict";
import { key } from "../kv/keys.ts";
import { receiver, setup } from "../../tests/helpers.ts";
import { claim } from "./delivery_model.ts";
import { ORDER_HOLD_MS } from "./order.ts";
import { Scheduler } from "./scheduler.ts";

/** Another scheduler on the same KV (another process), its silence timed on `mono`. */
function otherProcess(s: Awaited<ReturnType<typeof setup>>) {
  const mono = { t: 0 };
  const scheduler = new Scheduler({ store: s.store, config: s.config, now: s.clock.now, mono: () => mono.t });
  return { scheduler, mono };
}

const events = (rx: ReturnType<typeof receiver>) => rx.received.map((r) => r.json.event as string);

Deno.test("a timer.started claimed by a dead process and a later timer.completed arrive in order after the take-over", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const b = otherProcess(s);
  try {
    s.app.timers.link = undefined; // this process only writes: the other one sends
    // Written unclaimed, then claimed by an instance that dies at once.
    const t = await s.create({ type: "countdown", duration: 60, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    const [started] = await s.store.deliveries.deliveryLog(t.timer_id);
    const now = s.clock.now();
    const ghost = claim(started.delivery, now + b.scheduler.lease.leaseMs, "ghost");
    await s.store.deliveries.commitDeliveries(
      [{ versionstamp: started.versionstamp, prev: started.delivery, next: ghost }],
      now,
      false,
    );
    await s.kv.set(key.instance("ghost"), 7);
    // The countdown ends: the live process steps it, and timer.completed is born due at once.
    s.clock.advance(60_000);
    await b.scheduler.sweep();
    await b.scheduler.settled();
    assert.equal(rx.received.length, 0, "timer.completed waits while timer.started is the ghost's");
    const log = await s.store.deliveries.deliveryLog(t.timer_id);
    const completed = log.find((e) => e.delivery.payload.event === "timer.completed")!;
    assert.equal(completed.delivery.after, started.delivery.id, "the completion names the start before it");
    assert.equal(completed.delivery.state, "pending");
    assert.equal(completed.delivery.attempts.length, 0, "held back, not tried");
    // Still held back a hold later: the ghost's claim has not been taken over yet.
    s.clock.advance(ORDER_HOLD_MS);
    await b.scheduler.sweep();
    await b.scheduler.settled();
    assert.equal(rx.received.length, 0, "nothing goes while the ghost may be alive");
    // The ghost's heartbeat stands still past the bound: its claim is taken over and sent...
    b.mono.t += b.scheduler.lease.deadAfterMs + 1;
    await b.scheduler.sweep();
    await b.scheduler.settled();
    assert.deepEqual(events(rx), ["timer.started"]);
    // ...and the completion follows at its next look, after it.
    s.clock.advance(ORDER_HOLD_MS);
    await b.scheduler.settled();
    await rx.waitFor(2);
    assert.deepEqual(events(rx), ["timer.started", "timer.completed"]);
    assert.deepEqual(rx.received.map((r) => r.json.id), [started.delivery.id, completed.delivery.id]);
  } finally {
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("deliveries held back behind one another are looked at again together, and go in one wake-up, in order", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const b = otherProcess(s);
  try {
    s.app.timers.link = undefined; // this process only writes: the other one sends
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    const [started] = await s.store.deliveries.deliveryLog(t.timer_id);
    const t0 = s.clock.now();
    const ghost = claim(started.delivery, t0 + b.scheduler.lease.leaseMs, "ghost");
    await s.store.deliveries.commitDeliveries(
      [{ versionstamp: started.versionstamp, prev: started.delivery, next: ghost }],
      t0,
      false,
    );
    await s.kv.set(key.instance("ghost"), 7);
    await b.scheduler.takeOver(); // the ghost's heartbeat seen once
    // timer.paused is held back behind the ghost's timer.started...
    await s.act(t.timer_id, "pause");
    await b.scheduler.sweep();
    await b.scheduler.settled();
    // ...and timer.resumed, 300 ms later, behind timer.paused: until the same instant, not 300 ms after it.
    s.clock.advance(300);
    await s.act(t.timer_id, "resume");
    await b.scheduler.sweep();
    await b.scheduler.settled();
    assert.equal(rx.received.length, 0);
    const held = (await s.store.deliveries.deliveryLog(t.timer_id)).filter((e) =>
      e.delivery.payload.event !== "timer.started"
    );
    assert.deepEqual(held.map((e) => e.delivery.next_attempt_at), [t0 + ORDER_HOLD_MS, t0 + ORDER_HOLD_MS]);
    // The ghost is certainly gone: its claim is taken over, and at the held instant the other two follow.
    b.mono.t += b.scheduler.lease.deadAfterMs + 1;
    await b.scheduler.takeOver();
    await b.scheduler.settled();
    assert.deepEqual(events(rx), ["timer.started"]);
    s.clock.advance(ORDER_HOLD_MS - 300);
    await b.scheduler.settled();
    assert.deepEqual(events(rx), ["timer.started", "timer.paused", "timer.resumed"]);
  } finally {
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("completions born together read the deliveries they come after in bulk, not one by one", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const b = otherProcess(s); // sends the starts
  const c = otherProcess(s); // a fresh process: steps the completions, knowing nothing of the starts
  try {
    s.app.timers.link = undefined;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const t = await s.create({ type: "countdown", duration: 60, webhook_url: rx.url });
      await s.act(t.timer_id, "start");
      ids.push(t.timer_id);
    }
    await b.scheduler.sweep();
    await b.scheduler.settled();
    assert.equal(rx.received.length, 12);
    const starts = new Set(rx.received.map((r) => `${r.json.timer_id}/${r.json.id}`));
    const store = s.store.deliveries;
    const single: string[] = [];
    const bulk: string[] = [];
    const getDelivery = store.getDelivery.bind(store);
    const getDeliveries = store.getDeliveries.bind(store);
    store.getDelivery = (timerId, id) => (single.push(`${timerId}/${id}`), getDelivery(timerId, id));
    store.getDeliveries = (refs) => (bulk.push(...refs), getDeliveries(refs));
    c.scheduler.start(); // completions are born claimed by it, in one commit
    s.clock.advance(60_000);
    await c.scheduler.sweep();
    await c.scheduler.settled();
    await rx.waitFor(24);
    assert.equal(rx.received.filter((r) => r.json.event === "timer.completed").length, 12);
    assert.deepEqual(single.filter((r) => starts.has(r)), [], "no start read one by one");
    assert.deepEqual(new Set(bulk.filter((r) => starts.has(r))), starts, "every start read in bulk");
  } finally {
    await b.scheduler.stop();
    await c.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("a failing receiver holds a timer's later events back by one attempt, not until its retries end", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  // The first POST fails (timer.started is retried later); the rest succeed.
  const rx = receiver((n) => new Response(n === 1 ? "down" : "ok", { status: n === 1 ? 500 : 200 }));
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1);
    await s.app.scheduler.settled();
    await s.act(t.timer_id, "pause");
    await rx.waitFor(2);
    assert.deepEqual(events(rx), ["timer.started", "timer.paused"]);
    const log = await s.store.deliveries.deliveryLog(t.timer_id);
    const first = log.find((e) => e.delivery.payload.event === "timer.started")!.delivery;
    assert.equal(first.state, "pending", "its retry is still to come (the clock has not moved)");
    assert.equal(first.attempts.length, 1);
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("a timer's events sent by one process follow each other without a hold: the outcome just recorded is known here", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const gate = Promise.withResolvers<void>();
  const rx = receiver(async (n) => {
    if (n === 1) await gate.promise;
    return new Response("ok");
  });
  // A slow KV: recording an outcome takes 50 ms, so the next attempt starts before it landed.
  const store = s.store.deliveries;
  const commit = store.commitDeliveries.bind(store);
  store.commitDeliveries = async (changes, now, ...rest) => {
    if (rest[0] !== false) await new Promise((r) => setTimeout(r, 50));
    return await commit(changes, now, ...rest);
  };
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1); // timer.started in flight; the pause is queued behind it
    await s.act(t.timer_id, "pause");
    await s.act(t.timer_id, "resume");
    gate.resolve();
    // The clock stands still: a delivery held back for ORDER_HOLD_MS would never arrive.
    await rx.waitFor(3);
    await s.app.scheduler.settled();
    assert.deepEqual(events(rx), ["timer.started", "timer.paused", "timer.resumed"]);
  } finally {
    gate.resolve();
    await s.close();
    await rx.close();
  }
});
