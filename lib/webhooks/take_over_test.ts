/**
 * A killed instance leaves many claims that run out together: another instance's sweep reads them,
 * their deliveries and their claimers' heartbeats in bulk, and takes them over in few commits once
 * the claimer is certainly gone — never while it may live.
 */
import assert from "node:assert/strict";
import { key } from "../kv/keys.ts";
import { receiver, setup } from "../../tests/helpers.ts";
import { claim } from "./delivery_model.ts";
import { Scheduler } from "./scheduler.ts";
import { loseTimerChangeAnswers } from "../../tests/lost_answers.ts";

const TIMERS = 120;

Deno.test("a gone instance's claims that ran out are taken over in bulk: one heartbeat read a page, each sent once", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const mono = { t: 0 };
  const b = new Scheduler({ store: s.store, config: s.config, now: s.clock.now, mono: () => mono.t });
  try {
    // Written unclaimed (this app's scheduler stopped), then claimed by an instance that dies at once.
    await s.app.scheduler.stop();
    const made = [];
    for (let i = 0; i < TIMERS; i++) {
      const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url }, s.enterprise.apiKey);
      await s.act(t.timer_id, "start", s.enterprise.apiKey);
      made.push(t.timer_id);
    }
    const now = s.clock.now();
    const entries = (await Promise.all(made.map((id) => s.store.deliveries.deliveryLog(id)))).flat();
    assert.equal(entries.length, TIMERS);
    const claimed = await s.store.deliveries.commitDeliveries(
      entries.map((e) => ({
        versionstamp: e.versionstamp,
        prev: e.delivery,
        next: claim(e.delivery, now + b.lease.leaseMs, "ghost"),
      })),
      now,
      false,
    );
    assert.equal(claimed.filter(Boolean).length, TIMERS);
    await s.kv.set(key.instance("ghost"), 1);

    const timers = s.store.timers;
    const heartbeats = timers.heartbeats.bind(timers);
    let beatReads = 0;
    timers.heartbeats = (instances) => (beatReads++, heartbeats(instances));
    const deliveries = s.store.deliveries;
    const getDelivery = deliveries.getDelivery.bind(deliveries);
    let singleReads = 0;
    deliveries.getDelivery = (timerId, id) => (singleReads++, getDelivery(timerId, id));

    // The claims ran out; their claimer is silent, but not yet for long enough: nothing is taken.
    s.clock.advance(b.lease.leaseMs + 1_000);
    await b.sweep();
    await b.settled();
    assert.equal(rx.received.length, 0, "a claimer that may live keeps its claims");
    assert.ok(beatReads >= 1 && beatReads <= 2, `${beatReads} heartbeat reads for ${TIMERS} claims`);

    // Silent past the liveness bound: certainly gone. One sweep takes every claim over.
    beatReads = 0;
    mono.t += b.lease.deadAfterMs + 1;
    await b.sweep();
    await b.settled();
    await rx.waitFor(TIMERS);
    assert.ok(beatReads >= 1 && beatReads <= 2, `${beatReads} heartbeat reads for ${TIMERS} claims`);
    assert.equal(singleReads, 0, "deliveries read together, not one by one");
    const sent = rx.received.map((r) => r.json.id as string);
    assert.equal(new Set(sent).size, TIMERS, "each sent once");

    // Another sweep later finds nothing left to send.
    s.clock.advance(b.lease.leaseMs + 1_000);
    mono.t += b.lease.deadAfterMs + 1;
    await b.sweep();
    await b.settled();
    assert.equal(rx.received.length, TIMERS);
    const states = (await Promise.all(made.map((id) => s.store.deliveries.deliveryLog(id)))).flat();
    assert.ok(states.every((e) => e.delivery.state === "succeeded"));
  } finally {
    await b.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("a due entry whose delivery moved on is tidied by the sweep, and the delivery sent once from its own", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    const [entry] = await s.store.deliveries.deliveryLog(t.timer_id);
    const at = entry.delivery.next_attempt_at!;
    // An entry an older version left behind: due earlier, its record gone, with a claimer's mark.
    const stale = key.dueAt(at - 5_000, "delivery");
    await s.kv.set([...stale, `${t.timer_id}/${entry.delivery.id}`], { kind: "delivery", by: "ghost" });
    s.app.scheduler.start();
    await rx.waitFor(1);
    await s.app.scheduler.settled();
    // Its delivery's attempt held here meanwhile, the entry waits for a sweep after it.
    await s.app.scheduler.sweep(true);
    const left = await Array.fromAsync(s.kv.list({ prefix: stale }));
    assert.equal(left.length, 0, "the stale entry is deleted");
    assert.equal(rx.received.length, 1);
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("a commit that landed though its answer said otherwise (lost, tried again) sends what it bore at once", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  // The KV applies the next commit of a timer change but answers that its check failed, once armed.
  const lost = loseTimerChangeAnswers(s);
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 5, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1);
    await s.app.scheduler.settled();
    lost.lose = 1;
    s.clock.advance(5_000); // the completion's commit lands, its answer lost
    await s.app.scheduler.sweep(true);
    await rx.waitFor(2);
    await s.app.scheduler.settled();
    assert.equal(lost.lose, 0, "the completion's answer was lost");
    assert.deepEqual(rx.received.map((r) => r.json.event), ["timer.started", "timer.completed"]);
    const log = await s.store.deliveries.deliveryLog(t.timer_id);
    assert.ok(log.every((e) => e.delivery.state === "succeeded"));
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("a commit that landed though refused, its claims run out meanwhile, leaves them to the sweep: claimed there at once, they are sent once", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const scheduler = s.app.scheduler;
  // The KV applies the completion's commit but its answer is lost and comes later than a lease:
  // the claim it made ran out, and a sweep of this process takes it up meanwhile, its claim
  // landing while the refused commit's deliveries are being read.
  let gateNext = false;
  const gate = Promise.withResolvers<void>(), reached = Promise.withResolvers<void>();
  let sweeping: Promise<void> | null = null;
  let timerId = "";
  const lost = loseTimerChangeAnswers(s, {
    hold() {
      if (!gateNext) return null;
      gateNext = false;
      reached.resolve();
      return gate.promise;
    },
    async meanwhile() {
      s.clock.advance(scheduler.lease.leaseMs + 1_000);
      const [e] = (await s.store.deliveries.deliveryLog(timerId)).filter((e) => e.delivery.claimed);
      const d = e.delivery;
      const entry = {
        item: { at: d.next_attempt_at!, kind: "delivery" as const, ref: `${d.timer_id}/${d.id}` },
        value: { kind: "delivery" as const, by: d.claimed_by },
        versionstamp: e.versionstamp,
      };
      gateNext = true;
      sweeping = scheduler.sender.claims.stepAll([entry]);
      await reached.promise; // the sweep's claim is on its way
    },
    // The refused commit's deliveries were read and announced.
    answered: () => sweeping && gate.resolve(),
  });
  scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 5, webhook_url: rx.url });
    timerId = t.timer_id;
    await s.act(timerId, "start");
    await rx.waitFor(1);
    await scheduler.settled();
    lost.lose = 1;
    s.clock.advance(5_000); // the completion's commit lands, its answer lost
    await scheduler.sweep(true);
    await sweeping;
    await scheduler.settled();
    assert.equal(lost.lose, 0, "the completion's answer was lost");
    // Later sweeps find nothing more to send.
    s.clock.advance(scheduler.lease.leaseMs + 1_000);
    await scheduler.sweep(true);
    await scheduler.settled();
    assert.deepEqual(rx.received.map((r) => r.json.event), ["timer.started", "timer.completed"]);
    const log = await s.store.deliveries.deliveryLog(timerId);
    assert.ok(log.every((e) => e.delivery.state === "succeeded"));
  } finally {
    await s.close();
    await rx.close();
  }
});
