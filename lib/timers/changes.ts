/**
 * The whole change a timer's transition causes, computed before anything is written: the timer
 * as stored, its due-index entries (what is due when), and the webhook deliveries its events
 * cause. Pure: the store writes a change atomically and decides nothing.
 */
import { deliveryDue } from "../kv/due.ts";
import type { DueItem, DueWrite, TimerChange } from "../kv/store.ts";
import { type Delivery, newDelivery } from "../webhooks/delivery_model.ts";
import { type Endpoint, wants } from "../webhooks/endpoints.ts";
import { lifetimeEnd, nextDeadline, type Timer, type TimerEvent } from "./model.ts";

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
  const timer: Timer = { ...next, due_at: dueAt, changed_at: o.now, expires_at: lifetimeEnd(next, dueAt, o.now) };
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
  // One chain per timer, in the order they were born: each is sent once the one before was tried.
  let after = timer.last_delivery;
  for (const d of deliveries) {
    if (after !== undefined) d.after = after;
    after = d.id;
    dueSet.push(deliveryDue(d)!);
  }
  if (after !== undefined) timer.last_delivery = after;
  return { prev, versionstamp, timer, deliveries, dueSet, dueDelete };
}
