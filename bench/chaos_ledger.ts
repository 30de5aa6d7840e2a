/**
 * The chaos run's ledger (pure): from what the API answered, what the receiver recorded and when
 * instances were killed, which promises held. Every expectation comes from the answers and the
 * clock, not from the service's own records:
 *
 * - an action answered 200 implies its event; an answer in state `completed` implies a completion
 *   in the same commit (an adjust down to zero, an event reset after its date);
 * - an answer in a counting state implies its clock instants (a countdown's zero, an event's date,
 *   an interval's round ends), each known within a window: the request's send-to-answer span plus
 *   the one-second rounding of `remaining_seconds`. An instant whose window overlaps the next
 *   action's span is ambiguous (0 or 1); the driver stays clear of these and the count is reported.
 */
import type { Arrival as BurstArrival } from "./burst.ts";

/** One POST the receiver recorded, with the payload's `timestamp` (the event's instant). */
export type Arrival = BurstArrival & { timestamp: string };

export type TimerKind = "countdown" | "interval" | "event";
export type ActionName = "start" | "pause" | "resume" | "reset" | "stop" | "adjust";

/** The part of a timer answer the ledger reads. */
export interface Snapshot {
  state: string;
  remaining_seconds: number | null;
  target_date?: string;
  work?: number;
  rest?: number;
  rounds?: number | null;
  interval?: { round: number; phase: "work" | "rest"; phase_remaining_seconds: number };
}

/** One request about one timer: sent and answered on the driver's clock (ms); status null: no answer. */
export interface Step {
  kind: "create" | "action" | "delete";
  action?: ActionName;
  seconds?: number;
  sent: number;
  answered: number;
  status: number | null;
  snap?: Snapshot;
}

export interface TimerLog {
  id: string;
  type: TimerKind;
  burst?: number;
  steps: Step[];
  /** When a DELETE (or a retry after a lost answer) was answered 200 or 404: the timer is gone from then on. */
  deletedAt?: number;
}

export interface Kill {
  instance: number;
  pid: number;
  at: number;
  restartedAt?: number;
}

export interface LedgerOptions {
  /** How long after a DELETE's answer a POST already in flight may still arrive (ms). */
  inflightMs: number;
  /** A duplicate is explained by a kill from this long before its first arrival up to its second (ms). */
  killSlackMs: number;
  /** The ledger's time: clock instants whose window ends before it are due. */
  now: number;
}

export const EVENT_OF: Record<ActionName, string> = {
  start: "timer.started",
  pause: "timer.paused",
  resume: "timer.resumed",
  reset: "timer.reset",
  stop: "timer.stopped",
  adjust: "timer.adjusted",
};

/** A clock instant known within [lo, hi], and the events it emits. */
export interface Instant {
  lo: number;
  hi: number;
  events: string[];
  /** The timer's state after it (the driver's prediction). */
  after?: string;
}

/** The clock instants an answered request implies, until the next change. */
export function instantsOf(step: Step): Instant[] {
  const s = step.snap;
  if (!s) return [];
  if (s.state === "completed" || s.state === "stopped" || s.state === "paused") return [];
  if (s.target_date !== undefined) {
    // An event timer counts to its date whether or not it was started (idle or running).
    const at = Date.parse(s.target_date);
    return [{ lo: at, hi: at, events: ["timer.completed"], after: "completed" }];
  }
  if (s.state !== "running") return [];
  if (s.interval && s.work !== undefined && s.rest !== undefined) {
    const cycle = (s.work + s.rest) * 1000;
    const pr = s.interval.phase_remaining_seconds * 1000;
    const toEnd = s.interval.phase === "work" ? pr + s.rest * 1000 : pr;
    const left = s.rounds == null ? 50 : s.rounds - s.interval.round + 1;
    const out: Instant[] = [];
    for (let j = 0; j < left; j++) {
      const last = s.rounds != null && j === left - 1;
      out.push({
        lo: step.sent + toEnd - 1000 + j * cycle,
        hi: step.answered + toEnd + j * cycle,
        events: last ? ["interval.round_end", "interval.completed"] : ["interval.round_end"],
        after: last ? "completed" : "running",
      });
    }
    return out;
  }
  if (s.remaining_seconds === null) return [];
  const r = s.remaining_seconds * 1000;
  return [{ lo: step.sent + r - 1000, hi: step.answered + r, events: ["timer.completed"], after: "completed" }];
}

interface Bound {
  lo: number;
  hi: number;
}

/** What one timer's answers imply: per event type, how many distinct ids must (lo) and may (hi) arrive. */
export function expectedOf(t: TimerLog, now: number): { bounds: Map<string, Bound>; ambiguous: number; open: boolean } {
  const bounds = new Map<string, Bound>();
  const add = (e: string, lo: number, hi: number) => {
    const b = bounds.get(e) ?? { lo: 0, hi: 0 };
    b.lo += lo;
    b.hi += hi;
    bounds.set(e, b);
  };
  let ambiguous = 0;
  let open = false;
  let pending: Instant[] = [];
  /** Settles the pending instants against a change applied somewhere in [from, to]. */
  const settleBefore = (from: number, to: number, next?: Step) => {
    for (const i of pending) {
      if (i.hi < from) { for (const e of i.events) add(e, 1, 1); }
      else if (i.lo > to) continue;
      else if (next && resolvedNotYet(t.type, i, next)) continue;
      else if (next && resolvedPassed(t.type, i, next)) { for (const e of i.events) add(e, 1, 1); }
      else {
        ambiguous++;
        for (const e of i.events) add(e, 0, 1);
      }
    }
  };
  for (const step of t.steps) {
    if (step.kind === "create") {
      if (step.status === 201) pending = instantsOf(step);
      continue;
    }
    if (step.kind === "delete") break;
    if (step.status === null || step.status >= 500) {
      // The outcome is unknown: what was due before it still counts; after it, anything may arrive.
      settleBefore(step.sent, step.sent);
      open = true;
      pending = [];
      break;
    }
    if (step.status !== 200) {
      // Refused (409): nothing changed, except that a countdown refusing pause/stop/adjust has completed.
      if (t.type === "countdown" && step.status === 409 && pending.some((i) => i.hi >= step.sent)) {
        settleBefore(step.sent, step.answered, step);
        pending = [];
      }
      continue;
    }
    settleBefore(step.sent, step.answered, step);
    add(EVENT_OF[step.action!], 1, 1);
    if (step.snap?.state === "completed") add("timer.completed", 1, 1);
    pending = instantsOf(step);
  }
  if (t.deletedAt === undefined && !open) settleBefore(now, now);
  return { bounds, ambiguous, open };
}

/** A countdown answering pause, stop or adjust with 200 was still running: its zero had not come. */
function resolvedNotYet(type: TimerKind, i: Instant, next: Step): boolean {
  return type === "countdown" && i.after === "completed" && next.status === 200 &&
    (next.action === "pause" || next.action === "stop" || next.action === "adjust");
}

/** A countdown refusing pause, stop or adjust (409) had completed. */
function resolvedPassed(type: TimerKind, i: Instant, next: Step): boolean {
  return type === "countdown" && i.after === "completed" && next.status === 409 &&
    (next.action === "pause" || next.action === "stop" || next.action === "adjust");
}

export interface Ledger {
  timers: { total: number; alive: number; deleted: number; open: number; checked: number };
  arrivals: number;
  distinct_ids: number;
  expected_min: number;
  lost: number;
  lost_examples: { timer_id: string; event: string; expected: number; arrived: number }[];
  more_than_implied: number;
  more_than_implied_examples: { timer_id: string; event: string; expected_max: number; arrived: number }[];
  ambiguous_instants: number;
  after_delete: number;
  after_delete_examples: { timer_id: string; event: string; ms_after_delete: number }[];
  in_flight_at_delete: number;
  in_flight_max_ms: number | null;
  in_flight_examples: { timer_id: string; event: string; ms_after_delete: number }[];
  duplicates: number;
  duplicate_ratio: number;
  duplicates_explained: number;
  duplicates_unexplained: number;
  unexplained_examples: { id: string; timer_id: string; event: string; arrivals: number[] }[];
  out_of_order: number;
  out_of_order_examples: { timer_id: string; arrived: string; after: string }[];
  orphans: number;
}

export function ledger(timers: TimerLog[], arrivals: Arrival[], kills: Kill[], o: LedgerOptions): Ledger {
  const byTimer = Map.groupBy(arrivals, (a) => a.timer_id);
  const known = new Set(timers.map((t) => t.id));
  const out: Ledger = {
    timers: { total: timers.length, alive: 0, deleted: 0, open: 0, checked: 0 },
    arrivals: arrivals.length,
    distinct_ids: new Set(arrivals.map((a) => a.id)).size,
    expected_min: 0,
    lost: 0,
    lost_examples: [],
    more_than_implied: 0,
    more_than_implied_examples: [],
    ambiguous_instants: 0,
    after_delete: 0,
    after_delete_examples: [],
    in_flight_at_delete: 0,
    in_flight_max_ms: null,
    in_flight_examples: [],
    duplicates: 0,
    duplicate_ratio: 0,
    duplicates_explained: 0,
    duplicates_unexplained: 0,
    unexplained_examples: [],
    out_of_order: 0,
    out_of_order_examples: [],
    orphans: arrivals.filter((a) => !known.has(a.timer_id)).length,
  };
  for (const t of timers) {
    const mine = byTimer.get(t.id) ?? [];
    if (t.deletedAt !== undefined) {
      out.timers.deleted++;
      for (const a of mine) {
        const after = a.at - t.deletedAt;
        if (after <= 0) continue;
        if (after <= o.inflightMs) {
          out.in_flight_at_delete++;
          out.in_flight_max_ms = Math.max(out.in_flight_max_ms ?? 0, after);
          if (out.in_flight_examples.length < 10) {
            out.in_flight_examples.push({ timer_id: t.id, event: a.event, ms_after_delete: after });
          }
        } else {
          out.after_delete++;
          if (out.after_delete_examples.length < 10) {
            out.after_delete_examples.push({ timer_id: t.id, event: a.event, ms_after_delete: after });
          }
        }
      }
    } else {
      out.timers.alive++;
      const { bounds, ambiguous, open } = expectedOf(t, o.now);
      out.ambiguous_instants += ambiguous;
      if (open) out.timers.open++;
      else out.timers.checked++;
      const distinct = new Map<string, Set<string>>();
      for (const a of mine) {
        let s = distinct.get(a.event);
        if (!s) distinct.set(a.event, s = new Set());
        s.add(a.id);
      }
      for (const [event, b] of bounds) {
        const n = distinct.get(event)?.size ?? 0;
        out.expected_min += b.lo;
        if (n < b.lo) {
          out.lost += b.lo - n;
          if (out.lost_examples.length < 10) {
            out.lost_examples.push({ timer_id: t.id, event, expected: b.lo, arrived: n });
          }
        }
      }
      if (!open) {
        for (const [event, ids] of distinct) {
          const hi = bounds.get(event)?.hi ?? 0;
          if (ids.size > hi) {
            out.more_than_implied += ids.size - hi;
            if (out.more_than_implied_examples.length < 10) {
              out.more_than_implied_examples.push({ timer_id: t.id, event, expected_max: hi, arrived: ids.size });
            }
          }
        }
      }
    }
    countOutOfOrder(mine, out);
  }
  for (const [id, got] of Map.groupBy(arrivals, (a) => a.id)) {
    if (got.length < 2) continue;
    const times = got.map((a) => a.at).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) {
      out.duplicates++;
      const explained = kills.some((k) => k.at >= times[i - 1] - o.killSlackMs && k.at <= times[i]);
      if (explained) out.duplicates_explained++;
      else {
        out.duplicates_unexplained++;
        if (out.unexplained_examples.length < 10) {
          out.unexplained_examples.push({ id, timer_id: got[0].timer_id, event: got[0].event, arrivals: times });
        }
      }
    }
  }
  out.duplicate_ratio = out.distinct_ids ? out.duplicates / out.distinct_ids : 0;
  return out;
}

/**
 * Events of one timer arriving out of order: a first arrival whose event instant is earlier than
 * that of an event that arrived before it (duplicates and equal instants aside).
 */
function countOutOfOrder(mine: Arrival[], out: Ledger): void {
  const seen = new Set<string>();
  let latest: Arrival | null = null;
  for (const a of [...mine].sort((x, y) => x.at - y.at)) {
    if (seen.has(a.id)) continue;
    seen.add(a.id);
    const at = Date.parse(a.timestamp);
    if (latest && at < Date.parse(latest.timestamp)) {
      out.out_of_order++;
      if (out.out_of_order_examples.length < 10) {
        out.out_of_order_examples.push({
          timer_id: a.timer_id,
          arrived: `${a.event}@${a.timestamp}`,
          after: `${latest.event}@${latest.timestamp}`,
        });
      }
    } else latest = a;
  }
}

/**
 * Which promises the ledger breaks (empty: all kept). Order is one since the order gate
 * (lib/webhooks/order.ts); `order: false` only reports it (runs of builds without the gate).
 */
export function broken(l: Ledger, o: { order: boolean } = { order: true }): string[] {
  const out: string[] = [];
  if (l.lost > 0) out.push(`${l.lost} events lost`);
  if (l.after_delete > 0) out.push(`${l.after_delete} events of deleted timers arrived after the DELETE answered`);
  if (l.duplicates_unexplained > 0) out.push(`${l.duplicates_unexplained} duplicates with no kill between arrivals`);
  if (o.order && l.out_of_order > 0) out.push(`${l.out_of_order} events arrived out of order`);
  return out;
}
