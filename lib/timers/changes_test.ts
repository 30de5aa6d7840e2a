import assert from "node:assert/strict";
import { planTimerChange } from "./changes.ts";
import type { Endpoint } from "../webhooks/endpoints.ts";
import { applyAction, catchUp, newTimer, type Timer } from "./model.ts";

const T0 = Date.parse("2026-11-22T12:00:00Z");
const DAY = 86400_000;

function timer(fields: Partial<Timer> = {}): Timer {
  return newTimer({
    id: "tmr_a",
    account_id: "acct_a",
    type: "countdown",
    duration: 60,
    control_token_hash: "h",
    created_at: T0,
    expires_at: T0 + 30 * DAY,
    webhook_url: "https://example.com/hook",
    ...fields,
  });
}

Deno.test("a started countdown longer than the lifetime expires a week after its deadline, not before", () => {
  const idle = timer({ duration: 40 * 86400 });
  const { timer: running, event } = applyAction(idle, "start", T0);
  const c = planTimerChange(idle, "v1", running, [event], { now: T0, claimUntil: null });
  assert.equal(c.timer.due_at, T0 + 40 * DAY);
  assert.equal(c.timer.expires_at, T0 + 47 * DAY);
  // The expiry entry moves with it.
  assert.deepEqual(c.dueDelete, [{ at: T0 + 30 * DAY, kind: "expire", ref: "tmr_a" }]);
  assert.ok(c.dueSet.some((d) => d.item.kind === "expire" && d.item.at === T0 + 47 * DAY));
  // A short one keeps its 30 days.
  const short = applyAction(timer(), "start", T0);
  assert.equal(
    planTimerChange(timer(), "v1", short.timer, [], { now: T0, claimUntil: null }).timer.expires_at,
    T0 + 30 * DAY,
  );
});

Deno.test("a change carries its due entry with the record, and one delivery per event", () => {
  const idle = timer();
  const { timer: running, event } = applyAction(idle, "start", T0);
  const c = planTimerChange(idle, "v1", running, [event], { now: T0, claimUntil: T0 + 12_000 });
  const due = c.dueSet.find((d) => d.item.kind === "timer")!;
  assert.equal(due.item.at, T0 + 60_000);
  assert.deepEqual(due.value, { kind: "timer", timer: c.timer });
  assert.equal(c.deliveries.length, 1);
  assert.equal(c.deliveries[0].payload.event, "timer.started");
  assert.equal(c.deliveries[0].claimed, true, "due at once: claimed by the committing process");
  assert.equal(c.deliveries[0].next_attempt_at, T0 + 12_000);
  // Completed: its due entry goes, nothing new is due.
  const done = catchUp(c.timer, T0 + 60_000);
  const end = planTimerChange(c.timer, "v2", done.timer, done.events, { now: T0 + 60_000, claimUntil: null });
  assert.deepEqual(end.dueDelete, [{ at: T0 + 60_000, kind: "timer", ref: "tmr_a" }]);
  assert.equal(end.deliveries[0].payload.event, "timer.completed");
  assert.equal(end.deliveries[0].claimed, undefined);
  assert.equal(end.deliveries[0].next_attempt_at, T0 + 60_000);
});

Deno.test("an event timer nobody started is due at its target and completes there", () => {
  const target = T0 + 3600_000;
  const ev = timer({ type: "event", duration: 3600, target_date: new Date(target).toISOString() });
  const c = planTimerChange(null, null, ev, [], { now: T0, claimUntil: null });
  assert.equal(c.timer.state, "idle");
  assert.equal(c.timer.due_at, target);
  assert.equal(catchUp(c.timer, target - 1).events.length, 0);
  const { timer: done, events } = catchUp(c.timer, target + 5);
  assert.equal(done.state, "completed");
  assert.equal(done.completed_at, target);
  assert.equal(events[0].type, "timer.completed");
  assert.equal(events[0].data.started_at, null);
  assert.equal(events[0].data.actual_duration, 3600);
});

Deno.test("each enabled endpoint that wants an event gets its own delivery of it, beside the timer's webhook", () => {
  const ep = (id: string, events: Endpoint["events"], enabled = true): Endpoint => ({
    id,
    url: `https://example.com/${id}`,
    description: "",
    events,
    enabled,
    created_at: T0,
    updated_at: T0,
  });
  const endpoints = [ep("we_all", "all"), ep("we_done", ["timer.completed"]), ep("we_off", "all", false)];
  const idle = timer({ webhook_url: null });
  const { timer: running, event } = applyAction(idle, "start", T0);
  const started = planTimerChange(idle, "v1", running, [event], { now: T0, claimUntil: null, endpoints });
  assert.deepEqual(started.deliveries.map((d) => [d.endpoint_id, d.url]), [["we_all", "https://example.com/we_all"]]);
  const done = catchUp(running, T0 + 60_000);
  const completed = planTimerChange(running, "v2", done.timer, done.events, {
    now: T0 + 60_000,
    claimUntil: null,
    endpoints,
  });
  assert.deepEqual(completed.deliveries.map((d) => d.endpoint_id), ["we_all", "we_done"]);
  const ids = completed.deliveries.map((d) => d.payload.id);
  assert.equal(new Set(ids).size, 2, "each delivery its own id");
  // Each has its due entry in the same change.
  for (const d of completed.deliveries) {
    assert.ok(completed.dueSet.some((w) => w.item.kind === "delivery" && w.item.ref === `tmr_a/${d.id}`));
  }
  // With a webhook_url too: one more, without endpoint_id.
  const own = planTimerChange(idle, "v1", { ...running, webhook_url: "https://example.com/own" }, [event], {
    now: T0,
    claimUntil: null,
    endpoints,
  });
  assert.deepEqual(own.deliveries.map((d) => d.endpoint_id ?? null), [null, "we_all"]);
});

Deno.test("a timer's deliveries form one chain in the order they were born, across changes and destinations", () => {
  const endpoint: Endpoint = {
    id: "we_1",
    url: "https://example.com/other",
    description: "",
    events: "all",
    enabled: true,
    created_at: T0,
    updated_at: T0,
  };
  const idle = timer();
  const start = applyAction(idle, "start", T0);
  const first = planTimerChange(idle, "v1", start.timer, [start.event], {
    now: T0,
    claimUntil: null,
    endpoints: [endpoint],
  });
  const [toHook, toEndpoint] = first.deliveries;
  assert.equal(toHook.after, undefined, "the timer's first delivery waits for nothing");
  assert.equal(toEndpoint.after, toHook.id);
  assert.equal(first.timer.last_delivery, toEndpoint.id);
  const pause = applyAction(first.timer, "pause", T0 + 1000);
  const second = planTimerChange(first.timer, "v2", pause.timer, [pause.event], { now: T0 + 1000, claimUntil: null });
  assert.equal(second.deliveries[0].after, toEndpoint.id, "the next change's first follows the last one");
  assert.equal(second.timer.last_delivery, second.deliveries[0].id);
  // A change without events keeps the chain's end.
  const quiet = planTimerChange(second.timer, "v3", second.timer, [], { now: T0 + 2000, claimUntil: null });
  assert.equal(quiet.timer.last_delivery, second.deliveries[0].id);
});
