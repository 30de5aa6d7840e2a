/**
 * Commits sized to the backend's limits. A write is one unit that must commit atomically (its checks
 * with its mutations); `packWrites` groups whole writes into as few commits as the limits allow,
 * and `commitWrites` commits them, halving a group KV finds too large and falling back to one
 * write per commit when a group conflicts. Reads of many keys are chunked the same way (getManyChunked).
 */
import { key } from "./keys.ts";

/** What one atomic commit may hold on a backend. */
export interface KvLimits {
  checks: number;
  /** Sets, deletes and enqueues together. */
  mutations: number;
  /** Keys and values of the mutations (and enqueued messages), serialised. */
  bytes: number;
  /** Keys of the checks and mutations, serialised. */
  keyBytes: number;
  /**
   * Commits kept in flight at once by `commitWrites`: enough to cover the backend's round trip
   * (bench/inflight.ts measures commits/s by the number in flight).
   */
  inFlight?: number;
}

/**
 * Local SQLite KV, measured on Deno 2.9.6 (`Too many checks (max 100)` and so on). One commit in
 * flight: SQLite writes one at a time anyway, and a second completion commit queued ahead made each
 * webhook's outcome record wait behind both (the bound on unrecorded attempts then held the POSTs
 * back). 10 000 event timers due at once, alternating (2026-11-27): two in flight 4.81 and 3.55 s
 * webhook p99 at 0.491 and 0.438 ms of CPU per timer; one 3.15 and 3.15 s at 0.386 and 0.382 ms,
 * the completions as fast (state p99 1.62–1.69 s either way).
 */
export const LOCAL_KV_LIMITS: KvLimits = {
  checks: 100,
  mutations: 1000,
  bytes: 800 * 1024,
  keyBytes: 80 * 1024,
  inFlight: 1,
};
/** KV Connect (remote KV, self-hosted denokv) allows 10 checks. */
export const REMOTE_KV_LIMITS: KvLimits = { ...LOCAL_KV_LIMITS, checks: 10, inFlight: 32 };
/** A read slower than this is a network round trip: commits then go many at a time. */
export const REMOTE_ROUND_TRIP_MS = 5;

/**
 * The limits of this KV, asked of it rather than guessed from its URL: a commit of 11 checks on
 * scratch keys (nothing written). A local file accepts it (100 allowed) and so does Deploy's
 * managed KV (documented 100); self-hosted denokv refuses more than 10. Any refusal, a network
 * error included, leaves the limits every backend accepts. Then the fastest of three reads of a
 * scratch key tells a local store from one across a network, whose round trip many commits in
 * flight cover (REMOTE_KV_LIMITS.inFlight).
 */
export async function probeKvLimits(kv: Deno.Kv): Promise<KvLimits> {
  const op = kv.atomic();
  for (let n = 0; n <= REMOTE_KV_LIMITS.checks; n++) op.check({ key: key.probe(n), versionstamp: null });
  let accepted = false;
  try {
    accepted = (await op.commit()).ok;
  } catch { /* the limits every backend accepts */ }
  let roundTrip = Infinity;
  try {
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await kv.get(key.probe(0));
      roundTrip = Math.min(roundTrip, performance.now() - t0);
    }
  } catch { /* unknown: taken as remote */ }
  const inFlight = roundTrip >= REMOTE_ROUND_TRIP_MS ? REMOTE_KV_LIMITS.inFlight : LOCAL_KV_LIMITS.inFlight;
  return { ...(accepted ? LOCAL_KV_LIMITS : REMOTE_KV_LIMITS), inFlight };
}

/** One atomic unit: its checks and its mutations commit together or not at all. */
export interface KvWrite {
  checks: Deno.AtomicCheck[];
  sets: { key: Deno.KvKey; value: unknown }[];
  deletes: Deno.KvKey[];
  enqueues: { value: unknown; delay: number }[];
  /** Counters (Deno.KvU64) moved by `value`, modulo 2^64 (a count goes down by adding 2^64 − n). */
  sums?: { key: Deno.KvKey; value: bigint }[];
}

export const emptyWrite = (): KvWrite => ({ checks: [], sets: [], deletes: [], enqueues: [] });

/** Adds `by` (negative: takes away) to the counter at `key` in a write. */
export function addCount(w: KvWrite, key: Deno.KvKey, by: number): void {
  (w.sums ??= []).push({ key, value: BigInt.asUintN(64, BigInt(by)) });
}

/**
 * A string's size in a serialised key: its UTF-8 bytes, a NUL as two (KV escapes it), and any
 * other character beyond ASCII as three (a surrogate pair as six for four): never under.
 */
function stringSize(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) n += 2;
    else if (c === 0) n++;
  }
  return n;
}

/**
 * A serialised key's size, as KV counts it (a tuple of typed parts: a tag, the bytes, a
 * terminator), rounded up. Strings by their bytes: counting three per character, as before, made
 * a chunk of 100 completions (ids and keys in ASCII) weigh 73 KiB of keys instead of ≈ 35, and go
 * in two commits of 74 and 26.
 */
function keySize(k: Deno.KvKey): number {
  let n = 1;
  for (const part of k) {
    n += typeof part === "string"
      ? stringSize(part) + 2
      : typeof part === "number"
      ? 9
      : part instanceof Uint8Array
      ? part.byteLength * 2 + 2
      : 16;
  }
  return n;
}

/** Sizes of records already estimated: a record is often written twice (under its key and in a due entry). */
const sizes = new WeakMap<object, number>();

/** A value's serialised size, over-estimated from its JSON (V8 serialisation is no larger for our records). */
function valueSize(v: unknown): number {
  if (typeof v === "string") return v.length * 3 + 16;
  if (typeof v !== "object" || v === null) return 24;
  let n = sizes.get(v);
  if (n === undefined) {
    n = (JSON.stringify(v)?.length ?? 8) + 16;
    sizes.set(v, n);
  }
  return n;
}

export interface WriteCost {
  checks: number;
  mutations: number;
  bytes: number;
  keyBytes: number;
}

export function writeCost(w: KvWrite): WriteCost {
  let keyBytes = 0, bytes = 0;
  for (const c of w.checks) keyBytes += keySize(c.key);
  for (const s of w.sets) {
    const k = keySize(s.key);
    keyBytes += k;
    bytes += k + valueSize(s.value);
  }
  for (const d of w.deletes) {
    const k = keySize(d);
    keyBytes += k;
    bytes += k;
  }
  for (const e of w.enqueues) bytes += valueSize(e.value);
  for (const s of w.sums ?? []) {
    const k = keySize(s.key);
    keyBytes += k;
    bytes += k + 24;
  }
  return { checks: w.checks.length, mutations: mutationsOf(w), bytes, keyBytes };
}

function mutationsOf(w: KvWrite): number {
  return w.sets.length + w.deletes.length + w.enqueues.length + (w.sums?.length ?? 0);
}

/** Whether a cost fits the limits (bytes with a 10 % margin for the estimate). */
export function fits(c: WriteCost, limits: KvLimits): boolean {
  return c.checks <= limits.checks && c.mutations <= limits.mutations && c.bytes <= limits.bytes * 0.9 &&
    c.keyBytes <= limits.keyBytes * 0.9;
}

/** A write larger than one commit allows: whoever builds it must split it (see the callers). */
export class WriteTooLarge extends Error {
  constructor(readonly cost: WriteCost, limits: KvLimits) {
    super(`one write needs ${JSON.stringify(cost)}, more than one commit allows (${JSON.stringify(limits)})`);
  }
}

/**
 * Groups writes, in order, into commits within the limits on checks, mutations and key bytes. Value
 * bytes are not weighed ahead — serialising every value once more to measure it cost a twentieth
 * of a burst's main thread — KV weighs them itself, and `commitWrites` halves a pack it refuses.
 * A write is never divided (its checks guard its mutations); one that cannot fit even alone
 * throws WriteTooLarge.
 */
export function packWrites<T extends KvWrite>(writes: T[], limits: KvLimits): T[][] {
  const packs: T[][] = [];
  let pack: T[] = [];
  let checks = 0, mutations = 0, keyBytes = 0;
  const within = (c: number, m: number, k: number) =>
    c <= limits.checks && m <= limits.mutations && k <= limits.keyBytes * 0.9;
  for (const w of writes) {
    const c = w.checks.length;
    const m = mutationsOf(w);
    const k = keyBytesOf(w);
    if (!within(c, m, k)) throw new WriteTooLarge(writeCost(w), limits);
    if (pack.length && !within(checks + c, mutations + m, keyBytes + k)) {
      packs.push(pack);
      pack = [];
      checks = mutations = keyBytes = 0;
    }
    pack.push(w);
    checks += c;
    mutations += m;
    keyBytes += k;
  }
  if (pack.length) packs.push(pack);
  return packs;
}

function keyBytesOf(w: KvWrite): number {
  let n = 0;
  for (const c of w.checks) n += keySize(c.key);
  for (const s of w.sets) n += keySize(s.key);
  for (const d of w.deletes) n += keySize(d);
  for (const s of w.sums ?? []) n += keySize(s.key);
  return n;
}

function toOp(kv: Deno.Kv, writes: KvWrite[]): Deno.AtomicOperation {
  const op = kv.atomic();
  for (const w of writes) {
    for (const c of w.checks) op.check(c);
    for (const d of w.deletes) op.delete(d);
    for (const s of w.sets) op.set(s.key, s.value);
    for (const e of w.enqueues) op.enqueue(e.value, { delay: e.delay });
    for (const c of w.sums ?? []) op.sum(c.key, c.value);
  }
  return op;
}

/** KV's refusal of a commit over its total size limits ("Total mutation size too large (max 819200 bytes)"). */
const tooLarge = (e: unknown) => e instanceof TypeError && /^Total (mutation|key) size too large/.test(e.message);

/**
 * Commits one pack, telling `landed` of every commit that applies part of it (so a pack halved
 * because KV found it too large is announced half by half, even if a later half throws).
 */
async function commitPack(
  kv: Deno.Kv,
  pack: KvWrite[],
  first: number,
  landed?: (first: number, stamps: (string | null)[]) => void,
): Promise<(string | null)[]> {
  let res: Deno.KvCommitResult | Deno.KvCommitError;
  try {
    res = await toOp(kv, pack).commit();
  } catch (e) {
    if (pack.length < 2 || !tooLarge(e)) throw e;
    const half = pack.length >> 1;
    const head = await commitPack(kv, pack.slice(0, half), first, landed);
    return [...head, ...await commitPack(kv, pack.slice(half), first + half, landed)];
  }
  let out: (string | null)[];
  if (res.ok) out = pack.map(() => res.versionstamp);
  else if (pack.length === 1) out = [null];
  else {
    // One of them conflicts: the others go on alone. Those that landed are announced even if a later one throws.
    out = [];
    try {
      for (const w of pack) {
        const one = await toOp(kv, [w]).commit();
        out.push(one.ok ? one.versionstamp : null);
      }
    } catch (e) {
      if (out.length) landed?.(first, out);
      throw e;
    }
  }
  landed?.(first, out);
  return out;
}

/** A key as a string, for telling whether two commits touch the same key. */
function keyId(k: Deno.KvKey): string {
  let id = "";
  for (const p of k) {
    id += typeof p === "string"
      ? `s${p}\u0000`
      : p instanceof Uint8Array
      ? `u${p.join(",")}\u0000`
      : `${typeof p}${String(p)}\u0000`;
  }
  return id;
}

/** The keys a pack reads (checks) or writes: sums apart, since sums on one key commute. */
interface PackKeys {
  exclusive: Set<string>;
  sums: Set<string>;
}

function packKeys(pack: KvWrite[]): PackKeys {
  const exclusive = new Set<string>(), sums = new Set<string>();
  for (const w of pack) {
    for (const c of w.checks) exclusive.add(keyId(c.key));
    for (const s of w.sets) exclusive.add(keyId(s.key));
    for (const d of w.deletes) exclusive.add(keyId(d));
    for (const s of w.sums ?? []) sums.add(keyId(s.key));
  }
  return { exclusive, sums };
}

/** Whether two packs must commit in their order (one checks or writes a key the other touches). */
function overlaps(a: PackKeys, b: PackKeys): boolean {
  const [small, large] = a.exclusive.size <= b.exclusive.size ? [a, b] : [b, a];
  for (const k of small.exclusive) if (large.exclusive.has(k) || large.sums.has(k)) return true;
  for (const k of small.sums) if (large.exclusive.has(k)) return true;
  return false;
}

/**
 * Commits `writes`, as few commits as the limits allow, up to `limits.inFlight` of them at once
 * (a pack waits for any earlier one in flight that checks or writes one of its keys, so the
 * result is the one committing them in order gives). Returns, per write, the versionstamp of the
 * commit that applied it, or null where its checks failed (the caller reads again and decides).
 * `landed` hears of each commit as it lands (the indexes of its writes and their versionstamps),
 * in the order they land. When a commit throws, no further pack starts; those in flight finish
 * (and are announced) and the first error is thrown.
 */
export async function commitWrites(
  kv: Deno.Kv,
  writes: KvWrite[],
  limits: KvLimits,
  landed?: (first: number, stamps: (string | null)[]) => void,
): Promise<(string | null)[]> {
  // One write is one commit whatever its size (KV itself refuses one too large): no need to weigh it.
  const packs = writes.length === 1 ? [writes] : packWrites(writes, limits);
  const window = Math.max(1, limits.inFlight ?? 1);
  if (packs.length === 1 || window === 1) {
    const out: (string | null)[] = [];
    for (const pack of packs) out.push(...await commitPack(kv, pack, out.length, landed));
    return out;
  }
  const out: (string | null)[] = new Array(writes.length).fill(null);
  const inFlight: { keys: PackKeys; done: Promise<void> }[] = [];
  let failure: { error: unknown } | null = null;
  let first = 0;
  for (const pack of packs) {
    const keys = packKeys(pack);
    for (;;) {
      const before = inFlight.filter((p) => overlaps(p.keys, keys));
      if (before.length) await Promise.all(before.map((p) => p.done));
      else if (inFlight.length >= window) await Promise.race(inFlight.map((p) => p.done));
      else break;
    }
    if (failure) break;
    const at = first;
    first += pack.length;
    const entry = {
      keys,
      done: commitPack(kv, pack, at, landed).then(
        (stamps) => stamps.forEach((s, i) => out[at + i] = s),
        (error) => void (failure ??= { error }),
      ).finally(() => inFlight.splice(inFlight.indexOf(entry), 1)),
    };
    inFlight.push(entry);
  }
  await Promise.all(inFlight.map((p) => p.done));
  if (failure) throw (failure as { error: unknown }).error;
  return out;
}

/** The most keys one getMany reads (KV Connect's limit, and the local KV's). */
export const GET_MANY_MAX = 10;

/** getMany calls a bulk read keeps in flight (a backend across a network pays a round trip each). */
const GET_MANY_IN_FLIGHT = 32;

/** Reads `keys` in order, as few getMany calls as GET_MANY_MAX allows, several at once. */
export async function getManyChunked<T>(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]> {
  const chunks: Deno.KvKey[][] = [];
  for (let i = 0; i < keys.length; i += GET_MANY_MAX) chunks.push(keys.slice(i, i + GET_MANY_MAX));
  const out: Deno.KvEntryMaybe<T>[] = [];
  for (let i = 0; i < chunks.length; i += GET_MANY_IN_FLIGHT) {
    const wave = await Promise.all(chunks.slice(i, i + GET_MANY_IN_FLIGHT).map((c) => kv.getMany<T[]>(c)));
    for (const entries of wave) out.push(...entries);
  }
  return out;
}
