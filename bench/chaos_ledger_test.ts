import assert from "node:assert/strict";
import { type Arrival, broken, expectedOf, ledger, type TimerLog } from "./chaos_ledger.ts";

const T0 = Date.parse("2026-11-27T04:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();
const opts = (now: number) => ({ inflightMs: 1000, killSlackMs: 2000, now });

function arrival(timer: string, id: string, event: string, at: number, timestamp = at): Arrival {
  return { at, id, timer_id: timer, event, timestamp: iso(timestamp) };
}

/** A countdown of 3 s created at T0 and started at T0+1 s (answered 50 ms later). */
function countdown(id = "tmr_a"): TimerLog {
  return {
    id,
    type: "countdown",
    steps: [
      { kind: "create", sent: T0, answered: T0 + 20, status: 201, snap: { state: "idle", remaining_seconds: 3 } },
      {
        kind: "action",
        action: "start",
        sent: T0 + 1000,
        answered: T0 + 1050,
        status: 200,
        snap: { state: "running", remaining_seconds: 3 },
      },
    ],
  };
}

Deno.test("a started countdown implies its start and, once its zero has passed, its completion", () => {
  const t = countdown();
  const before = expectedOf(t, T0 + 3500);
  assert.deepEqual(before.bounds.get("timer.completed"), { lo: 0, hi: 1 });
  assert.equal(before.ambiguous, 1, "the zero's window (T0+3 s … T0+4.05 s) is not over at T0+3.5 s");
  const after = expectedOf(t, T0 + 10_000);
  assert.deepEqual(after.bounds.get("timer.started"), { lo: 1, hi: 1 });
  assert.deepEqual(after.bounds.get("timer.completed"), { lo: 1, hi: 1 });
  assert.equal(after.ambiguous, 0);
});

Deno.test("a missing completion is lost; its arrival makes the ledger clean", () => {
  const t = countdown();
  const started = arrival(t.id, "evt_1", "timer.started", T0 + 1040);
  const lost = ledger([t], [started], [], opts(T0 + 10_000));
  assert.equal(lost.lost, 1);
  assert.deepEqual(broken(lost), ["1 events lost"]);
  const done = ledger(
    [t],
    [started, arrival(t.id, "evt_2", "timer.completed", T0 + 4100, T0 + 4000)],
    [],
    opts(T0 + 10_000),
  );
  assert.equal(done.lost, 0);
  assert.equal(done.more_than_implied, 0);
  assert.deepEqual(broken(done), []);
});

Deno.test("a pause answered before the zero withdraws the completion; a 409 to pause proves it happened", () => {
  const paused = countdown();
  paused.steps.push({
    kind: "action",
    action: "pause",
    sent: T0 + 3500,
    answered: T0 + 3600,
    status: 200,
    snap: { state: "paused", remaining_seconds: 1 },
  });
  const p = expectedOf(paused, T0 + 60_000);
  assert.equal(p.bounds.get("timer.completed"), undefined);
  assert.deepEqual(p.bounds.get("timer.paused"), { lo: 1, hi: 1 });
  assert.equal(p.ambiguous, 0, "the pause's 200 resolves the window it overlaps");

  const refused = countdown();
  refused.steps.push({ kind: "action", action: "pause", sent: T0 + 3900, answered: T0 + 4100, status: 409 });
  assert.deepEqual(expectedOf(refused, T0 + 60_000).bounds.get("timer.completed"), { lo: 1, hi: 1 });
});

Deno.test("after an unanswered action only what was due before it is expected, and nothing is too much", () => {
  const t = countdown();
  t.steps.push({ kind: "action", action: "pause", sent: T0 + 2000, answered: T0 + 2100, status: null });
  const e = expectedOf(t, T0 + 60_000);
  assert.equal(e.open, true);
  assert.equal(e.bounds.get("timer.completed"), undefined);
  const l = ledger([t], [arrival(t.id, "x", "timer.paused", T0 + 2050)], [], opts(T0 + 60_000));
  assert.equal(l.more_than_implied, 0);
  assert.equal(l.timers.open, 1);
});

Deno.test("an interval's round ends and completion follow from its answer", () => {
  const t: TimerLog = {
    id: "tmr_i",
    type: "interval",
    steps: [{
      kind: "create",
      sent: T0,
      answered: T0 + 10,
      status: 201,
      snap: { state: "idle", remaining_seconds: 9, work: 2, rest: 1, rounds: 3 },
    }, {
      kind: "action",
      action: "start",
      sent: T0 + 100,
      answered: T0 + 120,
      status: 200,
      snap: {
        state: "running",
        remaining_seconds: 9,
        work: 2,
        rest: 1,
        rounds: 3,
        interval: { round: 1, phase: "work", phase_remaining_seconds: 2 },
      },
    }],
  };
  const e = expectedOf(t, T0 + 60_000);
  assert.deepEqual(e.bounds.get("interval.round_end"), { lo: 3, hi: 3 });
  assert.deepEqual(e.bounds.get("interval.completed"), { lo: 1, hi: 1 });
});

Deno.test("an event of a deleted timer counts against the promise only past the in-flight allowance", () => {
  const t = countdown();
  t.deletedAt = T0 + 2000;
  const l = ledger(
    [t],
    [
      arrival(t.id, "a", "timer.started", T0 + 1500),
      arrival(t.id, "b", "timer.adjusted", T0 + 2600),
      arrival(t.id, "c", "timer.completed", T0 + 4000),
    ],
    [],
    opts(T0 + 60_000),
  );
  assert.equal(l.in_flight_at_delete, 1);
  assert.equal(l.in_flight_max_ms, 600);
  assert.equal(l.after_delete, 1);
  assert.equal(l.lost, 0, "a deleted timer's events are not owed");
});

Deno.test("a duplicate is explained only by a kill between its arrivals; out-of-order arrivals are counted", () => {
  const t = countdown();
  const arrivals = [
    arrival(t.id, "s", "timer.started", T0 + 1040),
    arrival(t.id, "c", "timer.completed", T0 + 4050, T0 + 4000),
    arrival(t.id, "c", "timer.completed", T0 + 30_000, T0 + 4000),
    arrival(t.id, "s", "timer.started", T0 + 31_000, T0 + 1040),
  ];
  const none = ledger([t], arrivals, [], opts(T0 + 60_000));
  assert.equal(none.duplicates, 2);
  assert.equal(none.duplicates_unexplained, 2);
  assert.equal(none.duplicate_ratio, 1);
  const killed = ledger([t], arrivals, [{ instance: 0, pid: 1, at: T0 + 5000 }], opts(T0 + 60_000));
  assert.equal(killed.duplicates_explained, 2);
  assert.deepEqual(broken(killed), []);

  const reordered = ledger(
    [t],
    [
      arrival(t.id, "c", "timer.completed", T0 + 4050, T0 + 4000),
      arrival(t.id, "s", "timer.started", T0 + 4060, T0 + 1040),
    ],
    [],
    opts(T0 + 60_000),
  );
  assert.equal(reordered.out_of_order, 1);
});
