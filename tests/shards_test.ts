/**
 * Schedulers sharing one KV divide the due work by shard (lib/webhooks/shards.ts): each steps only
 * the entries of the shards it holds, every timer completes exactly once, and a newcomer arms the
 * shards it gains. Test clock for the timers; heartbeats and rounds by hand or on their interval.
 */
import assert from "node:assert/strict";
import { receiver, setup } from "./helpers.ts";
import { Scheduler } from "../lib/webhooks/scheduler.ts";
import { shardOf } from "../lib/webhooks/shards.ts";
import type { DueEntry } from "../lib/kv/store.ts";
import { claim } from "../lib/webhooks/delivery_model.ts";

type World = Awaited<ReturnType<typeof setup>>;

/** Timers of `duration` s started through the API, their webhooks to `url`; the app's own scheduler then stopped. */
async function startedTimers(s: World, n: number, rx: ReturnType<typeof receiver>, duration = 60) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = await s.create({ type: "countdown", duration, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    ids.push(t.timer_id);
  }
  // Its timer.started webhooks go out; from now on only the sharing schedulers act.
  await rx.waitFor(n);
  await s.app.scheduler.settled();
  await s.app.scheduler.stop();
  return ids;
}

/** A scheduler of another instance on the same KV, sharing the work, recording the timers it steps. */
function sharing(s: World, mono?: () => number) {
  const scheduler = new Scheduler({ store: s.store, config: s.config, now: s.clock.now, mono, sharing: "shared" });
  const stepped: string[] = [];
  const run = scheduler.steps.run.bind(scheduler.steps);
  scheduler.steps.run = (entries: DueEntry[]) => {
    for (const e of entries) if (e.item.kind === "timer") stepped.push(e.item.ref);
    return run(entries);
  };
  return { scheduler, stepped };
}

type Sharing = ReturnType<typeof sharing>;

/** Rounds of heartbeats and shard leases, by hand, until the shards are divided. */
async function divide(all: Sharing[]) {
  for (let i = 0; i < 6; i++) {
    for (const { scheduler: x } of all) {
      await x.deps.store.timers.beat(x.instance, x.lease.nextBeat());
      await x.rebalance(false);
    }
  }
}

const completed = (rx: ReturnType<typeof receiver>) =>
  rx.received.filter((r) => r.json.event === "timer.completed").map((r) => r.json.timer_id as string);

/** Each timer stepped by one scheduler only, the one holding its shard, and completed exactly once. */
function assertDivided(all: Sharing[], ids: string[], rx: ReturnType<typeof receiver>) {
  const done = completed(rx).sort();
  assert.deepEqual(done, [...ids].sort(), "every timer completed exactly once");
  const by = new Map<string, number>();
  all.forEach(({ scheduler, stepped }, n) => {
    const held = new Set(scheduler.shards.held);
    for (const ref of stepped) {
      assert.ok(held.has(shardOf(ref)), `scheduler ${n} stepped ${ref} of a shard it does not hold`);
      const other = by.get(ref);
      assert.ok(other === undefined || other === n, `${ref} stepped by schedulers ${other} and ${n}`);
      by.set(ref, n);
    }
  });
  assert.deepEqual([...by.keys()].sort(), [...ids].sort(), "every timer stepped");
}

for (const n of [2, 3]) {
  Deno.test(`${n} schedulers on one KV each take about 32/${n} shards and step only their own timers`, async () => {
    const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
    const rx = receiver();
    const all = Array.from({ length: n }, () => sharing(s, () => 0));
    try {
      const ids = await startedTimers(s, 40, rx);
      await divide(all);
      const counts = all.map((x) => x.scheduler.shards.held.length);
      assert.equal(counts.reduce((a, b) => a + b), 32);
      for (const c of counts) assert.ok(c >= Math.floor(32 / n) && c <= Math.ceil(32 / n), `${counts}`);
      s.clock.advance(61_000);
      // Every one of them sweeps everything overdue: each takes only its shards.
      await Promise.all(all.map((x) => x.scheduler.sweep(true)));
      for (const x of all) await x.scheduler.settled();
      await rx.waitFor(80);
      for (const x of all) await x.scheduler.settled();
      assertDivided(all, ids, rx);
      for (const x of all) assert.ok(x.stepped.length > 0, "each stepped some");
    } finally {
      for (const x of all) await x.scheduler.stop();
      await s.close();
      await rx.close();
    }
  });
}

Deno.test("started schedulers: a newcomer gets its share and arms it; the old holder stops stepping it", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const a = sharing(s), b = sharing(s);
  try {
    const ids = await startedTimers(s, 40, rx);
    a.scheduler.start();
    for (let i = 0; a.scheduler.shards.held.length < 32; i++) {
      assert.ok(i < 100, "a alone takes every shard");
      await new Promise((r) => setTimeout(r, 50));
    }
    // b joins: within a few heartbeats a lets 16 go and b claims them, arming their deadlines.
    b.scheduler.start();
    for (let i = 0; b.scheduler.shards.held.length < 16 || a.scheduler.shards.held.length > 16; i++) {
      assert.ok(i < 200, `shards: a ${a.scheduler.shards.held.length}, b ${b.scheduler.shards.held.length}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await b.scheduler.settled();
    assert.ok(b.scheduler.armed > 0, "b armed the deadlines of the shards it gained");
    s.clock.advance(61_000);
    await Promise.all([a.scheduler.settled(), b.scheduler.settled()]);
    await rx.waitFor(80);
    await Promise.all([a.scheduler.settled(), b.scheduler.settled()]);
    assertDivided([a, b], ids, rx);
  } finally {
    await a.scheduler.stop();
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("alone on its KV (the file's lock), a restarted process takes a dead one's claims over at once", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const gate = Promise.withResolvers<void>();
  const rx = receiver(async () => {
    await gate.promise;
    return new Response("ok");
  });
  s.app.scheduler.start();
  // Same KV, no time passing on their monotonic clocks: only `alone` tells them the claimer is gone.
  const shared = new Scheduler({ store: s.store, config: s.config, now: s.clock.now, mono: () => 0 });
  const alone = new Scheduler({ store: s.store, config: s.config, now: s.clock.now, mono: () => 0, sharing: "alone" });
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1); // timer.started is in flight, claimed by the app's scheduler (as if killed now)
    await shared.takeOver();
    await shared.takeOver();
    assert.equal(rx.received.length, 1, "sharing the KV, a claimer just seen is not gone");
    await alone.takeOver();
    await rx.waitFor(2);
    assert.equal(rx.received[1].json.id, rx.received[0].json.id, "the same delivery, taken over");
  } finally {
    gate.resolve();
    await s.app.scheduler.settled();
    for (const x of [shared, alone]) await x.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("a claim run out in a shard its claimer no longer holds is sent by its live claimer, never by the holder", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const a = sharing(s, () => 0), b = sharing(s, () => 0);
  try {
    await s.app.scheduler.stop(); // the deliveries stay pending: only a and b act
    await divide([a, b]);
    // A timer of one of b's shards whose timer.started a claimed — a commit whose answer it lost
    // (the KV restarting), so never handed to its pool — before the shard moved to b.
    let timerId = "";
    while (!b.scheduler.shards.held.includes(shardOf(timerId))) {
      const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
      await s.act(t.timer_id, "start");
      timerId = t.timer_id;
    }
    const [entry] = await s.store.deliveries.deliveryLog(timerId);
    const now = s.clock.now();
    const claimed = claim(entry.delivery, now + a.scheduler.lease.leaseMs, a.scheduler.instance);
    await s.store.deliveries.commitDeliveries(
      [{ versionstamp: entry.versionstamp, prev: entry.delivery, next: claimed }],
      now,
      false,
    );
    s.clock.advance(a.scheduler.lease.leaseMs + 1_000);
    await s.store.timers.beat(a.scheduler.instance, a.scheduler.lease.nextBeat()); // a lives
    await b.scheduler.sweep(true);
    await b.scheduler.settled();
    assert.ok(
      !rx.received.some((r) => r.json.id === entry.delivery.id),
      "the shard's holder leaves a live claimer's claim",
    );
    await a.scheduler.sweep(true);
    await a.scheduler.settled();
    assert.equal(rx.received.filter((r) => r.json.id === entry.delivery.id).length, 1);
  } finally {
    for (const x of [a, b]) await x.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("an instance that steps every entry itself (a Deploy isolate) is not counted: the sharing one holds every shard", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const isolate = new Scheduler({ store: s.store, config: s.config, now: s.clock.now, mono: () => 0 });
  const a = sharing(s, () => 0);
  try {
    await s.app.scheduler.stop();
    assert.ok(isolate.shards.all);
    for (let i = 0; i < 4; i++) {
      await isolate.beat();
      await a.scheduler.beat();
      await a.scheduler.rebalance(false);
    }
    assert.equal(a.scheduler.shards.held.length, 32, "no shard left to an instance that holds none");
  } finally {
    for (const x of [isolate, a.scheduler]) await x.stop();
    await s.close();
  }
});
