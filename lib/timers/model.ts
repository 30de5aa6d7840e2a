/**
 * The timer model and its state machine: pure functions of a stored record and an instant.
 * Nothing here reads a clock or KV; `remaining_seconds`, rounds and phases are computed from
 * stored instants at read time, so a timer is right at every instant even with nobody watching.
 */
import { catchUpShow, hasShow, overtimeSeconds, showDeadline, showView } from "./show.ts";
import {
  type Action,
  DEFAULT_THEME,
  type EventType,
  type Timer,
  type TimerEvent,
  type TimerFields,
  type TimerState,
} from "./record.ts";

export * from "./record.ts";

/** The run fields of a timer that has not started: new, or reset. */
const AT_REST = {
  state: "idle",
  started_at: null,
  resumed_at: null,
  elapsed_ms: 0,
  stopped_at: null,
  completed_at: null,
  rounds_done: 0,
  added_ms: 0,
  ended: false,
} as const satisfies Partial<Timer>;

/** A new, idle timer record: the one place its resting fields are spelled out. */
export function newTimer(fields: TimerFields): Timer {
  return {
    title: null,
    theme: DEFAULT_THEME,
    color: "6C63FF",
    webhook_url: null,
    duration: null,
    target_date: null,
    work: null,
    rest: null,
    rounds: null,
    ...AT_REST,
    // An event counts from its creation: a zone it is already in was not crossed.
    zones_from: fields.type === "event" ? fields.created_at : 0,
    version: 1,
    due_at: null,
    ...fields,
  };
}

/** A transition refused in the current state: the API answers 409. */
export class TransitionError extends Error {
  constructor(readonly state: TimerState, readonly action: Action, detail?: string) {
    super(detail ?? `cannot ${action} a timer that is ${state}`);
  }
}

export const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();
export const secondsUp = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

export function cycleMs(t: Timer): number {
  return ((t.work ?? 0) + (t.rest ?? 0)) * 1000;
}

/** Total active milliseconds a countdown or a finite interval runs; null when unbounded. */
export function totalMs(t: Timer): number | null {
  if (t.type === "countdown") return (t.duration ?? 0) * 1000;
  if (t.type === "interval") return t.rounds === null ? null : t.rounds * cycleMs(t);
  return null;
}

/** Active milliseconds at `now` (countdown and interval). */
export function elapsedAt(t: Timer, now: number): number {
  return t.elapsed_ms + (t.state === "running" && t.resumed_at !== null ? Math.max(0, now - t.resumed_at) : 0);
}

/**
 * Whether the timer's clock moves toward a deadline: a running timer, or an event timer that
 * nobody started (an event counts to its fixed instant whether or not it was started).
 */
export function isCounting(t: Timer): boolean {
  return t.state === "running" || (t.type === "event" && t.state === "idle");
}

/**
 * The instant of the next clock transition of a counting timer (completion, or an interval's
 * next round end), or null when nothing is due.
 */
export function nextDeadline(t: Timer): number | null {
  if (!isCounting(t)) return null;
  if (hasShow(t)) return showDeadline(t, clockDeadline(t));
  return clockDeadline(t);
}

/** The next completion or round end of a counting timer. */
function clockDeadline(t: Timer): number | null {
  if (t.type === "event") return Date.parse(t.target_date!);
  const resumed = t.resumed_at!;
  if (t.type === "countdown") return resumed + (totalMs(t)! - t.elapsed_ms);
  const nextBoundary = (t.rounds_done + 1) * cycleMs(t);
  return resumed + (nextBoundary - t.elapsed_ms);
}

/**
 * The first clock transition after `now`, or null. `nextDeadline` names the round end after the
 * last one the scheduler recorded, which is already past until it commits the next: what a
 * viewer at `now` waits for is the round end after `now`.
 */
export function nextDeadlineAfter(t: Timer, now: number): number | null {
  const next = nextDeadline(t);
  const cycle = cycleMs(t);
  if (next === null || next > now || t.type !== "interval" || cycle <= 0) return next;
  const boundary = (Math.floor(elapsedAt(t, now) / cycle) + 1) * cycle;
  // A finite interval ends at its last round end (later ones never come).
  const total = totalMs(t);
  return t.resumed_at! + Math.min(boundary, total ?? boundary) - t.elapsed_ms;
}

/** A long-missed interval catches up at most this many round ends per change (more changes follow). */
export const CATCH_UP_EVENTS = 100;
/**
 * An interval owing more round ends than this at once sends only this many, the most recent; the
 * first of them tells in `data.missed_rounds` how many earlier ones were skipped (DECISIONS.md,
 * "Bounds on what the clock sends").
 */
export const MISSED_ROUNDS_SENT = 10;

/**
 * Applies every clock transition due at `now`: completion and interval round ends, in order,
 * emitting at most `maxEvents` events (a long catch-up may be split over several changes). Round
 * ends beyond the MISSED_ROUNDS_SENT most recent are skipped in one step, not one by one.
 */
export function catchUp(t: Timer, now: number, maxEvents = 200): { timer: Timer; events: TimerEvent[] } {
  if (!isCounting(t) || !hasShow(t)) return catchUpClock(t, now, maxEvents);
  return catchUpShow(t, now, (u) => catchUpClock(u, now, maxEvents));
}

/** Completion and interval round ends due at `now` (zones and overtime aside: show.ts). */
function catchUpClock(t: Timer, now: number, maxEvents: number): { timer: Timer; events: TimerEvent[] } {
  if (!isCounting(t)) return { timer: t, events: [] };
  const events: TimerEvent[] = [];
  let next = t;
  if (t.type === "countdown" || t.type === "event") {
    const completion = pendingCompletion(t)!;
    if (now < completion.event.at) return { timer: t, events };
    return { timer: completion.timer, events: [completion.event] };
  }
  const cycle = cycleMs(t);
  const elapsed = elapsedAt(t, now);
  const reachable = Math.floor(elapsed / cycle);
  const target = t.rounds === null ? reachable : Math.min(reachable, t.rounds);
  const missed = Math.max(0, target - t.rounds_done - MISSED_ROUNDS_SENT);
  let roundsDone = t.rounds_done + missed;
  while (roundsDone < target && events.length < maxEvents) {
    roundsDone++;
    const at = t.resumed_at! + roundsDone * cycle - t.elapsed_ms;
    const data: Record<string, unknown> = { round: roundsDone, rounds: t.rounds, work: t.work, rest: t.rest };
    if (missed > 0 && events.length === 0) data.missed_rounds = missed;
    events.push({ type: "interval.round_end", at, data });
    if (t.rounds !== null && roundsDone === t.rounds) {
      next = complete({ ...t, rounds_done: roundsDone }, at);
      events.push({ type: "interval.completed", at, data: completedData(next) });
      return { timer: next, events };
    }
  }
  if (roundsDone === t.rounds_done) return { timer: t, events };
  return { timer: { ...t, rounds_done: roundsDone, version: t.version + 1 }, events };
}

/**
 * What a running countdown or event timer becomes at its deadline, and the event it emits
 * then: known in advance, so its webhook can be written ahead of time.
 */
export function pendingCompletion(t: Timer): { timer: Timer; event: TimerEvent } | null {
  if (!isCounting(t) || (t.type !== "countdown" && t.type !== "event")) return null;
  const deadline = nextDeadline(t)!;
  const timer = complete(t, deadline);
  return { timer, event: { type: "timer.completed", at: deadline, data: completedData(timer) } };
}

/**
 * An event timer reset after its date has nothing left to count to: it completes at once, at
 * `now` (its completion then follows the reset instead of carrying the old date before it).
 */
export function completionOnReset(t: Timer, now: number): { timer: Timer; event: TimerEvent } | null {
  if (t.type !== "event" || !isCounting(t) || Date.parse(t.target_date!) > now) return null;
  const timer = complete(t, now);
  return { timer, event: { type: "timer.completed", at: now, data: completedData(timer) } };
}

/** The timer with its completion applied if it is due at `now` (no events: for reads). */
export function effective(t: Timer, now: number): Timer {
  if (!isCounting(t)) return t;
  // Overtime goes on past zero, and stops itself after its limit.
  if (t.overtime && t.type !== "interval") return catchUp(t, now).timer;
  const total = totalMs(t);
  const end = t.type === "event"
    ? Date.parse(t.target_date!)
    : total === null
    ? null
    : t.resumed_at! + (total - t.elapsed_ms);
  if (end === null || now < end) return t;
  return complete(t.type === "interval" ? { ...t, rounds_done: t.rounds! } : t, end);
}

export function complete(t: Timer, at: number): Timer {
  const total = totalMs(t);
  return {
    ...t,
    state: "completed",
    elapsed_ms: total ?? t.elapsed_ms,
    resumed_at: null,
    completed_at: at,
    version: t.version + 1,
  };
}

/**
 * Lifetime rule: a counting timer never expires before its next deadline + 7 days, and a paused one
 * not before the deadline it would have if resumed when it last changed + 7 days (time added while
 * paused must not outlive the timer).
 */
export const AFTER_DEADLINE_MS = 7 * 86400_000;

/** `expires_at` of a timer whose next deadline is `dueAt`, changed at `now`: it follows the deadline, never shrinks. */
export function lifetimeEnd(t: Timer, dueAt: number | null, now: number): number {
  const end = dueAt ?? (t.state === "paused" ? clockDeadline({ ...t, resumed_at: now }) : null);
  return end === null ? t.expires_at : Math.max(t.expires_at, end + AFTER_DEADLINE_MS);
}

export function completedData(t: Timer): Record<string, unknown> {
  // An event nobody started counted from its creation: its whole duration (rounded as that was),
  // unless a reset after its date completed it later.
  const onTime = t.type === "event" && t.completed_at === Date.parse(t.target_date!);
  const actual = onTime && t.started_at === null && t.duration !== null
    ? t.duration
    : Math.round((t.completed_at! - (t.started_at ?? t.created_at)) / 1000);
  if (t.type === "interval") {
    return {
      rounds: t.rounds,
      duration: t.duration,
      actual_duration: actual,
      started_at: iso(t.started_at),
      completed_at: iso(t.completed_at),
    };
  }
  return {
    state: "completed",
    duration: t.duration,
    actual_duration: actual,
    started_at: iso(t.started_at),
    completed_at: iso(t.completed_at),
  };
}

/** Which action reaches `state` from the timer's current state (the `{ "state": … }` body). */
export function actionForState(current: TimerState, wanted: TimerState): Action | null {
  if (wanted === "running") return current === "paused" ? "resume" : "start";
  if (wanted === "paused") return "pause";
  if (wanted === "idle") return "reset";
  if (wanted === "stopped") return "stop";
  return null;
}

export const FIXED_INSTANT = "event timers count to a fixed instant";

/**
 * Applies a client's action to a caught-up timer. Throws TransitionError where DECISIONS.md's
 * table has no such transition.
 */
export function applyAction(t: Timer, action: Action, now: number): { timer: Timer; event: TimerEvent } {
  const refuse = (detail?: string) => {
    throw new TransitionError(t.state, action, detail);
  };
  let next: Timer;
  switch (action) {
    case "start":
      if (t.state !== "idle") refuse();
      next = { ...t, state: "running", started_at: now, resumed_at: now, elapsed_ms: 0, rounds_done: 0 };
      break;
    case "pause":
      if (t.type === "event") refuse(`cannot pause an event timer that is ${t.state}: ${FIXED_INSTANT}`);
      if (t.state !== "running") refuse();
      next = { ...t, state: "paused", elapsed_ms: elapsedAt(t, now), resumed_at: null };
      break;
    case "resume":
      if (t.type === "event") refuse(`cannot resume an event timer that is ${t.state}: ${FIXED_INSTANT}`);
      if (t.state !== "paused") refuse();
      next = { ...t, state: "running", resumed_at: now };
      break;
    case "reset":
      next = { ...t, ...AT_REST, zones_from: t.type === "event" ? now : 0 };
      break;
    case "stop":
      if (t.state !== "running" && t.state !== "paused" && !isCounting(t)) refuse();
      next = { ...t, state: "stopped", elapsed_ms: elapsedAt(t, now), resumed_at: null, stopped_at: now };
      break;
    case "adjust":
      throw new TypeError("adjust takes seconds: see applyAdjust");
  }
  next = { ...next, version: t.version + 1 };
  const remaining = remainingSeconds(next, now);
  const type = `timer.${
    { start: "started", pause: "paused", resume: "resumed", reset: "reset", stop: "stopped" }[action]
  }` as EventType;
  const data: Record<string, unknown> = action === "start"
    ? { state: next.state, duration: next.duration, remaining_seconds: remaining, started_at: iso(now) }
    : { state: next.state, remaining_seconds: remaining };
  if (action === "stop" && t.overtime) data.overtime_seconds = overtimeSeconds(next, now);
  return { timer: next, event: { type, at: now, data } };
}

/** Whole seconds left (rounded up) at `now`; null for an interval with unlimited rounds. */
export function remainingSeconds(t: Timer, now: number): number | null {
  if (t.state === "completed") return 0;
  if (t.type === "event") {
    return secondsUp(Date.parse(t.target_date!) - (t.state === "stopped" ? t.stopped_at! : now));
  }
  const total = totalMs(t);
  return total === null ? null : secondsUp(total - elapsedAt(t, now));
}

/** The round (1-based), phase and phase countdown of an interval timer at `now`. */
export function intervalPosition(
  t: Timer,
  now: number,
): { round: number; phase: "work" | "rest"; phase_remaining_seconds: number } {
  const work = (t.work ?? 0) * 1000;
  const cycle = cycleMs(t);
  if (t.state === "completed") {
    return { round: t.rounds ?? t.rounds_done, phase: t.rest ? "rest" : "work", phase_remaining_seconds: 0 };
  }
  const elapsed = elapsedAt(t, now);
  const index = Math.floor(elapsed / cycle);
  const within = elapsed - index * cycle;
  const round = t.rounds === null ? index + 1 : Math.min(index + 1, t.rounds);
  if (within < work) return { round, phase: "work", phase_remaining_seconds: secondsUp(work - within) };
  return { round, phase: "rest", phase_remaining_seconds: secondsUp(cycle - within) };
}

/** Public URLs of a timer. */
export function timerUrls(siteUrl: string, id: string) {
  return {
    viewer_url: `${siteUrl}/v/${id}`,
    embed_url: `${siteUrl}/widget?id=${id}`,
  };
}

/** What a client reads: the timer as it is at `now` (clock transitions applied). */
export function timerView(stored: Timer, now: number, siteUrl: string, opts: { owner: boolean }) {
  const t = effective(stored, now);
  const view: Record<string, unknown> = {
    timer_id: t.id,
    title: t.title,
    type: t.type,
    duration: t.duration,
    remaining_seconds: remainingSeconds(t, now),
    state: t.state,
    /** True while the clock moves toward a deadline (also an event timer nobody started). */
    counting: isCounting(t),
    started_at: iso(t.started_at),
    completed_at: iso(t.completed_at),
    theme: t.theme,
    color: t.color,
    ...timerUrls(siteUrl, t.id),
    created_at: iso(t.created_at),
    expires_at: iso(t.expires_at),
  };
  if (t.type === "event") view.target_date = t.target_date;
  if (t.type === "interval") {
    view.work = t.work;
    view.rest = t.rest;
    view.rounds = t.rounds;
    view.interval = intervalPosition(t, now);
  }
  if (opts.owner) view.webhook_url = t.webhook_url;
  Object.assign(view, showView(t, now));
  return view;
}
