import assert from "node:assert/strict";
import type { Source } from "../lib/face.ts";
import { applyCommand, commandOf, hostMessages, type Reported } from "./host_messages.ts";

const T = 1_800_000_000_000;
const r = (o: Partial<Reported> = {}): Reported => ({
  state: "running",
  zone: "normal",
  remaining_ms: 60_000,
  ends_at: T + 60_000,
  round: null,
  rounds: null,
  type: "countdown",
  server_now: T,
  ...o,
});
const types = (ms: { type: string }[]) => ms.map((m) => m.type);

Deno.test("the first report is a state message with what the parent needs", () => {
  assert.deepEqual(hostMessages(null, r({ remaining_ms: 59_999.6 }), "tmr_a"), [{
    source: "timer-widget",
    type: "state",
    timer_id: "tmr_a",
    state: "running",
    zone: "normal",
    remaining_ms: 60_000,
    server_now: T,
  }]);
});

Deno.test("ticking is no change; a pause, a moved deadline or a zone is", () => {
  const a = r();
  assert.deepEqual(hostMessages(a, r({ remaining_ms: 59_000, server_now: T + 1000 }), null), []);
  assert.deepEqual(hostMessages(a, r({ ends_at: T + 60_200, server_now: T + 1000 }), null), [], "clock settling");
  assert.deepEqual(types(hostMessages(a, r({ ends_at: T + 90_000 }), null)), ["state"], "adjusted");
  assert.deepEqual(types(hostMessages(a, r({ state: "paused", ends_at: null }), null)), ["state"]);
  const paused = r({ state: "paused", ends_at: null });
  assert.deepEqual(hostMessages(paused, r({ state: "paused", ends_at: null, server_now: T + 5000 }), null), []);
  assert.deepEqual(
    types(hostMessages(paused, r({ state: "paused", ends_at: null, remaining_ms: 90_000 }), null)),
    ["state"],
    "adjusted while paused",
  );
  const zone = hostMessages(a, r({ zone: "warning" }), null);
  assert.deepEqual(types(zone), ["state", "zone"]);
  assert.equal((zone[1] as { zone: string }).zone, "warning");
});

Deno.test("completion: once when a running timer ends, or when it enters overtime", () => {
  const done = hostMessages(r(), r({ state: "completed", remaining_ms: 0, ends_at: null }), "tmr_a");
  assert.deepEqual(types(done), ["state", "completed"]);
  assert.deepEqual(
    types(hostMessages(r({ zone: "danger" }), r({ zone: "overtime" }), null)),
    ["state", "zone", "completed"],
  );
  const was = r({ state: "completed", remaining_ms: 0, ends_at: null });
  assert.deepEqual(hostMessages(was, was, null), [], "a finished timer stays quiet");
  assert.deepEqual(types(hostMessages(r({ state: "idle", ends_at: null }), was, null)), ["state"]);
});

Deno.test("interval rounds: each round end, the last one before completed", () => {
  const iv = (round: number, o: Partial<Reported> = {}) =>
    r({ type: "interval", round, rounds: 3, ends_at: T + 90_000, ...o });
  assert.deepEqual(hostMessages(iv(1), iv(2), null), [{
    source: "timer-widget",
    type: "round_end",
    timer_id: null,
    round: 1,
  }]);
  const end = hostMessages(iv(3), iv(3, { state: "completed", ends_at: null, remaining_ms: 0 }), null);
  assert.deepEqual(types(end), ["round_end", "state", "completed"]);
  assert.equal((end[0] as { round: number }).round, 3);
  const woke = hostMessages(iv(1), iv(3, { state: "completed", ends_at: null, remaining_ms: 0 }), null);
  assert.deepEqual(woke.filter((m) => m.type === "round_end").map((m) => (m as { round: number }).round), [1, 2, 3]);
  assert.deepEqual(hostMessages(iv(3), iv(1, { state: "idle", ends_at: null }), null).map((m) => m.type), ["state"]);
});

Deno.test("commands come only as timer-host objects naming a known command", () => {
  assert.equal(commandOf({ source: "timer-host", command: "pause" }), "pause");
  for (const bad of [null, "pause", { command: "pause" }, { source: "timer-host", command: "stop" }, 42]) {
    assert.equal(commandOf(bad), null, JSON.stringify(bad));
  }
});

const local = (o: Partial<Source> = {}): Source => ({
  type: "countdown",
  state: "running",
  total_ms: 60_000,
  target: null,
  work_ms: 0,
  rest_ms: 0,
  rounds: null,
  elapsed_ms: 0,
  at: T,
  frozen_ms: null,
  ...o,
});

Deno.test("commands follow the API's state machine on a parameter-only timer", () => {
  const paused = applyCommand(local(), "pause", T + 20_000)!;
  assert.deepEqual([paused.state, paused.elapsed_ms, paused.at], ["paused", 20_000, T + 20_000]);
  assert.equal(applyCommand(paused, "pause", T + 21_000), null);
  assert.equal(applyCommand(paused, "start", T + 21_000), null);
  const resumed = applyCommand(paused, "resume", T + 30_000)!;
  assert.deepEqual([resumed.state, resumed.elapsed_ms, resumed.at], ["running", 20_000, T + 30_000]);
  assert.equal(applyCommand(resumed, "resume", T + 31_000), null);
  const reset = applyCommand(resumed, "reset", T + 31_000)!;
  assert.deepEqual([reset.state, reset.elapsed_ms], ["idle", 0]);
  assert.equal(applyCommand(reset, "pause", T + 32_000), null);
  const started = applyCommand(reset, "start", T + 40_000)!;
  assert.deepEqual([started.state, started.elapsed_ms, started.at], ["running", 0, T + 40_000]);
  // Past its end a local countdown is completed: it can be reset, not paused.
  assert.equal(applyCommand(local(), "pause", T + 61_000), null);
  assert.equal(applyCommand(local(), "reset", T + 61_000)!.state, "idle");
});

Deno.test("an event countdown takes no command", () => {
  const ev = local({ type: "event", total_ms: null, target: T + 60_000 });
  for (const c of ["start", "pause", "resume", "reset"] as const) assert.equal(applyCommand(ev, c, T), null);
});
