import assert from "node:assert/strict";
import {
  applyAction,
  catchUp,
  effective,
  intervalPosition,
  newTimer,
  nextDeadline,
  nextDeadlineAfter,
  remainingSeconds,
  type Timer,
  TransitionError,
} from "./model.ts";

const T = Date.parse("2026-01-01T00:00:00Z");

function timer(over: Partial<Timer>): Timer {
  return newTimer({
    id: "tmr_x",
    account_id: "acct_x",
    type: "countdown",
    duration: 60,
    control_token_hash: "",
    created_at: T,
    expires_at: T + 30 * 86400_000,
    ...over,
  });
}

const interval = (over: Partial<Timer> = {}) =>
  timer({ type: "interval", work: 20, rest: 10, rounds: 3, duration: 90, ...over });

Deno.test("start on an idle countdown runs it with remaining equal to duration", () => {
  const { timer: t, event } = applyAction(timer({}), "start", T);
  assert.equal(t.state, "running");
  assert.equal(remainingSeconds(t, T), 60);
  assert.equal(event.type, "timer.started");
  assert.deepEqual(event.data, {
    state: "running",
    duration: 60,
    remaining_seconds: 60,
    started_at: new Date(T).toISOString(),
  });
  assert.equal(nextDeadline(t), T + 60_000);
});

Deno.test("remaining seconds round up and reach zero at the deadline", () => {
  const t = applyAction(timer({}), "start", T).timer;
  assert.equal(remainingSeconds(t, T + 1), 60);
  assert.equal(remainingSeconds(t, T + 59_001), 1);
  assert.equal(effective(t, T + 59_999).state, "running");
  const done = effective(t, T + 60_000);
  assert.equal(done.state, "completed");
  assert.equal(done.completed_at, T + 60_000);
  assert.equal(remainingSeconds(done, T + 90_000), 0);
});

Deno.test("pause freezes the countdown and resume shifts the deadline by the pause", () => {
  let t = applyAction(timer({}), "start", T).timer;
  t = applyAction(t, "pause", T + 10_000).timer;
  assert.equal(t.state, "paused");
  assert.equal(remainingSeconds(t, T + 500_000), 50);
  t = applyAction(t, "resume", T + 40_000).timer;
  assert.equal(nextDeadline(t), T + 90_000);
  const s = catchUp(t, T + 90_000);
  assert.equal(s.timer.state, "completed");
  assert.equal(s.events[0].type, "timer.completed");
  assert.equal(s.events[0].data.actual_duration, 90);
  assert.equal(s.events[0].data.duration, 60);
});

Deno.test("invalid transitions are refused for each state", () => {
  const idle = timer({});
  const running = applyAction(idle, "start", T).timer;
  const paused = applyAction(running, "pause", T).timer;
  const stopped = applyAction(running, "stop", T).timer;
  const completed = effective(running, T + 61_000);
  const refused: [Timer, string][] = [
    [idle, "pause"],
    [idle, "resume"],
    [idle, "stop"],
    [running, "start"],
    [running, "resume"],
    [paused, "start"],
    [paused, "pause"],
    [stopped, "start"],
    [stopped, "pause"],
    [stopped, "resume"],
    [stopped, "stop"],
    [completed, "start"],
    [completed, "pause"],
    [completed, "resume"],
    [completed, "stop"],
  ];
  for (const [t, action] of refused) {
    assert.throws(() => applyAction(t, action as "start", T), TransitionError, `${t.state} ${action}`);
  }
  for (const t of [idle, running, paused, stopped, completed]) {
    const r = applyAction(t, "reset", T + 5);
    assert.equal(r.timer.state, "idle");
    assert.equal(remainingSeconds(r.timer, T + 5), 60);
    assert.equal(r.event.type, "timer.reset");
  }
});

Deno.test("stop keeps the remaining time and emits timer.stopped", () => {
  const running = applyAction(timer({}), "start", T).timer;
  const { timer: t, event } = applyAction(running, "stop", T + 15_000);
  assert.equal(t.state, "stopped");
  assert.equal(remainingSeconds(t, T + 100_000), 45);
  assert.deepEqual(event, { type: "timer.stopped", at: T + 15_000, data: { state: "stopped", remaining_seconds: 45 } });
  assert.equal(nextDeadline(t), null);
});

Deno.test("event timers count to target_date and cannot pause or resume", () => {
  const target = new Date(T + 3600_000).toISOString();
  const e = timer({ type: "event", target_date: target, duration: 3600 });
  assert.equal(remainingSeconds(e, T), 3600);
  const running = applyAction(e, "start", T + 1000).timer;
  assert.equal(remainingSeconds(running, T + 1000), 3599);
  assert.throws(() => applyAction(running, "pause", T), TransitionError);
  assert.throws(() => applyAction(running, "resume", T), TransitionError);
  const s = catchUp(running, T + 3600_000);
  assert.equal(s.timer.state, "completed");
  assert.equal(s.events[0].data.completed_at, target);
  const stopped = applyAction(running, "stop", T + 600_000).timer;
  assert.equal(remainingSeconds(stopped, T + 900_000), 3000);
});

Deno.test("pause or resume on an event timer answers with a message naming the state and the action", () => {
  const e = timer({ type: "event", target_date: new Date(T + 3600_000).toISOString(), duration: 3600 });
  for (const [t, action] of [[e, "pause"], [applyAction(e, "start", T).timer, "resume"]] as const) {
    assert.throws(() => applyAction(t, action, T), (err: TransitionError) => {
      assert.equal(
        err.message,
        `cannot ${action} an event timer that is ${t.state}: event timers count to a fixed instant`,
      );
      return true;
    });
  }
});

Deno.test("an event nobody started completes with actual_duration equal to its duration", () => {
  // Created 0.6 s into a second: duration counts the part-second as a second, as does actual_duration.
  const target = new Date(T + 3600_000).toISOString();
  const e = timer({ type: "event", target_date: target, duration: 3600, created_at: T + 600 });
  const s = catchUp(e, T + 3600_000);
  assert.equal(s.timer.state, "completed");
  assert.equal(s.events[0].data.duration, 3600);
  assert.equal(s.events[0].data.actual_duration, 3600);
});

Deno.test("interval rounds and phases follow elapsed time", () => {
  const t = applyAction(interval(), "start", T).timer;
  assert.deepEqual(intervalPosition(t, T), { round: 1, phase: "work", phase_remaining_seconds: 20 });
  assert.deepEqual(intervalPosition(t, T + 20_000), { round: 1, phase: "rest", phase_remaining_seconds: 10 });
  assert.deepEqual(intervalPosition(t, T + 30_000), { round: 2, phase: "work", phase_remaining_seconds: 20 });
  assert.deepEqual(intervalPosition(t, T + 85_500), { round: 3, phase: "rest", phase_remaining_seconds: 5 });
  assert.equal(remainingSeconds(t, T + 30_000), 60);
  const done = effective(t, T + 90_000);
  assert.equal(done.state, "completed");
  assert.deepEqual(intervalPosition(done, T + 99_000), { round: 3, phase: "rest", phase_remaining_seconds: 0 });
});

Deno.test("nextDeadlineAfter names the round end after now, whatever the scheduler has recorded", () => {
  const open = applyAction(interval({ rounds: null, duration: null }), "start", T).timer;
  // Nothing recorded yet: nextDeadline stays at the first round end, long past.
  assert.equal(nextDeadline(open), T + 30_000);
  assert.equal(nextDeadlineAfter(open, T + 10_000), T + 30_000);
  assert.equal(nextDeadlineAfter(open, T + 30_000), T + 60_000, "at a round end: the one after it");
  assert.equal(nextDeadlineAfter(open, T + 30_005), T + 60_000);
  assert.equal(nextDeadlineAfter(open, T + 10 * 86400_000 + 1), T + 10 * 86400_000 + 30_000);
  // Paused after 45 s, resumed at T+100 s: round ends follow active time.
  const paused = applyAction(open, "pause", T + 45_000).timer;
  assert.equal(nextDeadlineAfter(paused, T + 50_000), null);
  const resumed = applyAction(paused, "resume", T + 100_000).timer;
  assert.equal(nextDeadlineAfter(resumed, T + 116_000), T + 145_000);
  // A finite interval: never past its last round end.
  const three = applyAction(interval(), "start", T).timer;
  assert.equal(nextDeadlineAfter(three, T + 65_000), T + 90_000);
  // Countdowns and events have one deadline.
  const countdown = applyAction(timer({}), "start", T).timer;
  assert.equal(nextDeadlineAfter(countdown, T + 1000), T + 60_000);
});

Deno.test("interval catch-up emits each round end in order, then interval.completed", () => {
  const t = applyAction(interval(), "start", T).timer;
  const mid = catchUp(t, T + 45_000);
  assert.deepEqual(mid.events.map((e) => [e.type, e.data.round ?? null, e.at]), [[
    "interval.round_end",
    1,
    T + 30_000,
  ]]);
  assert.equal(mid.timer.state, "running");
  assert.equal(nextDeadline(mid.timer), T + 60_000);
  const end = catchUp(mid.timer, T + 200_000);
  assert.deepEqual(end.events.map((e) => e.type), ["interval.round_end", "interval.round_end", "interval.completed"]);
  assert.equal(end.timer.completed_at, T + 90_000);
  assert.deepEqual(end.events[2].data, {
    rounds: 3,
    duration: 90,
    actual_duration: 90,
    started_at: new Date(T).toISOString(),
    completed_at: new Date(T + 90_000).toISOString(),
  });
  assert.deepEqual(catchUp(end.timer, T + 300_000).events, []);
});

Deno.test("a paused interval keeps its phase; unlimited rounds never complete", () => {
  let t = applyAction(interval({ rounds: null, duration: null }), "start", T).timer;
  t = applyAction(t, "pause", T + 25_000).timer;
  assert.deepEqual(intervalPosition(t, T + 999_000), { round: 1, phase: "rest", phase_remaining_seconds: 5 });
  t = applyAction(t, "resume", T + 100_000).timer;
  assert.equal(nextDeadline(t), T + 105_000);
  assert.equal(remainingSeconds(t, T + 100_000), null);
  const s = catchUp(t, T + 100_000 + 3600_000, 50);
  // 120 round ends owed: the 10 most recent are sent, the first saying how many were skipped.
  assert.deepEqual(s.events.map((e) => e.data.round), [111, 112, 113, 114, 115, 116, 117, 118, 119, 120]);
  assert.equal(s.events[0].data.missed_rounds, 110);
  assert.equal(s.events[1].data.missed_rounds, undefined);
  assert.equal(s.timer.state, "running");
  assert.equal(s.timer.rounds_done, 120);
});

Deno.test("a catch-up sends at most 10 round ends, skips the rest arithmetically, and a finite interval still completes", () => {
  // A 1-second interval down for a week: no loop per missed round, the same 10 events.
  const t = applyAction(interval({ work: 1, rest: 0, rounds: null, duration: null }), "start", T).timer;
  const week = 7 * 86400;
  const s = catchUp(t, T + week * 1000 + 500);
  assert.equal(s.events.length, 10);
  assert.equal(s.events[0].data.missed_rounds, week - 10);
  assert.deepEqual(s.events.map((e) => e.at), Array.from({ length: 10 }, (_, i) => T + (week - 9 + i) * 1000));
  assert.equal(s.timer.rounds_done, week);
  // Exactly 10 owed: all sent, nothing said skipped.
  const ten = catchUp(s.timer, T + (week + 10) * 1000);
  assert.equal(ten.events.length, 10);
  assert.ok(ten.events.every((e) => e.data.missed_rounds === undefined));
  // A finite interval owing 100: rounds 91–100, then interval.completed.
  const finite = applyAction(interval({ work: 1, rest: 0, rounds: 100, duration: 100 }), "start", T).timer;
  const done = catchUp(finite, T + 3600_000);
  assert.deepEqual(done.events.map((e) => e.data.round ?? e.type), [
    91,
    92,
    93,
    94,
    95,
    96,
    97,
    98,
    99,
    100,
    "interval.completed",
  ]);
  assert.equal(done.events[0].data.missed_rounds, 90);
  assert.equal(done.timer.state, "completed");
  // Split over changes (a commit too small for 10): the skip is told once, in the first.
  const first = catchUp(t, T + 3600_000, 4);
  assert.deepEqual(first.events.map((e) => e.data.round), [3591, 3592, 3593, 3594]);
  assert.equal(first.events[0].data.missed_rounds, 3590);
  const rest = catchUp(first.timer, T + 3600_000, 4);
  assert.deepEqual(rest.events.map((e) => e.data.round), [3595, 3596, 3597, 3598]);
  assert.equal(rest.events[0].data.missed_rounds, undefined);
});

Deno.test("rest of zero keeps an interval in its work phase", () => {
  const t = applyAction(interval({ rest: 0, rounds: 2, duration: 40 }), "start", T).timer;
  assert.deepEqual(intervalPosition(t, T + 25_000), { round: 2, phase: "work", phase_remaining_seconds: 15 });
});
