/**
 * Show features on the one timer state machine: warning and danger zones, overtime and adjust.
 * Pure, like model.ts. A zone threshold is a deadline like a round end: `showDeadline` names it, so
 * it is in the due index, and `catchUpShow` sends its crossing once. Positions are active
 * milliseconds (an event's: epoch milliseconds, as it counts to a fixed instant); `zones_from`
 * is the position up to which crossings are done, so a crossing at or before it sends nothing.
 */
import {
  complete,
  completedData,
  cycleMs,
  elapsedAt,
  FIXED_INSTANT,
  remainingSeconds,
  type Timer,
  type TimerEvent,
  totalMs,
  TransitionError,
} from "./model.ts";

export const ZONES = ["normal", "warning", "danger", "overtime"] as const;
export type Zone = typeof ZONES[number];
/** Overtime stops itself after this long. */
export const OVERTIME_LIMIT_MS = 86400_000;
/** The largest adjust, either way, in seconds. */
export const ADJUST_MAX = 86_400;

type Transitions = { timer: Timer; events: TimerEvent[] };

/** Whether the timer uses a clock feature beyond completion and round ends. */
export function hasShow(t: Timer): boolean {
  return t.warn_at != null || t.danger_at != null || t.overtime === true;
}

/** Where the timer's count is at `now`. */
export function position(t: Timer, now: number): number {
  if (t.type === "event") return t.state === "stopped" ? t.stopped_at! : now;
  return elapsedAt(t, now);
}

/** The instant a counting timer is at position `pos`. */
function instantOf(t: Timer, pos: number): number {
  return t.type === "event" ? pos : t.resumed_at! + (pos - t.elapsed_ms);
}

/** Where a countdown or event reaches zero. */
function endOf(t: Timer): number {
  return t.type === "event" ? Date.parse(t.target_date!) : totalMs(t)!;
}

/** The thresholds, danger first: the zone a position past both is in. */
function thresholds(t: Timer): { zone: "warning" | "danger"; seconds: number }[] {
  const out: { zone: "warning" | "danger"; seconds: number }[] = [];
  if (t.danger_at != null) out.push({ zone: "danger", seconds: t.danger_at });
  if (t.warn_at != null) out.push({ zone: "warning", seconds: t.warn_at });
  return out;
}

/** Whether a countdown or event is past zero and counting on. */
function inOvertime(t: Timer, now: number): boolean {
  if (!t.overtime || t.type === "interval" || t.state === "completed") return false;
  if (t.state === "idle" && t.type !== "event") return false;
  return position(t, now) >= endOf(t);
}

/** Whole seconds past zero of a timer in overtime (0 otherwise). */
export function overtimeSeconds(t: Timer, now: number): number {
  return inOvertime(t, now) ? Math.floor((position(t, now) - endOf(t)) / 1000) : 0;
}

/** The zone at `now`, from the milliseconds left (an interval's: of its work phase). */
export function zoneAt(t: Timer, now: number): Zone {
  if (inOvertime(t, now)) return "overtime";
  let left: number;
  if (t.type === "interval") {
    if (t.state === "completed" || t.state === "idle") return "normal";
    const cycle = cycleMs(t);
    const within = elapsedAt(t, now) - Math.floor(elapsedAt(t, now) / cycle) * cycle;
    const work = (t.work ?? 0) * 1000;
    if (within >= work) return "normal";
    left = work - within;
  } else {
    left = t.state === "completed" ? 0 : endOf(t) - position(t, now);
  }
  for (const th of thresholds(t)) if (left <= th.seconds * 1000) return th.zone;
  return "normal";
}

/** The show fields of the timer object. */
export function showView(t: Timer, now: number) {
  return {
    warn_at: t.warn_at ?? null,
    danger_at: t.danger_at ?? null,
    overtime: t.overtime ?? false,
    zone: zoneAt(t, now),
    overtime_seconds: overtimeSeconds(t, now),
    added_seconds: Math.round((t.added_ms ?? 0) / 1000),
    message: t.message ?? null,
    sound: t.sound ?? "none",
  };
}

/** The threshold crossings of an interval's work phases, as positions (the latest round's only when several are due). */
function intervalMarks(t: Timer, from: number, upTo: number) {
  const cycle = cycleMs(t);
  const work = (t.work ?? 0) * 1000;
  const marks: { zone: "warning" | "danger"; seconds: number; pos: number; round: number }[] = [];
  for (const th of thresholds(t)) {
    const offset = work - th.seconds * 1000;
    const k = Math.floor((upTo - offset) / cycle);
    const pos = k * cycle + offset;
    if (k >= 0 && (t.rounds === null || k < t.rounds) && pos > from) marks.push({ ...th, pos, round: k + 1 });
  }
  const latest = Math.max(...marks.map((m) => m.round));
  return marks.filter((m) => m.round === latest);
}

/** The first threshold of an interval after position `from`. */
function nextIntervalMark(t: Timer, from: number): number | null {
  const cycle = cycleMs(t);
  const work = (t.work ?? 0) * 1000;
  let next: number | null = null;
  for (const th of thresholds(t)) {
    const offset = work - th.seconds * 1000;
    const k = Math.max(0, Math.floor((from - offset) / cycle) + 1);
    if (t.rounds !== null && k >= t.rounds) continue;
    const pos = k * cycle + offset;
    if (next === null || pos < next) next = pos;
  }
  return next;
}

const crossing = (zone: string, seconds: number, at: number, round?: number): TimerEvent => ({
  type: zone === "warning" ? "timer.warning" : "timer.danger",
  at,
  data: round === undefined ? { zone, remaining_seconds: seconds } : { zone, remaining_seconds: seconds, round },
});

/**
 * The next clock instant of a counting timer with show features: a threshold ahead, its zero
 * (`clock`, the completion or round end), or, past zero in overtime, the overtime limit.
 */
export function showDeadline(t: Timer, clock: number | null): number | null {
  const from = t.zones_from ?? 0;
  const candidates: number[] = [];
  if (t.type === "interval") {
    if (clock !== null) candidates.push(clock);
    const mark = nextIntervalMark(t, from);
    if (mark !== null) candidates.push(instantOf(t, mark));
  } else {
    const end = endOf(t);
    for (const th of thresholds(t)) {
      const pos = end - th.seconds * 1000;
      if (pos > from) candidates.push(instantOf(t, pos));
    }
    candidates.push(t.ended ? instantOf(t, end + OVERTIME_LIMIT_MS) : clock!);
  }
  return candidates.length ? Math.min(...candidates) : null;
}

/**
 * What a countdown or event in overtime becomes at zero (it goes on counting) and the completion
 * it sends, or, without overtime, its completion; `at` the instant of zero.
 */
function reachZero(t: Timer, at: number): Transitions {
  if (!t.overtime) {
    const done = complete(t, at);
    return { timer: done, events: [{ type: "timer.completed", at, data: completedData(done) }] };
  }
  const data = { ...completedData(complete(t, at)), overtime: true };
  return { timer: { ...t, ended: true }, events: [{ type: "timer.completed", at, data }] };
}

/**
 * Applies the clock transitions due at `now` of a counting timer with show features: threshold
 * crossings, then zero (completion, or overtime) and the overtime limit. `clock` applies
 * completion and round ends (model.ts) for intervals.
 */
export function catchUpShow(t: Timer, now: number, clock: (t: Timer) => Transitions): Transitions {
  const from = t.zones_from ?? 0;
  const pos = position(t, now);
  if (t.type === "interval") {
    const rounds = clock(t);
    const cycle = cycleMs(t);
    const total = totalMs(t);
    // Crossings only up to the round ends applied (a long catch-up goes in batches).
    const reachable = Math.floor(pos / cycle);
    const target = t.rounds === null ? reachable : Math.min(reachable, t.rounds);
    const upTo = rounds.timer.rounds_done < target ? rounds.timer.rounds_done * cycle : Math.min(pos, total ?? pos);
    const marks = intervalMarks(t, from, upTo);
    if (!marks.length) return rounds;
    const events = [
      ...rounds.events,
      ...marks.map((m) => crossing(m.zone, m.seconds, instantOf(t, m.pos), m.round)),
    ].sort((a, b) => a.at - b.at);
    const version = rounds.events.length ? rounds.timer.version : t.version + 1;
    return { timer: { ...rounds.timer, zones_from: upTo, version }, events };
  }
  const end = endOf(t);
  const upTo = Math.min(pos, end);
  const events: TimerEvent[] = [];
  for (const th of [...thresholds(t)].reverse()) {
    const mark = end - th.seconds * 1000;
    if (mark > from && mark <= upTo) events.push(crossing(th.zone, th.seconds, instantOf(t, mark)));
  }
  let next: Timer = events.length ? { ...t, zones_from: upTo } : t;
  if (pos >= end && !t.ended) {
    const zero = reachZero(next, instantOf(t, end));
    next = zero.timer;
    events.push(...zero.events);
  }
  if (next.ended && next.state !== "completed" && pos >= end + OVERTIME_LIMIT_MS) {
    const at = instantOf(t, end + OVERTIME_LIMIT_MS);
    next = {
      ...next,
      state: "stopped",
      elapsed_ms: t.type === "event" ? next.elapsed_ms : end + OVERTIME_LIMIT_MS,
      resumed_at: null,
      stopped_at: at,
    };
    events.push({
      type: "timer.stopped",
      at,
      data: {
        state: "stopped",
        remaining_seconds: 0,
        overtime_seconds: OVERTIME_LIMIT_MS / 1000,
        reason: "overtime_limit",
      },
    });
  }
  if (!events.length) return { timer: t, events };
  return { timer: { ...next, version: t.version + 1 }, events };
}

/**
 * Adds `seconds` (negative: takes away) to a running or paused countdown, or to the current phase
 * of an interval: the deadline moves, not the planned duration. Taking away more than is left
 * brings it to zero now (completion, or overtime); an interval's phase is at most lengthened back
 * to its full length. Thresholds ahead of the new position are armed again, those behind it are
 * not crossed.
 */
export function applyAdjust(t: Timer, seconds: number, now: number): Transitions {
  const refuse = (detail?: string) => {
    throw new TransitionError(t.state, "adjust", detail);
  };
  if (t.type === "event") refuse(`cannot adjust an event timer: ${FIXED_INSTANT}`);
  if (t.state !== "running" && t.state !== "paused") refuse();
  const pos = elapsedAt(t, now);
  let lo = -Infinity;
  let hi = totalMs(t) ?? Infinity;
  if (t.type === "interval") {
    const cycle = cycleMs(t);
    const start = Math.floor(pos / cycle) * cycle;
    const work = (t.work ?? 0) * 1000;
    const inWork = pos - start < work;
    lo = inWork ? start : start + work;
    hi = inWork ? start + work : start + cycle;
  } else if (t.overtime && t.ended) {
    hi = Infinity; // in overtime already: taking away more counts on
  }
  const moved = Math.min(hi, Math.max(lo, pos - seconds * 1000));
  const applied = pos - moved;
  if (applied === 0) refuse("cannot adjust: the current phase is at its full length");
  let next: Timer = {
    ...t,
    elapsed_ms: t.elapsed_ms - applied,
    added_ms: (t.added_ms ?? 0) + applied,
    zones_from: moved,
    version: t.version + 1,
  };
  const events: TimerEvent[] = [];
  if (t.type === "countdown") {
    const end = totalMs(t)!;
    if (moved < end) next.ended = false;
    else if (!next.ended) {
      const zero = reachZero(next, now);
      next = zero.timer;
      events.push(...zero.events);
    }
  }
  const data = {
    seconds: Math.round(applied / 1000),
    added_seconds: Math.round(next.added_ms! / 1000),
    remaining_seconds: remainingSeconds(next, now),
  };
  return { timer: next, events: [{ type: "timer.adjusted", at: now, data }, ...events] };
}
