/**
 * Dividing the due work between instances on one KV. The due index is cut into SHARDS shards by
 * the timer id an entry's `ref` starts with (a timer's steps and expiry are keyed by the timer id, a
 * delivery's by `timerId/deliveryId`): every piece of one timer's work falls in one shard, so one
 * instance steps it. A shard is a contiguous range of ids — cut at even points of the two base62
 * characters after `tmr_` — so an instance reads only its shards' records of a due instant, one key
 * range per run of neighbouring shards, not the whole instant (three instances sharing a burst read
 * a third each). Rundowns' ids (`rdn_…`) sort before every timer's: shard 0.
 *
 * Each shard has a lease in KV naming its holder (lib/kv/shards.ts, versionstamp-checked). Every
 * heartbeat (lease.ts) an instance counts the instances running — itself, those whose heartbeat
 * moved lately, and holders not yet certainly gone — and aims at ceil(SHARDS / running): it
 * claims free shards and those of instances certainly gone (DECISIONS.md, "Liveness of
 * instances"), and lets go of shards beyond its share so a newcomer gets its own. A lease needs no
 * renewal of its own: it holds while its holder's heartbeat moves. A clean stop lets every shard
 * go at once.
 *
 * Shards divide the work; they do not guard it. Every step still checks the records it changes,
 * so two instances that both believe they hold a shard for a moment (a slow one about to learn it
 * lost it) cost a failed check, never a second send. The same holds through a rolling upgrade from
 * the versions that cut shards by a hash of the id: their leases are kept under another key, and
 * an instance counts as sharing these only by its heartbeat's RANGE_SHARDS_BEAT mark, so the new
 * instances divide all the work among themselves while the old ones still step their part of it
 * (which counts the new ones too); an entry stepped by both is done once, the second finding it done.
 *
 * A process that holds the lock of its local KV file (no other server runs on it), or one on a
 * private in-memory KV, holds every shard without asking ("all"): no read, no wait at start.
 */
import type { DueItem, RefRange, ShardChange, ShardLease, Store } from "../kv/store.ts";
import { type Lease, RANGE_SHARDS_BEAT } from "./lease.ts";

/** How many shards the due work is cut into: a constant, since an entry's shard must not move. */
export const SHARDS = 32;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PAIRS = 62 * 62;

/** Where each shard's ids start, by shard count: shard s holds ids from its start up to the next one's. */
const starts = new Map<number, string[]>();
function startsOf(count: number): string[] {
  let out = starts.get(count);
  if (!out) {
    out = [""];
    for (let s = 1; s < count; s++) {
      const v = Math.ceil((s * PAIRS) / count);
      out.push(`tmr_${BASE62[Math.floor(v / 62)]}${BASE62[v % 62]}`);
    }
    starts.set(count, out);
  }
  return out;
}

/** The shard of a due entry's `ref`: the range its leading timer id falls in (any string has one). */
export function shardOf(ref: string, count = SHARDS): number {
  const at = startsOf(count);
  let lo = 0, hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at[mid] <= ref) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Where an instance starts looking for shards to claim: FNV-1a of its name. (Not `shardOf`: every
 * instance name, hex, sorts before `tmr_`, so all would start at shard 0 and ask for the same ones.)
 */
function claimFrom(instance: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < instance.length; i++) {
    h ^= instance.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % count;
}

/**
 * The ref ranges of these shards: one per run of neighbouring shards (`end` null: to the last id),
 * runs cut into about `pieces` ranges in all where there are fewer (ranges to read side by side).
 */
export function rangesOf(shards: number[], count = SHARDS, pieces = 1): RefRange[] {
  const at = startsOf(count);
  const sorted = [...shards].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const s of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === s - 1) run.push(s);
    else runs.push([s]);
  }
  const per = Math.max(1, Math.ceil(sorted.length / pieces));
  const out: RefRange[] = [];
  for (const run of runs) {
    for (let i = 0; i < run.length; i += per) {
      const next = run[Math.min(i + per, run.length) - 1] + 1;
      out.push({ start: at[run[i]], end: next < count ? at[next] : null });
    }
  }
  return out;
}

/**
 * How this process takes its part: "all" holds every shard without asking (no other scheduler
 * runs on this KV, or one that predates shards in tests); "shared" holds leases.
 */
export type Sharing = "all" | "shared";

export interface ShardsOptions {
  store: Store;
  lease: Lease;
  sharing: Sharing;
  /** How many shards (default SHARDS; tests). */
  count?: number;
}

/** Marks of what this process's own commits scheduled outside its shards, kept at most this many. */
const OWN_MAX = 100_000;

/** What a round changed for this instance. */
export interface Rebalanced {
  gained: number[];
  lost: number[];
}

export class Shards {
  readonly count: number;
  readonly all: boolean;
  #held = new Set<number>();
  /**
   * Due entries (`at|kind|ref`) scheduled by this process's own commits (an API call served here,
   * its own steps) in shards it does not hold: it steps them anyway, since their holder learns of
   * them only when its sweep finds them overdue.
   */
  #own = new Map<number, Map<string, DueItem>>();
  #ownCount = 0;

  constructor(readonly o: ShardsOptions) {
    this.count = o.count ?? SHARDS;
    this.all = o.sharing === "all";
    if (this.all) { for (let s = 0; s < this.count; s++) this.#held.add(s); }
  }

  /** Whether this instance steps the work of this due entry's `ref`. */
  holdsRef(ref: string): boolean {
    return this.all || this.#held.has(shardOf(ref, this.count));
  }

  /** Whether this instance steps a due entry: one of its shards, or scheduled by its own commit. */
  steps(item: DueItem): boolean {
    return this.all || this.#held.has(shardOf(item.ref, this.count)) ||
      (this.#own.get(item.at)?.has(ownKey(item)) ?? false);
  }

  /** Told of the due entries this process's commits scheduled (to step those outside its shards too). */
  scheduled(due: DueItem[], now: number): void {
    if (this.all) return;
    for (const item of due) {
      if (item.kind === "expire" || this.holdsRef(item.ref)) continue;
      let at = this.#own.get(item.at);
      if (!at) this.#own.set(item.at, at = new Map());
      if (!at.has(ownKey(item))) this.#ownCount++;
      at.set(ownKey(item), item);
    }
    if (this.#ownCount <= OWN_MAX) return;
    for (const [at, items] of this.#own) {
      if (at >= now - 60_000) continue;
      this.#own.delete(at);
      this.#ownCount -= items.size;
    }
    if (this.#ownCount > OWN_MAX) { // their holders' sweeps find them
      this.#own.clear();
      this.#ownCount = 0;
    }
  }

  /**
   * What to read of due instants: the ref ranges of the shards held (null: all of it; about
   * `pieces` ranges where it holds many shards), and the entries there that this process's own
   * commits scheduled outside them.
   */
  toRead(instants: number[], pieces = 1): { ranges: RefRange[] | null; own: DueItem[] } {
    if (this.all) return { ranges: null, own: [] };
    return {
      ranges: rangesOf(this.held, this.count, pieces),
      own: instants.flatMap((at) => [...(this.#own.get(at)?.values() ?? [])]),
    };
  }

  /** The shards held, as last read. */
  get held(): number[] {
    return [...this.#held].sort((a, b) => a - b);
  }

  /**
   * One round: reads every lease and heartbeat (two listings), claims up to this instance's share
   * of the free shards and of those held by instances certainly gone, lets go of shards beyond it.
   */
  async rebalance(): Promise<Rebalanced> {
    if (this.all) return { gained: [], lost: [] };
    const { store, lease } = this.o;
    const me = lease.instance;
    const [leases, beats] = await Promise.all([store.shards.leases(), store.shards.heartbeats()]);
    // A holder without a heartbeat (expired, never written) is timed like one standing still.
    for (const l of leases) if (!beats.has(l.by)) beats.set(l.by, null);
    const gone = lease.observe(beats);
    const holders = new Set(leases.map((l) => l.by));
    const running = new Set([me]);
    for (const [i, beat] of beats) {
      // Instances of versions that cut shards by hash hold none of these: not counted (see the top).
      const onRanges = typeof beat === "string" && beat.startsWith(RANGE_SHARDS_BEAT);
      if (i !== me && !gone.has(i) && ((lease.fresh(i) && onRanges) || holders.has(i))) running.add(i);
    }
    const share = Math.ceil(this.count / running.size);
    const mine = leases.filter((l) => l.by === me);
    const held = new Set(mine.map((l) => l.shard));
    if (mine.length > share) {
      // The highest first: each instance keeps the same ones from round to round.
      const extra = mine.sort((a, b) => b.shard - a.shard).slice(0, mine.length - share);
      for (const s of await store.shards.release(extra.map(toChange))) held.delete(s);
    } else if (mine.length < share) {
      const taken = new Map(leases.map((l) => [l.shard, l]));
      const open: ShardChange[] = [];
      // Each instance starts at its own place, so two claiming at once mostly ask for different shards.
      const from = claimFrom(me, this.count);
      for (let k = 0; k < this.count; k++) {
        const shard = (from + k) % this.count;
        const l = taken.get(shard);
        if (!l) open.push({ shard, versionstamp: null });
        else if (l.by !== me && gone.has(l.by)) open.push(toChange(l));
      }
      const want = open.slice(0, share - mine.length);
      if (want.length) { for (const s of await store.shards.claim(want, me)) held.add(s); }
    }
    const before = this.#held;
    this.#held = held;
    return { gained: [...held].filter((s) => !before.has(s)), lost: [...before].filter((s) => !held.has(s)) };
  }

  /** Lets go of every shard held (a clean stop): the others claim them at their next round. */
  async releaseAll(): Promise<void> {
    if (this.all) return;
    const me = this.o.lease.instance;
    this.#held.clear();
    const mine = (await this.o.store.shards.leases()).filter((l) => l.by === me);
    if (mine.length) await this.o.store.shards.release(mine.map(toChange));
  }
}

const toChange = (l: ShardLease): ShardChange => ({ shard: l.shard, versionstamp: l.versionstamp });
const ownKey = (i: DueItem) => `${i.kind}|${i.ref}`;
