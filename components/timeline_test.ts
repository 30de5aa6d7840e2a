import assert from "node:assert/strict";
import type { Source } from "../lib/face.ts";
import { backdate, initialFrame, Timeline } from "./timeline.ts";

const T = 1_800_000_000_000;
const countdown = (o: Partial<Source> = {}): Source => ({
  type: "countdown",
  state: "running",
  total_ms: 300_000,
  target: null,
  work_ms: 0,
  rest_ms: 0,
  rounds: null,
  elapsed_ms: 60_000,
  at: T,
  frozen_ms: null,
  ...o,
});

Deno.test("a delayed display shows a running countdown as it was delay seconds ago", () => {
  const tl = new Timeline(10_000, countdown());
  const { frame } = tl.frameAt(T);
  assert.equal(frame.remaining_ms, 250_000, "240 s left now, 250 s ten seconds ago");
  assert.equal(frame.state, "running");
  assert.equal(new Timeline(0, countdown()).frameAt(T).frame.remaining_ms, 240_000);
});

Deno.test("before a recent start the delayed display is idle, and it starts delay seconds after the start", () => {
  const tl = new Timeline(10_000, countdown({ elapsed_ms: 4_000 }));
  const now = tl.frameAt(T);
  assert.equal(now.frame.state, "idle");
  assert.equal(now.frame.remaining_ms, 300_000);
  assert.equal(now.next_ms, 6_000, "it looks again when the start is ten seconds old");
  const later = tl.frameAt(T + 6_000);
  assert.equal(later.frame.state, "running");
  assert.equal(later.frame.remaining_ms, 300_000);
  assert.equal(tl.frameAt(T + 7_000).frame.remaining_ms, 299_000);
});

Deno.test("a change reaches a delayed display delay seconds after it happened", () => {
  const tl = new Timeline(10_000, countdown());
  const paused = countdown({ state: "paused", elapsed_ms: 65_000, at: T + 5_000 });
  tl.push(paused);
  // At T+5 s the timer paused; a display 10 s late still runs until T+15 s.
  const before = tl.frameAt(T + 14_000);
  assert.equal(before.frame.state, "running");
  assert.equal(before.frame.remaining_ms, 236_000);
  assert.equal(before.next_ms, 1_000);
  const after = tl.frameAt(T + 15_000);
  assert.equal(after.frame.state, "paused");
  assert.equal(after.frame.remaining_ms, 235_000);
  assert.equal(after.next_ms, null, "a paused face waits for the next change");
});

Deno.test("without delay the latest source is shown at once", () => {
  const tl = new Timeline(0, countdown());
  tl.push(countdown({ state: "paused", at: T + 5_000 }));
  assert.equal(tl.frameAt(T + 1).frame.state, "paused");
  assert.equal(tl.nextSwitch(T), null);
});

Deno.test("sources no longer shown are dropped", () => {
  const tl = new Timeline(1_000, countdown());
  for (let i = 1; i <= 50; i++) tl.push(countdown({ at: T + i * 1000, elapsed_ms: 60_000 + i * 1000 }));
  tl.sourceAt(T + 49_500);
  assert.equal(tl.sourceAt(T + 49_500).at, T + 49_000);
  assert.equal(tl.nextSwitch(T + 49_500), T + 50_000);
});

Deno.test("an event counts to its target when delayed, and a completed one was counting before", () => {
  const event = countdown({ type: "event", total_ms: null, target: T + 60_000, elapsed_ms: 0 });
  assert.equal(new Timeline(10_000, event).frameAt(T).frame.remaining_ms, 70_000);
  const done = { ...event, state: "completed" as const, target: T - 3_000 };
  assert.equal(backdate(done, T - 10_000).state, "running");
  assert.equal(new Timeline(10_000, done).frameAt(T).frame.remaining_ms, 7_000);
});

Deno.test("the first frame of the server's render is the delayed one", () => {
  assert.equal(initialFrame(countdown(), 0).seconds, 240);
  assert.equal(initialFrame(countdown(), 10_000).seconds, 250);
});
