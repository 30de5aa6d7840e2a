/**
 * The rundown side of an item's finish, committed with it: when the clock completes a rundown's
 * live item (or someone stops it in overtime), the same commit advances the rundown and, in
 * linked mode, starts the next item at the finishing instant. The scheduler and the timer service
 * call this instead of committing such a change alone.
 */
import type { RundownChange, RundownEntry, Store, TimerChange, TimerEntry } from "../kv/store.ts";
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
 * The change a rundown makes of its item's `change` (the rundown and the next item as read), or
 * undefined where the rundown has nothing to do: the timer's change is committed alone.
 */
function followChange(
  change: TimerChange,
  entry: RundownEntry | null,
  next: Next | null,
  o: PlanOptions,
): RundownChange | undefined {
  const at = finishes(change.prev, change.timer);
  if (at === null || !entry) return undefined;
  const plan = planFollow(entry.rundown, change.timer, at, next && { index: next.index, timer: next.entry.timer });
  if (!plan) return undefined;
  const entries: (TimerEntry | null)[] = [];
  if (next) entries[next.index] = next.entry;
  return rundownChange(entry.versionstamp, plan, entries, o, [change]);
}

/** The item a linked rundown starts next, by its place, with its timer as read. */
type Next = { index: number; entry: TimerEntry };

/**
 * The next item to start after the live one: `first` (the item right after it, as read) when its
 * timer exists; else the first later item whose timer does (an item's timer deleted is skipped).
 */
async function following(store: Store, r: Rundown, first: TimerEntry | null): Promise<Next | null> {
  const from = r.current + 1;
  if (first) return { index: from, entry: first };
  const later = r.items.slice(from + 1).map((i) => i.timer_id);
  if (!later.length) return null;
  const read = await store.timers.getTimers(later);
  const found = read.findIndex((e) => e !== null);
  return found < 0 ? null : { index: from + 1 + found, entry: read[found]! };
}

/** The item a linked rundown starts when its live item `timerId` finishes (null: none). */
function nextItemId(r: Rundown, timerId: string): string | null {
  const to = r.current + 1;
  const live = r.items[r.current]?.timer_id === timerId;
  return live && r.mode === "linked" && to < r.items.length ? r.items[to].timer_id : null;
}

const finishing = (c: TimerChange) => c.timer.rundown_id && finishes(c.prev, c.timer) !== null;

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
  const rc = await followPlan(store, change, o);
  return rc ? await store.rundowns.commitChange(rc, o.now, onCommitted) : undefined;
}

/** The change followRundown commits: `change` with what its rundown does about it (undefined: nothing). */
export async function followPlan(
  store: Store,
  change: TimerChange,
  o: PlanOptions,
): Promise<RundownChange | undefined> {
  if (!finishing(change)) return undefined;
  const entry = await store.rundowns.get(change.timer.rundown_id!);
  const nextId = entry && nextItemId(entry.rundown, change.timer.id);
  const next = nextId ? await following(store, entry.rundown, await store.timers.getTimer(nextId)) : null;
  return followChange(change, entry, next, o);
}

/**
 * followRundown for many items' changes at once (a burst of shows ending in the same second): the
 * rundowns and next items read in bulk, the advances packed into shared commits. Per change as
 * followRundown answers; a second item of a rundown already followed here gets null (decide again).
 */
export async function followRundowns(
  store: Store,
  changes: TimerChange[],
  o: PlanOptions,
  onCommitted?: OnCommitted,
): Promise<(string | null | undefined)[]> {
  const out: (string | null | undefined)[] = changes.map(() => undefined);
  const at = changes.flatMap((c, i) => finishing(c) ? [i] : []);
  const rundowns = await store.rundowns.getMany(at.map((i) => changes[i].timer.rundown_id!));
  const nextIds = at.map((i, n) => rundowns[n] && nextItemId(rundowns[n].rundown, changes[i].timer.id));
  const wanted = nextIds.filter((id): id is string => !!id);
  const read = new Map((await store.timers.getTimers(wanted)).map((e, n) => [wanted[n], e]));
  const follows: RundownChange[] = [], of: number[] = [];
  const seen = new Set<string>();
  for (const [n, i] of at.entries()) {
    const id = changes[i].timer.rundown_id!;
    // One change per rundown a commit: two would both check its one versionstamp.
    if (seen.has(id)) {
      out[i] = null;
      continue;
    }
    seen.add(id);
    // A next item whose timer was deleted (rare) is looked past one rundown at a time.
    const next = nextIds[n] ? await following(store, rundowns[n]!.rundown, read.get(nextIds[n]!) ?? null) : null;
    const rc = followChange(changes[i], rundowns[n], next, o);
    if (rc) follows.push(rc), of.push(i);
  }
  const stamps = await store.rundowns.commitChanges(follows, o.now, onCommitted);
  stamps.forEach((vs, n) => out[of[n]] = vs);
  return out;
}
