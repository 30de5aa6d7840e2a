/**
 * The whole change a timer's transition causes, computed before anything is written: the timer
 * as stored, its due-index entries (what is due when), and the webhook deliveries its events
 * cause. Pure: the store writes a change atomically and decides nothing.
 */
import { type Delivery, newDelivery } from "../webhooks/delivery_model.ts";
import { type Endpoint, wants } from "../webhooks/endpoints.ts";
import { lifetimeEnd, nextDeadline, type Timer, type TimerEvent } from "./model.ts";

export type DueKind = "timer" | "delivery" | "expire";

/** One entry of the due index. */
export interface DueItem {
  at: number;
  kind: DueKind;
  /** Timer id, or `timerId/deliveryId`. */
  ref: string;
}

/**
 * A due entry's value: the record as it was written in the same commit (so the entry's
 * versionstamp is the record's while it is current), and nothing to read at the instant. A
 * running claim's entry carries none: it is read only if its claimer died.
 */
export type DueValue =
  | { kind: "timer"; timer?: Timer }
  | { kind: "delivery"; delivery?: Delivery; by?: string }
  | { kind: "expire"; id?: string };

/**
 * Queue messages: one per due instant ("wake up at `at`": everything due then is read from the
 * index), so a New Year second costs one message, not one per timer. Handlers validate them and
 * never trust them to be current.
 */
export type QueueMessage = { kind: "instant"; at: number };

export interface DueWrite {
  item: DueItem;
  value: DueValue;
  /** Wants a queue wake-up at its instant (where the KV has queues). */
  wake?: boolean;
}

export interface TimerChange {
  /** The record this change replaces (null: a new timer) and the versionstamp it was read at. */
  prev: Timer | null;
  versionstamp: string | null;
  /** The timer as it will be stored. */
  timer: Timer;
  /** Deliveries of its events, written with it. */
  deliveries: Delivery[];
  dueSet: DueWrite[];
  dueDelete: DueItem[];
}

export interface PlanOptions {
  now: number;
  /** Deliveries due at once are written claimed until this instant by the committing process (null: unclaimed). */
  claimUntil: number | null;
  /** The instance named in those claims (lease.ts). */
  claimBy?: string;
  /** The account's webhook endpoints: each enabled one that wants an event gets its own delivery. */
  endpoints?: readonly Endpoint[];
  /** Or where to find them by account (a cache loaded before planning; undefined: none). */
  endpointsOf?: (accountId: string) => readonly Endpoint[] | undefined;
}

export const dueRef = (d: Pick<Delivery, "timer_id" | "id">) => `${d.timer_id}/${d.id}`;

/** The due entry of a delivery's next attempt (or running claim), if any. */
export function deliveryDue(d: Delivery): DueWrite | null {
  if (d.next_attempt_at === null) return null;
  const item: DueItem = { at: d.next_attempt_at, kind: "delivery", ref: dueRef(d) };
  // A claimed one is sent by its claimer; the sweep takes it over if the claim runs out.
  if (d.claimed) return { item, value: { kind: "delivery", ...(d.claimed_by !== undefined && { by: d.claimed_by }) } };
  return { item, value: { kind: "delivery", delivery: d }, wake: true };
}

/**
 * A timer's change from `prev` (null when new) to `next`, emitting `events`: its due instant,
 * lifetime, and one delivery per event to its webhook and to each account endpoint that wants it.
 */
export function planTimerChange(
  prev: Timer | null,
  versionstamp: string | null,
  next: Timer,
  events: TimerEvent[],
  o: PlanOptions,
): TimerChange {
  const dueAt = nextDeadline(next);
  const timer: Timer = { ...next, due_at: dueAt, changed_at: o.now, expires_at: lifetimeEnd(next, dueAt) };
  const dueSet: DueWrite[] = [];
  const dueDelete: DueItem[] = [];
  if (prev?.due_at != null && prev.due_at !== dueAt) dueDelete.push({ at: prev.due_at, kind: "timer", ref: prev.id });
  if (dueAt !== null) {
    // Rewritten with every change, so the entry always carries the current record.
    const moved = prev?.due_at !== dueAt;
    dueSet.push({
      item: { at: dueAt, kind: "timer", ref: timer.id },
      value: { kind: "timer", timer },
      wake: moved,
    });
  }
  if (!prev || prev.expires_at !== timer.expires_at) {
    if (prev) dueDelete.push({ at: prev.expires_at, kind: "expire", ref: prev.id });
    const at = timer.expires_at;
    dueSet.push({
      item: { at, kind: "expire", ref: timer.id },
      value: { kind: "expire", id: timer.id },
      // Expiries need no precise wake-up: the sweep deletes them, and reads check expires_at.
    });
  }
  const deliveries: Delivery[] = [];
  for (const ev of events) {
    if (next.webhook_url) deliveries.push(newDelivery(timer, ev, o.now, o.claimUntil, o.claimBy));
    for (const e of o.endpoints ?? o.endpointsOf?.(next.account_id) ?? []) {
      if (!wants(e, ev.type)) continue;
      deliveries.push(newDelivery(timer, ev, o.now, o.claimUntil, o.claimBy, { url: e.url, endpoint_id: e.id }));
    }
  }
  for (const d of deliveries) dueSet.push(deliveryDue(d)!);
  return { prev, versionstamp, timer, deliveries, dueSet, dueDelete };
}
