import assert from "node:assert/strict";
import { applyAction, catchUp, newTimer, nextDeadline, type Timer } from "./model.ts";
import { applyAdjust, zoneAt } from "./show.ts";

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

Deno.test("the next deadline of a countdown with zones is each threshold in turn, then zero", () => {
  let t = applyAction(timer({ warn_at: 20, danger_at: 5 }), "start", T).timer;
  assert.equal(nextDeadline(t), T + 40_000);
  let r = catchUp(t, T + 40_000);
  assert.deepEqual(r.events.map((e) => [e.type, e.at]), [["timer.warning", T + 40_000]]);
  t = r.timer;
  assert.equal(nextDeadline(t), T + 55_000);
  assert.deepEqual(catchUp(t, T + 54_999).events, []);
  r = catchUp(t, T + 60_000);
  assert.deepEqual(r.events.map((e) => [e.type, e.at]), [["timer.danger", T + 55_000], [
    "timer.completed",
    T + 60_000,
  ]]);
  assert.equal(r.timer.state, "completed");
});

Deno.test("zones read from the time left; a paused timer keeps its zone; an interval's rest phase is normal", () => {
  const t = applyAction(timer({ warn_at: 20, danger_at: 5 }), "start", T).timer;
  assert.equal(zoneAt(t, T + 39_999), "normal");
  assert.equal(zoneAt(t, T + 40_000), "warning");
  assert.equal(zoneAt(t, T + 55_000), "danger");
  const paused = applyAction(t, "pause", T + 45_000).timer;
  assert.equal(zoneAt(paused, T + 999_000), "warning");
  const iv =
    applyAction(timer({ type: "interval", work: 20, rest: 10, rounds: 3, duration: 90, warn_at: 5 }), "start", T)
      .timer;
  assert.equal(zoneAt(iv, T + 16_000), "warning");
  assert.equal(zoneAt(iv, T + 21_000), "normal");
  assert.equal(zoneAt(iv, T + 46_000), "warning");
});

Deno.test("an interval catching up after downtime sends the crossings of its latest round only, beside its round ends", () => {
  const iv = applyAction(
    timer({ type: "interval", work: 20, rest: 10, rounds: null, duration: null, warn_at: 5, danger_at: 2 }),
    "start",
    T,
  ).timer;
  const r = catchUp(iv, T + 3 * 30_000 + 19_000);
  const zones = r.events.filter((e) => e.type !== "interval.round_end");
  assert.deepEqual(zones.map((e) => [e.type, e.data.round]), [["timer.warning", 4], ["timer.danger", 4]]);
  assert.equal(r.events.filter((e) => e.type === "interval.round_end").length, 3);
  assert.deepEqual(r.events.map((e) => e.at), [...r.events.map((e) => e.at)].sort((a, b) => a - b));
  assert.deepEqual(catchUp(r.timer, T + 3 * 30_000 + 19_000).events, []);
  assert.equal(nextDeadline(r.timer), T + 4 * 30_000);
});

Deno.test("an event counts its zones to its target whether or not it was started", () => {
  const target = T + 600_000;
  const e = timer({ type: "event", target_date: new Date(target).toISOString(), duration: 600, warn_at: 60 });
  assert.equal(nextDeadline(e), target - 60_000);
  const r = catchUp(e, target - 60_000);
  assert.deepEqual(r.events.map((x) => x.type), ["timer.warning"]);
  assert.equal(nextDeadline(r.timer), target);
});

Deno.test("adjust on a paused countdown taking away more than is left completes it at once", () => {
  let t = applyAction(timer({}), "start", T).timer;
  t = applyAction(t, "pause", T + 10_000).timer;
  const r = applyAdjust(t, -120, T + 20_000);
  assert.deepEqual(r.events.map((e) => e.type), ["timer.adjusted", "timer.completed"]);
  assert.equal(r.timer.state, "completed");
  assert.equal(r.timer.completed_at, T + 20_000);
  assert.deepEqual(r.events[0].data, { seconds: -50, added_seconds: -50, remaining_seconds: 0 });
});
