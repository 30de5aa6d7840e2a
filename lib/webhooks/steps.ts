/**
 * What happens at a due instant: the steps the scheduler's wake-ups run on the entries they read.
 * Due deliveries are claimed and sent (sender.ts); due timers get their clock transitions, planned
 * in chunks and committed in bulk; expired timers are deleted. Every step reads or checks the
 * current record, so a stale or repeated wake-up changes nothing.
 */
import type { Store, TimerChange } from "../kv/store.ts";
import type { DueEntry, DueItem, OnCommitted } from "../kv/store.ts";
import { fits, type KvLimits, writeCost } from "../kv/batch.ts";
import { type PlanOptions, planTimerChange } from "../timers/changes.ts";
import { followRundown, followRundowns } from "../rundowns/follow.ts";
import { CATCH_UP_EVENTS, catchUp, type Timer } from "../timers/model.ts";
import type { Sender } from "./sender.ts";
import type { Claim } from "./lease.ts";

/** Timers planned at a time in a burst (their commits are written while the next chunk is planned). */
const PLAN_CHUNK = 100;

/**
 * Timers planned at a time on this backend: PLAN_CHUNK where one commit holds a chunk (a local
 * file: 100 checks), else enough to fill every commit in flight (KV Connect: 10 checks × 32).
 */
export function planChunk(limits: KvLimits): number {
  return Math.max(PLAN_CHUNK, limits.checks >= PLAN_CHUNK ? 0 : limits.checks * (limits.inFlight ?? 1));
}
/** A chunk of due timers planned: plain changes, rundown items' changes, and those stepped one by one. */
interface Planned {
  now: number;
  changes: TimerChange[];
  follows: TimerChange[];
  singles: DueEntry[];
}

export interface StepDeps {
  store: Store;
  now: () => number;
  sender: Sender;
  /** Told of every commit the steps make (arms what it scheduled, sends what was born claimed). */
  committed: OnCommitted;
  /** The claim deliveries due at once are born with (null: none, the sweep's). */
  claim: (now: number) => Claim | null;
  /** Holds a deadline for its instant. */
  arm: (item: DueItem) => void;
  /** Timer entries whose change committed here, `timer:id` → the versionstamp it replaced (the wake-ups' memo). */
  stepped: Map<string, string>;
  log: (level: string, msg: string, e?: unknown) => void;
}

export class DueSteps {
  constructor(readonly deps: StepDeps) {}

  /** Steps due entries read together: deliveries already due first, then timers, then expiries. */
  async run(entries: DueEntry[]): Promise<void> {
    const timers = entries.filter((e) => e.item.kind === "timer");
    const deliveries = entries.filter((e) => e.item.kind === "delivery");
    // Webhooks already due go first: a completion's own webhook is born with it.
    const late = deliveries.length ? await this.deps.sender.claims.claimAndSend(deliveries) : [];
    if (timers.length) await this.#stepTimers(timers);
    if (late.length) {
      await this.deps.sender.claims.stepAll(late).catch((e) => this.deps.log("error", "delivery step failed", e));
    }
    for (const e of entries) if (e.item.kind === "expire") await this.stepExpire(e.item.ref, e);
  }

  /**
   * The clock transitions of a timer due at `now`, sized so one change fits one commit. Its
   * account's endpoints must be loaded (`store.endpoints.load`): its events go to them too.
   */
  clockChange(timer: Timer, versionstamp: string, now: number): TimerChange | null {
    if (!this.deps.store.endpoints.cached(timer.account_id)) {
      throw new Error(`the endpoints of ${timer.account_id} were not loaded before planning`);
    }
    const plan = this.#planOptions(now);
    for (let max = CATCH_UP_EVENTS;; max = Math.ceil(max / 2)) {
      const { timer: next, events } = catchUp(timer, now, max);
      if (!events.length) return null;
      const change = planTimerChange(timer, versionstamp, next, events, plan);
      // Split, never drop: fewer round ends per change until it fits; the rest follow at once.
      if (events.length === 1 || max === 1) return change;
      if (fits(writeCost(this.deps.store.timers.timerWrite(change).write), this.deps.store.timers.limits)) {
        return change;
      }
    }
  }

  /** How changes committed now are planned: deliveries due at once are claimed by this process. */
  #planOptions(now: number): PlanOptions {
    const claim = this.deps.claim(now);
    return {
      now,
      claimUntil: claim?.until ?? null,
      claimBy: claim?.by,
      // Events go to the account's endpoints too: loaded before planning (see #stepTimers, stepTimer).
      endpointsOf: (acct) => this.deps.store.endpoints.cached(acct),
    };
  }

  /** Timers due now, from the records their due entries carry, committed in bulk. */
  async #stepTimers(all: DueEntry[]): Promise<void> {
    // A chunk is planned while the previous one's commits are being written.
    let writing: Promise<void> = Promise.resolve();
    const size = planChunk(this.deps.store.timers.limits);
    for (let i = 0; i < all.length; i += size) {
      const chunk = all.slice(i, i + size);
      // Their accounts' endpoints, read before planning (most are cached).
      const accounts = chunk.flatMap((e) =>
        e.value.kind === "timer" && e.value.timer ? [e.value.timer.account_id] : []
      );
      await this.deps.store.endpoints.load(accounts, this.deps.now());
      const planned = this.#planTimers(chunk);
      await writing;
      writing = this.#commitTimers(chunk, planned);
      await Promise.resolve();
    }
    await writing;
  }

  #planTimers(entries: DueEntry[]): Planned {
    const now = this.deps.now();
    const planned: Planned = { now, changes: [], follows: [], singles: [] };
    for (const e of entries) {
      const timer = e.value.kind === "timer" ? e.value.timer : undefined;
      // An account whose endpoints are not loaded (a cache cleared meanwhile) steps alone: the single step loads them.
      const change = timer && this.deps.store.endpoints.cached(timer.account_id)
        ? this.clockChange(timer, e.versionstamp, now)
        : null;
      // An item of a rundown: its finish may advance the rundown in the same commit.
      if (change) (change.timer.rundown_id ? planned.follows : planned.changes).push(change);
      else planned.singles.push(e); // early, or an entry without its record: the single step decides
    }
    return planned;
  }

  async #commitTimers(entries: DueEntry[], { now, changes, follows, singles }: Planned) {
    const { store, committed } = this.deps;
    const stamps = changes.length ? await store.timers.commitTimers(changes, committed) : [];
    // Rundown items: their rundowns read in bulk, advances packed in shared commits; an item whose
    // rundown has nothing to do is committed alone, after.
    const followed = follows.length ? await followRundowns(store, follows, this.#planOptions(now), committed) : [];
    const done: [TimerChange, string | null][] = changes.map((c, n) => [c, stamps[n]]);
    const alone: TimerChange[] = [];
    follows.forEach((c, n) => followed[n] === undefined ? alone.push(c) : done.push([c, followed[n]!]));
    const aloneStamps = alone.length ? await store.timers.commitTimers(alone, committed) : [];
    alone.forEach((c, n) => done.push([c, aloneStamps[n]]));
    // Wake-ups that never pause leave the memo no moment to be forgotten: bounded (forgetting
    // only costs a re-planned step whose atomic check fails).
    if (this.deps.stepped.size >= 100_000) this.deps.stepped.clear();
    for (const [c, vs] of done) {
      // Changed meanwhile: read again and decide again.
      if (!vs) singles.push(entries.find((e) => e.item.ref === c.timer.id)!);
      else if (c.versionstamp) this.deps.stepped.set(`timer:${c.timer.id}`, c.versionstamp);
    }
    for (const e of singles) {
      await this.stepTimer(e.item.ref, e).catch((err) => this.deps.log("error", "timer step failed", err));
    }
  }

  /**
   * Applies the timer's due clock transitions, read afresh; a stale wake-up changes nothing.
   * `indexed`: the due entry that woke it (deleted if stale, unless written anew meanwhile).
   */
  async stepTimer(id: string, indexed: DueEntry): Promise<void> {
    const { store, now } = this.deps;
    for (;;) {
      const entry = await store.timers.getTimer(id);
      if (!entry) {
        await store.timers.deleteDue(indexed);
        return;
      }
      const t = now();
      await store.endpoints.load([entry.timer.account_id], t);
      const change = this.clockChange(entry.timer, entry.versionstamp, t);
      if (!change) {
        // Nothing due: an early wake-up or a stale index entry.
        const at = entry.timer.due_at;
        if (at !== indexed.item.at) await store.timers.deleteDue(indexed);
        else if (at !== null && at > t) {
          this.deps.arm({ at, kind: "timer", ref: id });
        }
        return;
      }
      // On a conflict someone else changed the timer: read again and decide again. A catch-up
      // with more round ends due is armed by its own commit.
      const followed = change.timer.rundown_id
        ? await followRundown(store, change, this.#planOptions(t), this.deps.committed)
        : undefined;
      const vs = followed !== undefined
        ? followed
        : (await store.timers.commitTimers([change], this.deps.committed))[0];
      if (vs) return;
    }
  }

  async stepExpire(id: string, indexed: DueEntry): Promise<void> {
    const { store } = this.deps;
    const entry = await store.timers.getTimer(id);
    if (entry && entry.timer.expires_at <= this.deps.now()) await store.timers.deleteTimer(id);
    else if (!entry || entry.timer.expires_at !== indexed.item.at) await store.timers.deleteDue(indexed);
  }
}
