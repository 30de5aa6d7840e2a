/**
 * What a rundown's actions and its linked advance do to the rundown and to its items' timers,
 * computed before anything is written (the store commits the whole plan atomically). Pure.
 */
import { ApiError } from "../errors.ts";
import {
  applyAction,
  CATCH_UP_EVENTS,
  catchUp,
  effective,
  isCounting,
  type Timer,
  type TimerEvent,
} from "../timers/model.ts";
import { itemRef, type Rundown, type RundownAction, type RundownEvent } from "./model.ts";

/** A rundown's change: the rundown as it will be stored, its items' new timers by index, its events. */
export interface RundownPlan {
  rundown: Rundown;
  items: Map<number, { timer: Timer; events: TimerEvent[] }>;
  events: RundownEvent[];
}

type Want = "start" | "stop" | "reset";

/** Drives one item's timer toward `want` at `at` (its due clock transitions applied first, their events kept). */
function drive(plan: RundownPlan, timers: (Timer | null)[], i: number, want: Want, at: number): void {
  const held = plan.items.get(i);
  const t = held?.timer ?? timers[i];
  if (!t) {
    // A deleted item's timer has nothing to stop or reset: the show moves on from it.
    if (want !== "start") return;
    throw new ApiError(409, `item ${i} has no timer any more (it was deleted); remove it from the rundown`, "items");
  }
  const caughtUp = held ? { timer: t, events: [] } : catchUp(t, at, CATCH_UP_EVENTS);
  let cur = caughtUp.timer;
  const events = [...(held?.events ?? []), ...caughtUp.events];
  const apply = (action: "start" | "stop" | "reset" | "resume") => {
    const r = applyAction(cur, action, at);
    cur = r.timer;
    events.push(r.event);
  };
  if (want === "stop" && isCounting(cur)) apply("stop");
  if (want === "reset" && cur.state !== "idle") apply("reset");
  if (want === "start") {
    if (cur.state === "paused") apply("resume");
    else if (cur.state !== "running") {
      if (cur.state !== "idle") apply("reset");
      apply("start");
    }
  }
  if (events.length || held) plan.items.set(i, { timer: cur, events });
}

const conflict = (r: Rundown, action: string, why: string) =>
  new ApiError(409, `cannot ${action}: the rundown is ${r.state} at item ${r.current}, and ${why}`, "action");

/** Applies a client's action; throws 409 where the rundown's state allows none, 422 for a bad index. */
export function planAction(
  r: Rundown,
  timers: (Timer | null)[],
  action: RundownAction,
  index: number | undefined,
  now: number,
): RundownPlan {
  const plan: RundownPlan = { rundown: { ...r, version: r.version + 1 }, items: new Map(), events: [] };
  const next = plan.rundown;
  const last = r.items.length - 1;
  if (last < 0 && action !== "reset") throw conflict(r, action, "it has no items");
  const item = (i: number) => itemRef(i, plan.items.get(i)?.timer ?? timers[i]);
  const run = () => {
    if (r.state !== "running") {
      next.started_at = r.state === "idle" || r.started_at === null ? now : r.started_at;
      next.completed_at = null;
    }
    next.state = "running";
  };
  switch (action) {
    case "start": {
      const cur = timers[r.current];
      if (cur && effective(cur, now).state === "running") throw conflict(r, action, "its item is running already");
      drive(plan, timers, r.current, "start", now);
      if (r.state !== "running") {
        plan.events.push({ type: "rundown.started", at: now, data: { item: item(r.current) } });
      }
      run();
      break;
    }
    case "next":
    case "previous": {
      const to = r.current + (action === "next" ? 1 : -1);
      if (to < 0 || to > last) {
        throw conflict(
          r,
          action,
          action === "next" ? "it is at its last item (stop ends the show)" : "it is at its first item",
        );
      }
      drive(plan, timers, r.current, "stop", now);
      drive(plan, timers, to, "start", now);
      if (r.state !== "running") plan.events.push({ type: "rundown.started", at: now, data: { item: item(to) } });
      plan.events.push({
        type: "rundown.advanced",
        at: now,
        data: { from: r.current, to, item: item(to), cause: action },
      });
      next.current = to;
      run();
      break;
    }
    case "goto": {
      if (index === undefined || !Number.isInteger(index) || index < 0 || index > last) {
        throw new ApiError(422, `index must be an integer from 0 to ${last}, got ${index ?? "none"}`, "index");
      }
      drive(plan, timers, r.current, "stop", now);
      drive(plan, timers, index, "reset", now);
      plan.events.push({
        type: "rundown.advanced",
        at: now,
        data: { from: r.current, to: index, item: item(index), cause: action },
      });
      next.current = index;
      break;
    }
    case "stop":
      if (r.state !== "running") throw conflict(r, action, "it is not running");
      drive(plan, timers, r.current, "stop", now);
      next.state = "stopped";
      break;
    case "reset":
      r.items.forEach((_, i) => timers[i] && drive(plan, timers, i, "reset", now));
      Object.assign(next, { current: 0, state: "idle", started_at: null, completed_at: null });
      break;
  }
  return plan;
}

/**
 * What the rundown does when its live item finishes at `at` (completed, or stopped in overtime):
 * the last item completes the show; in linked mode the next item starts at that same instant
 * (`next`: the first item after the live one whose timer exists; deleted ones are skipped).
 * Null: nothing to do (not the live item, a manual rundown, or not running).
 */
export function planFollow(
  r: Rundown,
  finished: Timer,
  at: number,
  next: { index: number; timer: Timer } | null,
): RundownPlan | null {
  if (r.state !== "running" || r.items[r.current]?.timer_id !== finished.id) return null;
  const plan: RundownPlan = { rundown: { ...r, version: r.version + 1 }, items: new Map(), events: [] };
  if (r.current + 1 >= r.items.length || (r.mode === "linked" && !next)) {
    Object.assign(plan.rundown, { state: "completed", completed_at: at });
    plan.events.push({ type: "rundown.completed", at, data: { item: itemRef(r.current, finished), cause: "finish" } });
    return plan;
  }
  if (r.mode !== "linked" || !next) return null;
  const to = next.index;
  const nextTimer = next.timer;
  drive(plan, [...Array(to).fill(null), nextTimer], to, "start", at);
  plan.rundown.current = to;
  plan.events.push({
    type: "rundown.advanced",
    at,
    data: { from: r.current, to, item: itemRef(to, nextTimer), cause: "finish" },
  });
  return plan;
}
