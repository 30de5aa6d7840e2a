/**
 * Claims and liveness, in one place. A process claims a delivery for `leaseMs` and names itself in
 * the claim; while it runs it beats: a counter in KV that changes every HEARTBEAT_MS. Another
 * process takes a claim over only when its claimer is certainly gone: the counter has stood still
 * for longer than a live process can be silent (KV's busy-retry budget + a lease), timed on the
 * reader's own monotonic clock. Two machines' wall clocks are never compared, so a clock that
 * jumps or runs apart causes no second send (DECISIONS.md, "Bounds on what the clock sends").
 */
import { BUSY_GIVE_UP_MS } from "../kv/open.ts";

/** A claim outlives the attempt's timeout by this much (the attempt records its outcome meanwhile). */
export const LEASE_GRACE_MS = 3_000;
/** How often a running process beats. */
export const HEARTBEAT_MS = 1_000;

/**
 * Another instance counts as running (for dividing the due work, shards.ts) while its heartbeat
 * was seen to change within this long. Looser than being gone: one silent longer is left its
 * shards and claims until `deadAfterMs`, but is given no new ones.
 */
export const FRESH_MS = 5 * HEARTBEAT_MS;

/** The heartbeat a process leaves when it stops cleanly: its remaining claims are taken over at once. */
export const STOPPED = "stopped";

/**
 * How the heartbeats of versions that cut shards by id range start (shards.ts); older versions beat
 * with a bare number. Any value that changes is a heartbeat to every version.
 */
export const RANGE_SHARDS_BEAT = "r";
/** The mark of a heartbeat of an instance that steps every due entry and holds no shard. */
const STEPS_ALL_BEAT = "a";

/** A claim as written: held until `until` (the claimer's clock) by the instance `by`. */
export interface Claim {
  until: number;
  by: string;
}

export interface LeaseOptions {
  /** The attempt's timeout: a claim holds this + LEASE_GRACE_MS. */
  timeoutMs: number;
  /** How long a KV call of a live process may keep retrying a busy file (default: the store's). */
  busyMs?: number;
  /** A monotonic clock in ms (default `performance.now`); injectable for tests. */
  mono?: () => number;
  /** This instance's name (default: random). */
  instance?: string;
  /**
   * No other scheduler can be running on this KV (this process holds the lock of its local file):
   * every other instance named in a claim is gone, at once.
   */
  alone?: boolean;
}

/** This process's claims and heartbeat, and what it has seen of other instances' heartbeats. */
export class Lease {
  readonly instance: string;
  /** How long a claim made now holds. */
  readonly leaseMs: number;
  /** How long another instance's heartbeat must stand still before it is taken for gone. */
  readonly deadAfterMs: number;
  #mono: () => number;
  #beats = 0;
  /** Per instance: the heartbeat last read, and since when (this clock) it has read the same. */
  #seen = new Map<string, { beat: unknown; since: number; moved: boolean }>();
  /** Per instance taken for gone: when (this clock) it was first taken so. */
  #gone = new Map<string, number>();
  readonly alone: boolean;

  constructor(o: LeaseOptions) {
    this.instance = o.instance ?? crypto.randomUUID().slice(0, 13);
    this.leaseMs = o.timeoutMs + LEASE_GRACE_MS;
    this.deadAfterMs = (o.busyMs ?? BUSY_GIVE_UP_MS) + this.leaseMs;
    this.#mono = o.mono ?? (() => performance.now());
    this.alone = o.alone ?? false;
  }

  /** A claim made at `now` (this process's clock) by this instance. */
  claim(now: number): Claim {
    return { until: now + this.leaseMs, by: this.instance };
  }

  /**
   * The next value of this instance's heartbeat counter (it changes with every beat). It starts
   * with RANGE_SHARDS_BEAT where this instance divides shards by id range with the others, so they
   * count it when sharing; one that steps every due entry itself (an isolate on Deno Deploy) holds
   * no shard, and counted it would leave its share of them unheld once it went idle.
   */
  nextBeat(dividesShards = true): string {
    return `${dividesShards ? RANGE_SHARDS_BEAT : STEPS_ALL_BEAT}${++this.#beats}`;
  }

  /** This instance's beats that landed, sent within the last lease: their commits' versionstamps and when sent (this clock). */
  #landed: { versionstamp: string; sent: number }[] = [];

  /** When a beat is sent now, on this clock (pass it to `landed` once it is written). */
  beatSent(): number {
    return this.#mono();
  }

  /** A beat of this instance sent at `sent` (`beatSent`) was written by the commit `versionstamp`. */
  landed(versionstamp: string, sent: number): void {
    const t = this.#mono();
    this.#landed = this.#landed.filter((b) => t - b.sent < this.leaseMs);
    this.#landed.push({ versionstamp, sent });
  }

  /**
   * Whether no other instance can have taken over a claim of this one committed at `claimVersion`
   * yet: a beat of this instance landed before that commit and was sent less than a lease ago on
   * this clock. Another instance takes it for gone only once it has read one beat for longer than
   * busy budget + lease. Not so after KV was out of reach longer than that: its first claims
   * commit before its next beat lands, and may be taken over at once. Read the claim then.
   */
  unsuspected(claimVersion: string): boolean {
    const t = this.#mono();
    return this.#landed.some((b) => b.versionstamp < claimVersion && t - b.sent < this.leaseMs);
  }

  /**
   * Takes note of heartbeats just read (null: none stored) and returns the instances certainly
   * gone: those whose heartbeat has read the same for longer than `deadAfterMs` on this clock.
   * An instance seen for the first time is never gone yet: its silence starts being timed now.
   */
  observe(beats: Map<string, unknown>): Set<string> {
    const t = this.#mono();
    const gone = new Set<string>();
    for (const [instance, beat] of beats) {
      if (instance === this.instance) continue;
      if (beat === STOPPED || this.alone) {
        gone.add(instance);
        continue;
      }
      const seen = this.#seen.get(instance);
      if (!seen) this.#seen.set(instance, { beat, since: t, moved: false });
      else if (seen.beat !== beat) this.#seen.set(instance, { beat, since: t, moved: true });
      else if (t - seen.since > this.deadAfterMs) gone.add(instance);
    }
    for (const instance of gone) if (!this.#gone.has(instance)) this.#gone.set(instance, t);
    // Instances long gone are forgotten (their claims were taken over); the maps stay bounded.
    for (const map of [this.#seen, this.#gone]) {
      if (map.size <= 10_000) continue;
      for (const [i, v] of map) {
        if (t - (typeof v === "number" ? v : v.since) > 10 * this.deadAfterMs) map.delete(i);
      }
    }
    return gone;
  }

  /**
   * Whether an instance was first taken for gone (by `observe`) within the last `ms` on this clock:
   * its claims are to be taken over now, even in the middle of a burst.
   */
  recentlyGone(ms: number): boolean {
    const t = this.#mono();
    for (const since of this.#gone.values()) if (t - since <= ms) return true;
    return false;
  }

  /**
   * Whether another instance's heartbeat was seen to change (by `observe`) within FRESH_MS on this
   * clock: it runs now. One seen once only is not fresh yet (a counter left by a process long gone
   * reads the same forever).
   */
  fresh(instance: string): boolean {
    const seen = this.#seen.get(instance);
    return !!seen?.moved && seen.beat !== STOPPED && this.#mono() - seen.since <= FRESH_MS;
  }
}
