/**
 * Exactly once unless a crash: claims, take-over, outcomes recorded late and deletes, each on the
 * test clock and an injected monotonic clock, with a receiver that holds its answer until told.
 */
import assert from "node:assert/strict";
import { key } from "../kv/keys.ts";
import { receiver, setup } from "../../tests/helpers.ts";
import { claim } from "./delivery_model.ts";
import { Scheduler } from "./scheduler.ts";
import { clockDriven, PLAN_DAY_SPENT, testOutcome } from "./quota.ts";
import { DEFAULT_PLANS } from "../../config.ts";
import { Unrecorded } from "./unrecorded.ts";

/** A receiver whose answers wait for `release()`. */
function heldReceiver() {
  const gate = Promise.withResolvers<void>();
  const rx = receiver(async () => {
    await gate.promise;
    return new Response("ok");
  });
  return { rx, release: () => gate.resolve() };
}

/** Another scheduler on the same KV (another process), its silence timed on `mono`. */
function otherProcess(s: Awaited<ReturnType<typeof setup>>) {
  const mono = { t: 0 };
  const scheduler = new Scheduler({ store: s.store, config: s.config, now: s.clock.now, mono: () => mono.t });
  return { scheduler, mono };
}

const ids = (rx: ReturnType<typeof receiver>) => rx.received.map((r) => r.json.id as string);

Deno.test("a live instance is not taken over: an old-looking heartbeat and a clock past its lease send nothing twice", async () => {
  // No sweep of its own meanwhile: only the other process acts.
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const { rx, release } = heldReceiver();
  s.app.scheduler.start();
  const b = otherProcess(s);
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1); // timer.started is in flight, claimed by this process
    // Its heartbeat read 5 s old by the wall clock: no reason to think it gone.
    await s.kv.set(key.instance(s.app.scheduler.instance), Date.now() - 5_000);
    await b.scheduler.takeOver();
    b.mono.t += 5_000;
    await b.scheduler.takeOver();
    // The other machine's clock runs a whole lease ahead (a jump, or skew): the claim looks run out.
    s.clock.advance(s.app.scheduler.lease.leaseMs + 1_000);
    await b.scheduler.sweep();
    await b.scheduler.settled();
    release();
    await s.app.scheduler.settled();
    assert.deepEqual(ids(rx).length, 1, `sent ${rx.received.length} times`);
  } finally {
    release();
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("the claims of an instance whose heartbeat stood still longer than busy budget + lease are taken over once", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const b = otherProcess(s);
  try {
    // Written unclaimed (no scheduler runs here), then claimed by an instance that is about to die.
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    const [entry] = await s.store.deliveries.deliveryLog(t.timer_id);
    const now = s.clock.now();
    const ghost = claim(entry.delivery, now + b.scheduler.lease.leaseMs, "ghost");
    await s.store.deliveries.commitDeliveries(
      [{ versionstamp: entry.versionstamp, prev: entry.delivery, next: ghost }],
      now,
      false,
    );
    await s.kv.set(key.instance("ghost"), 7);
    const step = async (ms: number) => {
      b.mono.t += ms;
      await b.scheduler.takeOver();
      await b.scheduler.settled();
    };
    await step(0);
    await step(b.scheduler.lease.deadAfterMs - 1);
    assert.equal(rx.received.length, 0, "silent, but not yet for long enough");
    await s.kv.set(key.instance("ghost"), 8); // it beat once more: alive after all
    await step(1);
    await step(b.scheduler.lease.deadAfterMs);
    assert.equal(rx.received.length, 0, "a changed counter starts the silence over");
    await step(1);
    assert.deepEqual(ids(rx), [entry.delivery.id], "taken over and sent once");
    await step(b.scheduler.lease.deadAfterMs + 1);
    assert.equal(rx.received.length, 1);
    const [after] = await s.store.deliveries.deliveryLog(t.timer_id);
    assert.equal(after.delivery.state, "succeeded");
  } finally {
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("an outcome recorded after the lease ran out is not sent again by the same process", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const store = s.store.deliveries;
  const commit = store.commitDeliveries.bind(store);
  const gate = Promise.withResolvers<void>();
  // A busy KV: outcomes (arm true) wait; claims (arm false) go through.
  store.commitDeliveries = async (changes, now, ...rest) => {
    if (rest[0] !== false) await gate.promise;
    return await commit(changes, now, ...rest);
  };
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1);
    // Recording the 200 takes longer than the lease left; sweeps meanwhile find the claim run out.
    for (let i = 0; i < 5; i++) {
      s.clock.advance(s.app.scheduler.lease.leaseMs + 1_000);
      await s.app.scheduler.sweep();
    }
    gate.resolve();
    await s.app.scheduler.settled();
    assert.equal(rx.received.length, 1, `timer.started sent ${rx.received.length} times`);
    const [entry] = await store.deliveryLog(t.timer_id);
    assert.equal(entry.delivery.state, "succeeded");
  } finally {
    gate.resolve();
    await s.close();
    await rx.close();
  }
});

Deno.test("an attempt that waited past its claim is sent once, unrenewed; sweeps here and of a live instance leave it", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const { rx, release } = heldReceiver();
  s.app.scheduler.start();
  const b = otherProcess(s);
  const store = s.store.deliveries;
  const commit = store.commitDeliveries.bind(store);
  let renewals = 0;
  // A renewal: a claim written again by its holder (claims themselves are committed with arm false).
  store.commitDeliveries = async (changes, now, ...rest) => {
    if (rest[0] !== false) renewals += changes.filter((c) => c.prev.claimed && c.next.claimed).length;
    return await commit(changes, now, ...rest);
  };
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1); // timer.started is held at the receiver
    await s.act(t.timer_id, "pause"); // timer.paused waits in the timer's lane behind it
    for (let i = 0; i < 3; i++) {
      // Both claims look run out; this process beats, so the other instance sees it alive.
      s.clock.advance(s.app.scheduler.lease.leaseMs + 1_000);
      await s.store.timers.beat(s.app.scheduler.instance, s.app.scheduler.lease.nextBeat());
      b.mono.t += 1_000;
      await b.scheduler.sweep();
      await b.scheduler.takeOver();
      await s.app.scheduler.sweep();
    }
    release();
    await rx.waitFor(2);
    await s.app.scheduler.settled();
    await b.scheduler.settled();
    const events = rx.received.map((r) => r.json.event);
    assert.deepEqual(events, ["timer.started", "timer.paused"], `sent: ${events}`);
    const log = await store.deliveryLog(t.timer_id);
    assert.deepEqual(log.map((e) => e.delivery.state), ["succeeded", "succeeded"]);
    assert.equal(renewals, 0, "no claim renewed: nobody takes it up while this process lives");
  } finally {
    release();
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("a process taken for gone while it waited (frozen past the liveness bound) sends none of what was taken over from it", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const { rx, release } = heldReceiver();
  // The app's scheduler is never started, so it never beats: as frozen. It sends what it claims.
  const a = s.app.scheduler, b = otherProcess(s);
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1); // a's timer.started, held at the receiver
    await s.act(t.timer_id, "pause");
    await a.sweep(); // a claims timer.paused: queued behind its started
    // b sees a's heartbeat, times its silence past the bound, then takes both claims (run out) over.
    s.clock.advance(a.lease.leaseMs + 1_000);
    await b.scheduler.sweep();
    b.mono.t += b.scheduler.lease.deadAfterMs + 1;
    await b.scheduler.sweep();
    await rx.waitFor(2); // b's timer.started
    release();
    // b's timer.paused, once its started is recorded (a hold waits for b's next sweeps).
    for (let i = 0; rx.received.length < 3; i++) {
      assert.ok(i < 100, `sent: ${rx.received.map((r) => r.json.event)}`);
      await new Promise((r) => setTimeout(r, 20));
      s.clock.advance(1_000);
      await b.scheduler.sweep();
    }
    await a.settled();
    await b.scheduler.settled();
    const events = rx.received.map((r) => r.json.event);
    // started twice (a was mid-POST when taken for gone, as a crash would be), paused once: a read it first.
    assert.deepEqual(events.filter((e) => e === "timer.paused"), ["timer.paused"], `sent: ${events}`);
  } finally {
    release();
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("KV out of reach past the liveness bound: a claim made before the next beat landed, taken over meanwhile, is read and not sent twice", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const { rx, release } = heldReceiver();
  // Two instances on one KV, neither started: they beat, sweep and take over only when told.
  const a = otherProcess(s), b = otherProcess(s);
  try {
    await a.scheduler.beat();
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await a.scheduler.sweep(); // a claims timer.started and POSTs it: held at the receiver
    await rx.waitFor(1);
    await b.scheduler.takeOver(); // b reads a's beat (a's claim runs: nothing to take)
    // KV out of reach longer than the liveness bound: no beat of a lands; every clock runs on.
    const out = b.scheduler.lease.deadAfterMs + 1;
    s.clock.advance(out);
    a.mono.t += out;
    b.mono.t += out;
    // Back: a claims timer.paused (queued behind its started) before its next beat lands, and b,
    // still reading the beat it timed, takes that claim over at once.
    await s.act(t.timer_id, "pause");
    await a.scheduler.sweep();
    await b.scheduler.takeOver();
    await a.scheduler.beat();
    release();
    // b sends timer.paused once a's started is recorded (its hold is looked at again at its sweeps).
    const paused = async () =>
      (await s.store.deliveries.deliveryLog(t.timer_id)).find((e) => e.delivery.payload.event === "timer.paused")!
        .delivery;
    for (let i = 0; (await paused()).state !== "succeeded"; i++) {
      assert.ok(i < 100, `sent: ${rx.received.map((r) => r.json.event)}`);
      await a.scheduler.settled();
      s.clock.advance(1_000);
      await b.scheduler.sweep();
      await b.scheduler.settled();
    }
    await a.scheduler.settled();
    const events = rx.received.map((r) => r.json.event);
    assert.deepEqual(events, ["timer.started", "timer.paused"], `sent: ${events}`);
  } finally {
    release();
    await a.scheduler.stop();
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

Deno.test("an attempt queued behind another is not sent after DELETE answered 200", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const { rx, release } = heldReceiver();
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1); // timer.started held by the receiver
    assert.equal((await s.act(t.timer_id, "pause")).status, 200); // timer.paused queued behind it
    assert.equal((await s.call("DELETE", `/api/v1/timers/${t.timer_id}`)).status, 200);
    release();
    await s.app.scheduler.settled();
    assert.deepEqual(rx.received.map((r) => r.json.event), ["timer.started"]);
  } finally {
    release();
    await s.close();
    await rx.close();
  }
});

Deno.test("an attempt that waited re-reads its claim: a delete by another process sends nothing", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const { rx, release } = heldReceiver();
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1);
    assert.equal((await s.act(t.timer_id, "pause")).status, 200);
    // Deleted in the store directly, as another process would: this sender is not told.
    assert.ok(await s.store.timers.deleteTimer(t.timer_id));
    release();
    await s.app.scheduler.settled();
    assert.deepEqual(rx.received.map((r) => r.json.event), ["timer.started"]);
  } finally {
    release();
    await s.close();
    await rx.close();
  }
});

Deno.test("a delete cut short after its first commit sends nothing more, and the sweep finishes it", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  try {
    // No scheduler hears of these commits: every event's delivery waits, pending, in KV.
    s.app.timers.link = undefined;
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    for (let i = 0; i < 10; i++) {
      await s.act(t.timer_id, "pause");
      await s.act(t.timer_id, "resume");
    }
    // Commits hold 20 mutations here: the timer and its 21 deliveries cannot go in one.
    s.store.opts.limits = { checks: 100, mutations: 20, bytes: 800 * 1024, keyBytes: 80 * 1024 };
    const timers = s.store.timers;
    const finish = timers.finishDelete.bind(timers);
    timers.finishDelete = () => Promise.reject(new Error("the process died here"));
    await assert.rejects(timers.deleteTimer(t.timer_id), /died/);
    timers.finishDelete = finish;
    assert.equal(await timers.getTimer(t.timer_id), null);
    assert.equal((await s.store.deliveries.deliveryLog(t.timer_id)).length, 21, "its deliveries are still there");
    // The next process's sweep: no claim lands for the deleted timer, then the delete is finished.
    await s.app.scheduler.sweep();
    await s.app.scheduler.settled();
    assert.equal(rx.received.length, 0, "nothing sent for a deleted timer");
    assert.equal((await s.store.deliveries.deliveryLog(t.timer_id)).length, 0);
    assert.deepEqual(await Array.fromAsync(s.kv.list({ prefix: ["timer_gone"] })), []);
    assert.deepEqual(await Array.fromAsync(s.kv.list({ prefix: ["due"] })), []);
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("a timer with a small log is deleted in one commit", async () => {
  const s = await setup();
  try {
    s.app.timers.link = undefined; // nothing armed or sent meanwhile: only the delete commits
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: "http://127.0.0.1:9/hook" });
    await s.act(t.timer_id, "start");
    const atomic = s.kv.atomic.bind(s.kv);
    let commits = 0;
    s.kv.atomic = () => {
      commits++;
      return atomic();
    };
    assert.ok(await s.store.timers.deleteTimer(t.timer_id));
    s.kv.atomic = atomic;
    assert.equal(commits, 1);
    assert.equal((await s.store.deliveries.deliveryLog(t.timer_id)).length, 0);
  } finally {
    await s.close();
  }
});

Deno.test("a clock that jumps an hour forward or back while an attempt is in flight sends nothing twice", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const { rx, release } = heldReceiver();
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    await rx.waitFor(1);
    s.clock.advance(3_600_000); // the claim, and the countdown, look long run out
    await s.app.scheduler.sweep();
    s.clock.advance(-7_200_000); // and back to before they began
    await s.app.scheduler.sweep();
    s.clock.advance(3_600_000 + 600_000);
    await s.app.scheduler.sweep();
    release();
    await s.app.scheduler.settled();
    const sent = rx.received.map((r) => r.json.event);
    assert.deepEqual(sent, ["timer.started", "timer.completed"]);
    const log = await s.store.deliveries.deliveryLog(t.timer_id);
    assert.deepEqual(log.map((e) => e.delivery.state), ["succeeded", "succeeded"]);
  } finally {
    release();
    await s.close();
    await rx.close();
  }
});

Deno.test("trimming a timer's log reads only what is beyond its bound, pending counted, never the whole log", async () => {
  const s = await setup();
  try {
    s.app.timers.link = undefined;
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: "http://127.0.0.1:9/hook" });
    const store = s.store.deliveries;
    const base = (await store.deliveryLog(t.timer_id)).length; // none yet: the timer is idle
    assert.equal(base, 0);
    // Oldest first: 10 pending, 20 failed, then 1 100 succeeded (ids sort as they were made).
    const record = (i: number, state: "pending" | "failed" | "succeeded") => {
      const id = `evt_${String(i).padStart(6, "0")}`;
      return {
        id,
        timer_id: t.timer_id,
        account_id: s.pro.account.id,
        url: "http://127.0.0.1:9/hook",
        payload: {
          id,
          event: "timer.started",
          timestamp: new Date(s.clock.now()).toISOString(),
          timer_id: t.timer_id,
          title: null,
          type: "countdown" as const,
          data: {},
        },
        state,
        attempts: [],
        next_attempt_at: state === "pending" ? s.clock.now() + 3_600_000 : null,
        created_at: s.clock.now(),
      };
    };
    for (let i = 0; i < 1130; i++) {
      assert.ok(await store.putDelivery(record(i, i < 10 ? "pending" : i < 30 ? "failed" : "succeeded")));
    }
    assert.deepEqual(await store.logCounts(t.timer_id), { count: 1130, failed: 20 });
    const deliveryLog = store.deliveryLog.bind(store);
    const oldest = store.oldestDeliveries.bind(store);
    let whole = 0;
    const read: number[] = [];
    store.deliveryLog = (id) => (whole++, deliveryLog(id));
    store.oldestDeliveries = (id, limit) => (read.push(limit), oldest(id, limit));
    assert.equal(await s.app.scheduler.sender.trimLog(t.timer_id), 100);
    assert.equal(whole, 0, "the whole log is never read");
    assert.deepEqual(read, [130], "only the 130 beyond the newest 1 000");
    store.deliveryLog = deliveryLog;
    const left = await deliveryLog(t.timer_id);
    assert.equal(left.length, 1030);
    assert.equal(left.filter((e) => e.delivery.state === "pending").length, 10, "pending stay");
    assert.equal(left.filter((e) => e.delivery.state === "failed").length, 20, "the newest 1 000 failed stay");
    assert.deepEqual(await store.logCounts(t.timer_id), { count: 1030, failed: 20 });
    // A log older than its counters is read in full once, then counted.
    await s.kv.delete(["log_n", t.timer_id]);
    await s.kv.delete(["log_failed", t.timer_id]);
    assert.equal(await s.app.scheduler.sender.trimLog(t.timer_id), 0);
    assert.deepEqual(await store.logCounts(t.timer_id), { count: 1030, failed: 20 });
    // Deleting the timer takes its counters along.
    assert.ok(await s.store.timers.deleteTimer(t.timer_id));
    assert.deepEqual(await store.logCounts(t.timer_id), { count: null, failed: 0 });
  } finally {
    await s.close();
  }
});

Deno.test("clock-driven webhooks over the plan's webhooks_per_day are recorded failed, not sent; a client's action still goes", async () => {
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro = { ...plans.pro, per_minute: 100_000, per_day: null, webhooks_per_day: 3 };
  const s = await setup({ config: { plans, sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "interval", work: 1, rest: 0, rounds: 5, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    for (let i = 0; i < 5; i++) {
      await s.app.scheduler.settled();
      s.clock.advance(1000);
      await s.app.scheduler.sweep();
    }
    await s.app.scheduler.settled();
    const sent = rx.received.map((r) => `${r.json.event}${(r.json.data as { round?: number }).round ?? ""}`);
    assert.deepEqual(sent, ["timer.started", "interval.round_end1", "interval.round_end2", "interval.round_end3"]);
    const log = (await s.store.deliveries.deliveryLog(t.timer_id)).map((e) => e.delivery);
    const over = log.filter((d) => d.state === "failed");
    assert.deepEqual(over.map((d) => d.payload.event).sort(), [
      "interval.completed",
      "interval.round_end",
      "interval.round_end",
    ]);
    assert.ok(over.every((d) => d.attempts.length === 1 && d.attempts[0].error === PLAN_DAY_SPENT));
    // A client's action is not clock-driven: it still goes.
    assert.equal((await s.act(t.timer_id, "reset")).status, 200);
    await s.app.scheduler.settled();
    assert.equal(rx.received.at(-1)?.json.event, "timer.reset");
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("test sends: at most 10 a minute per account, and a failed connection tells only one of three reasons", async () => {
  const s = await setup();
  const rx = receiver();
  try {
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    const send = () => s.call("POST", `/api/v1/timers/${t.timer_id}/webhook/test`);
    for (let i = 0; i < 10; i++) assert.equal((await send()).status, 200);
    const over = await send();
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get("retry-after")) > 0);
    assert.equal(rx.received.length, 10);
    s.clock.advance(60_000);
    assert.equal((await send()).status, 200, "a minute later");
    // A port nobody listens on: refused, reported without detail.
    const closed = await s.create({ type: "countdown", duration: 600, webhook_url: "http://127.0.0.1:9/hook" });
    const r = await s.call("POST", `/api/v1/timers/${closed.timer_id}/webhook/test`);
    assert.equal(r.status, 200);
    assert.equal(r.body.delivered, false);
    assert.equal(r.body.delivery.attempts[0].error, "could not connect");
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("a test send's outcome: HTTP answers keep their status, connection failures collapse to three reasons", () => {
  const r = (status: number | null, error: string | null) => ({ status, error, duration_ms: 1, ok: false });
  assert.equal(testOutcome(r(500, "HTTP 500")).error, "HTTP 500");
  assert.equal(testOutcome(r(null, "no answer within 10000 ms")).error, "timed out");
  assert.equal(
    testOutcome(r(null, "network error: unable to verify the first certificate")).error,
    "TLS handshake failed",
  );
  assert.equal(testOutcome(r(null, "network error: connect ECONNREFUSED 10.0.0.1:22")).error, "could not connect");
  assert.equal(
    testOutcome(r(null, "destination x.test resolves to a non-public address (private)")).error,
    "could not connect",
  );
  assert.equal(testOutcome(r(null, "could not resolve nowhere.test")).error, "could not connect");
});

Deno.test("zone crossings and the stop at the overtime limit are the clock's; a client's stop is not", () => {
  for (
    const event of ["timer.completed", "timer.warning", "timer.danger", "interval.round_end", "interval.completed"]
  ) {
    assert.equal(clockDriven({ event, data: {} }), true, event);
  }
  assert.equal(clockDriven({ event: "timer.stopped", data: { reason: "overtime_limit" } }), true);
  for (const event of ["timer.stopped", "timer.started", "timer.paused", "timer.adjusted", "timer.reset"]) {
    assert.equal(clockDriven({ event, data: { state: "stopped" } }), false, event);
  }
});

Deno.test("the claims of an instance that stopped cleanly are taken over at once", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const b = otherProcess(s);
  try {
    s.app.timers.link = undefined; // written unclaimed; the claim below is the stopping process's
    const t = await s.create({ type: "countdown", duration: 600, webhook_url: rx.url });
    await s.act(t.timer_id, "start");
    const a = s.app.scheduler;
    a.start();
    const [entry] = await s.store.deliveries.deliveryLog(t.timer_id);
    const now = s.clock.now();
    const held = claim(entry.delivery, now + a.lease.leaseMs, a.instance);
    await s.store.deliveries.commitDeliveries(
      [{ versionstamp: entry.versionstamp, prev: entry.delivery, next: held }],
      now,
      false,
    );
    await a.stop();
    await b.scheduler.takeOver();
    await b.scheduler.settled();
    assert.deepEqual(ids(rx), [entry.delivery.id], "sent by the other process without waiting");
  } finally {
    await b.scheduler.stop();
    await s.close();
    await rx.close();
  }
});

/** Resolves once `cond()` holds (rejects after `ms`). */
async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

Deno.test("a crash sends again at most the bound: an attempt counts from its POST until its outcome is recorded", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  const store = s.store.deliveries;
  const commit = store.commitDeliveries.bind(store);
  const gate = Promise.withResolvers<void>();
  // A busy KV: outcomes (arm true) wait, so every answer stays unrecorded; claims go through.
  store.commitDeliveries = async (changes, now, ...rest) => {
    if (rest[0] !== false) await gate.promise;
    return await commit(changes, now, ...rest);
  };
  const sender = s.app.scheduler.sender;
  sender.unrecorded = new Unrecorded(4, 4); // one account: a share of 3
  s.app.scheduler.start();
  try {
    const timers = [];
    for (let i = 0; i < 6; i++) timers.push(await s.create({ type: "countdown", duration: 600, webhook_url: rx.url }));
    for (const t of timers) await s.act(t.timer_id, "start");
    // The first three answered (their slots free again), their outcomes waiting for the KV.
    await until(() => rx.received.length >= 3 && sender.pool.running <= 3, "three answers");
    assert.equal(sender.unrecorded.waiting, 3, "the next three wait to be admitted");
    assert.equal(sender.unrecorded.open, 3);
    assert.equal(rx.received.length, 3, "answered but not recorded: they hold the bound");
    gate.resolve();
    await rx.waitFor(6);
    await s.app.scheduler.settled();
    assert.equal(new Set(ids(rx)).size, 6, "each sent once");
    assert.equal(rx.received.length, 6);
    assert.equal(sender.unrecorded.open, 0, "every admission released");
  } finally {
    gate.resolve();
    await s.close();
    await rx.close();
  }
});
