/**
 * The rundown side of an item's finish, committed with it: when the clock completes a rundown's
 * live item (or someone stops it in overtime), the same commit advances the rundown and, in
 * linked mode, starts the next item at the finishing instant. The scheduler and the timer service
 * call this instead of committing such a change alone.
 */
import type { RundownChange, Store, TimerChange, TimerEntry } from "../kv/store.ts";
import type { OnCommitted } from "../kv/due.ts";
import { type PlanOptions, planTimerChange } from "../timers/changes.ts";
import type { RundownPlan } from "./actions.ts";
import { planFollow } from "./actions.ts";
import { finishes, type Rundown, rundownDelivery } from "./model.ts";
import type { Delivery } from "../webhooks/delivery_model.ts";
import { wants } from "../webhooks/endpoints.ts";

/** The whole change of a rundown plan: its items' timer changes (checked as read) and its deliveries. */
export function rundownChange(
  versionstamp: string | null,
  plan: RundownPlan,
  entries: (TimerEntry | null)[],
  o: PlanOptions,
  also: TimerChange[] = [],
): RundownChange {
  const timers = [...also];
  for (const [i, { timer, events }] of plan.items) {
    const e = entries[i]!;
    timers.push(planTimerChange(e.timer, e.versionstamp, timer, events, o));
  }
  const r: Rundown = plan.rundown;
  // Each event goes to the rundown's webhook_url and to every account endpoint that wants it, each its own delivery.
  const endpoints = o.endpoints ?? o.endpointsOf?.(r.account_id) ?? [];
  const deliveries: Delivery[] = [];
  for (const ev of plan.events) {
    if (r.webhook_url) deliveries.push(rundownDelivery(r, ev, o.now, o.claimUntil, o.claimBy));
    for (const e of endpoints) {
      if (!wants(e, ev.type)) continue;
      deliveries.push(rundownDelivery(r, ev, o.now, o.claimUntil, o.claimBy, { url: e.url, endpoint_id: e.id }));
    }
  }
  return { versionstamp, rundown: r, deliveries, timers };
}

/**
 * Commits `change` with what its rundown does about it. Returns the versionstamp (null: something
 * changed meanwhile, decide again), or undefined where the rundown has nothing to do: the caller
 * commits the change alone.
 */
export async function followRundown(
  store: Store,
  change: TimerChange,
  o: PlanOptions,
  onCommitted?: OnCommitted,
): Promise<string | null | undefined> {
  const at = finishes(change.prev, change.timer);
  if (at === null || !change.timer.rundown_id) return undefined;
  const entry = await store.rundowns.get(change.timer.rundown_id);
  if (!entry) return undefined;
  const r = entry.rundown;
  const to = r.current + 1;
  const live = r.items[r.current]?.timer_id === change.timer.id;
  const next = live && r.mode === "linked" && to < r.items.length
    ? await store.timers.getTimer(r.items[to].timer_id)
    : null;
  const plan = planFollow(r, change.timer, at, next?.timer ?? null);
  if (!plan) return undefined;
  const entries: (TimerEntry | null)[] = [];
  entries[to] = next;
  return await store.rundowns.commitChange(
    rundownChange(entry.versionstamp, plan, entries, o, [change]),
    o.now,
    onCommitted,
  );
}
