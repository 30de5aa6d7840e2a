/**
 * The due index (what is due when) and the commits that write it: every scheduled piece of work
 * is an entry `["due", at, kind, ref]` written in the same commit as the change that schedules
 * it, carrying that change's record; where the KV has queues a delayed message goes with it.
 */
import type { Delivery } from "../webhooks/delivery_model.ts";
import type { Timer } from "../timers/record.ts";
import { commitWrites, getManyChunked, type KvLimits, type KvWrite, LOCAL_KV_LIMITS } from "./batch.ts";
import { key } from "./keys.ts";

/** How long after an item is due its queue wake-up arrives, leaving the in-process wake-up first. */
export const QUEUE_SLACK_MS = 3000;

/**
 * Queue wake-ups go only with changes due within this long. A process holds every deadline in
 * its due heap (armed from the index at each start) and sweeps what is overdue, so a wake-up for a
 * deadline further ahead adds nothing, and one per start or resume of a far-off timer would pile
 * up in the queue for up to 30 days each.
 */
export const QUEUE_HORIZON_MS = 3600_000;

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

/** A range of due entries' refs: from `start` up to, not including, `end` (null: to the last). */
export interface RefRange {
  start: string;
  end: string | null;
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

/** What a commit scheduled: due instants to arm, and deliveries written claimed by this process. */
export interface Committed {
  due: DueItem[];
  born: { delivery: Delivery; versionstamp: string }[];
}

export interface StoreOptions {
  /** Write queue wake-ups (kv.enqueue) alongside the due index. */
  useQueue: boolean;
  /** Limits of one commit on this backend (default: the local SQLite KV's). */
  limits?: KvLimits;
  /** The most instants a process remembers having a queue wake-up for (default 100 000). */
  maxWoken?: number;
}

/** Told after every commit of what it scheduled (the scheduler arms and sends); passed by each caller. */
export type OnCommitted = (c: Committed) => void;

/** A due entry as listed: its item, the record it carries, and the versionstamp of the commit that wrote both. */
export interface DueEntry {
  item: DueItem;
  value: DueValue;
  versionstamp: string;
}

/** The queue message that wakes an instant up, and its delay. */
function wakeAt(at: number, now: number): { value: QueueMessage; delay: number } {
  return {
    value: { kind: "instant", at },
    delay: Math.max(0, at - now) + QUEUE_SLACK_MS,
  };
}

export const dueKey = (i: DueItem) => key.due(i.at, i.kind, i.ref);

/**
 * The keys to delete when a due entry goes: the entry, and the record beside it unless it has
 * none (`withRecord` false: an expiry, or a running claim).
 */
export function dueKeys(i: DueItem, withRecord = i.kind !== "expire"): Deno.KvKey[] {
  return withRecord ? [dueKey(i), key.dueRecord(i.at, i.kind, i.ref)] : [dueKey(i)];
}

/** Whether a due value carries its record (kept under the record prefix). */
const hasRecord = (v: DueValue) =>
  (v.kind === "timer" && v.timer !== undefined) || (v.kind === "delivery" && v.delivery !== undefined);

function toEntry(e: Deno.KvEntry<unknown>): DueEntry {
  const [, at, kind, ref] = e.key.length === 3
    ? [e.key[0], e.key[1], "expire", e.key[2]] as [string, number, DueKind, string]
    : e.key as [string, number, DueKind, string];
  // Entries written by older versions hold a queue message: no record then (the step reads it).
  const v = e.value as DueValue;
  const value = v?.kind === kind ? v : { kind } as DueValue;
  return { item: { at, kind, ref }, value, versionstamp: e.versionstamp };
}

/** The listings of an instant's records: all of it, or the refs in `ranges` of each kind that has records. */
function recordSelectors(at: number, ranges: RefRange[] | null): Deno.KvListSelector[] {
  if (ranges === null) return [{ prefix: key.dueRecordsAt(at) }];
  return (["timer", "delivery"] as const).flatMap((kind) =>
    ranges.map((r) => {
      // A selector has a prefix or a start and an end, never all three.
      const prefix = key.dueRecordsAt(at, kind);
      if (r.end === null) return r.start ? { prefix, start: [...prefix, r.start] } : { prefix };
      return r.start ? { start: [...prefix, r.start], end: [...prefix, r.end] } : { prefix, end: [...prefix, r.end] };
    })
  );
}

/** Pages of several listings read side by side, each as it comes (each keeps one page read ahead). */
async function* merged(lists: AsyncGenerator<DueEntry[]>[]): AsyncGenerator<DueEntry[]> {
  // A read never rejects unheard: one still under way when the reader stops (the process stops, its
  // KV closes) would otherwise be an unhandled rejection, which ends the process.
  const read = (i: number) =>
    lists[i].next().then((r) => ({ i, r, error: undefined }), (error) => ({ i, r: null, error }));
  const next = new Map(lists.map((_, i) => [i, read(i)]));
  try {
    while (next.size) {
      const { i, r, error } = await Promise.race(next.values());
      if (!r) throw error;
      if (r.done) {
        next.delete(i);
        continue;
      }
      next.set(i, read(i));
      yield r.value;
    }
  } finally {
    // Left early (the process stops) or failed: the listings still open are closed.
    for (const i of next.keys()) void lists[i].return(undefined).catch(() => {});
  }
}

/** A listing in pages of due entries. */
async function* pages(iter: Deno.KvListIterator<unknown>, size: number): AsyncGenerator<DueEntry[]> {
  let page: DueEntry[] = [];
  for await (const e of iter) {
    page.push(toEntry(e));
    if (page.length >= size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/** The index and the commits that write it, shared by the timer and delivery stores. */
export class DueIndex {
  constructor(readonly kv: Deno.Kv, readonly opts: StoreOptions) {}

  /** Instants this process has a queue wake-up for already (one message wakes everything due then). */
  #woken = new Set<number>();

  /** Adds a due entry, and a queue wake-up for its instant unless one was written already, to a write. */
  addDue(w: KvWrite, d: DueWrite, now: number): void {
    // The entry itself stays small (arming reads every one at start); its record goes beside it.
    // A running claim names its claimer, so a restarted process can take over a dead one's claims.
    const { at, kind, ref } = d.item;
    const by = d.value.kind === "delivery" ? d.value.by : undefined;
    const marker = kind === "delivery" && !hasRecord(d.value) ? { kind, by } : { kind };
    w.sets.push({ key: key.due(at, kind, ref), value: marker });
    if (hasRecord(d.value)) w.sets.push({ key: key.dueRecord(at, kind, ref), value: d.value });
    if (!this.opts.useQueue || !d.wake || d.item.at - now > QUEUE_HORIZON_MS) return;
    if (this.#woken.has(d.item.at) && d.item.at > now) return;
    w.enqueues.push(wakeAt(d.item.at, now));
  }

  /** Remembers the instants whose wake-ups a landed commit wrote. */
  #wrote(w: KvWrite, now: number): void {
    if (!w.enqueues.length) return;
    const max = this.opts.maxWoken ?? 100_000;
    if (this.#woken.size > max) {
      for (const at of this.#woken) if (at < now) this.#woken.delete(at);
      // An hour of distinct instants can fill it too: it only spares duplicate wake-ups, so it starts over.
      if (this.#woken.size > max / 2) this.#woken.clear();
    }
    for (const e of w.enqueues) this.#woken.add((e.value as QueueMessage).at);
  }

  /** How many instants this process remembers having a queue wake-up for (about `maxWoken` at most). */
  get wokenInstants(): number {
    return this.#woken.size;
  }

  get limits(): KvLimits {
    return this.opts.limits ?? LOCAL_KV_LIMITS;
  }

  /** Whether this KV is across a network (it keeps more commits in flight than a local file). */
  get remote(): boolean {
    return (this.limits.inFlight ?? 1) > LOCAL_KV_LIMITS.inFlight!;
  }

  /** Commits writes sized to the limits; tells `onCommitted` what the applied ones scheduled. */
  async commit(writes: KvWrite[], scheduled: Committed[], onCommitted?: OnCommitted): Promise<(string | null)[]> {
    // Each commit is announced as it lands: its deliveries go out while the next one is written.
    const now = Date.now();
    const stamps = await commitWrites(this.kv, writes, this.limits, (first, stamps) => {
      const out: Committed = { due: [], born: [] };
      stamps.forEach((vs, i) => {
        if (vs === null) return;
        this.#wrote(writes[first + i], now);
        const s = scheduled[first + i];
        for (const d of s.due) out.due.push(d);
        for (const b of s.born) out.born.push({ delivery: b.delivery, versionstamp: vs });
      });
      if (out.due.length || out.born.length) onCommitted?.(out);
    });
    // Not knowing is no error of the commit's: what landed unannounced is the sweep's once its claims run out.
    if (onCommitted) await this.#landedAfterAll(stamps, scheduled, onCommitted).catch(() => {});
    return stamps;
  }

  /**
   * A commit refused may have landed all the same: over a network its answer can be lost and the
   * call made again (Deno's KV Connect client does so while the server restarts), the second try
   * failing on the first's write. A write that bore deliveries tells: their ids are new, so any of
   * them stored means it landed. What it scheduled is announced then (its deliveries sent now, not
   * once their claims run out); the caller still reads again and decides, finding its own change.
   */
  async #landedAfterAll(stamps: (string | null)[], scheduled: Committed[], onCommitted: OnCommitted): Promise<void> {
    const refused = scheduled.filter((s, n) => stamps[n] === null && s.born.length);
    if (!refused.length) return;
    const firstBorn = refused.map((s) => s.born[0].delivery);
    const found = await getManyChunked<Delivery>(this.kv, firstBorn.map((d) => key.delivery(d.timer_id, d.id)));
    const landed = refused.filter((_, n) => found[n].versionstamp !== null);
    if (!landed.length) return;
    const born = landed.flatMap((s) => s.born.map((b) => b.delivery));
    const current = await getManyChunked<Delivery>(this.kv, born.map((d) => key.delivery(d.timer_id, d.id)));
    // Only a claim still as this write made it: one taken over meanwhile (this process thought gone
    // while its call was retried) is its taker's to send, one changed otherwise is whoever changed it's.
    const asWritten = (d: Delivery | null, n: number): d is Delivery =>
      d !== null && d.claimed === true && d.state === "pending" && d.claimed_by === born[n].claimed_by &&
      d.next_attempt_at === born[n].next_attempt_at && d.attempts.length === born[n].attempts.length;
    onCommitted({
      due: landed.flatMap((s) => s.due),
      born: current.flatMap((e, n) =>
        asWritten(e.value, n) && e.versionstamp ? [{ delivery: e.value, versionstamp: e.versionstamp }] : []
      ),
    });
  }

  /** Due entries at or before `until`, page by page: those with records first, then the rest. */
  async *overdue(until: number, pageSize = 500): AsyncGenerator<DueEntry[]> {
    yield* this.#withRecords(key.dueRecordsBefore(until + 1), key.dueBefore(until + 1), pageSize);
    yield* pages(this.kv.list(key.expiriesBefore(until + 1), { batchSize: pageSize }), pageSize);
  }

  /** Entries with their records from `records`, then those of `entries` that have none. */
  async *#withRecords(
    records: Deno.KvListSelector,
    entries: Deno.KvListSelector,
    pageSize: number,
  ): AsyncGenerator<DueEntry[]> {
    const seen = new Set<string>();
    for await (const page of pages(this.kv.list(records, { batchSize: pageSize }), pageSize)) {
      for (const e of page) seen.add(`${e.item.at}|${e.item.kind}|${e.item.ref}`);
      yield page;
    }
    for await (const page of pages(this.kv.list(entries, { batchSize: pageSize }), pageSize)) {
      const rest = page.filter((e) => !seen.has(`${e.item.at}|${e.item.kind}|${e.item.ref}`));
      if (rest.length) yield rest;
    }
  }

  /** Every due entry, page by page (restart: arm everything). */
  async *allDue(pageSize = 250): AsyncGenerator<DueItem[]> {
    let page: DueItem[] = [];
    // Entries only, no records: 100 000 deadlines are armed without decoding 100 000 timers.
    // Small batches: few entries live across an await, so they die young instead of filling the old heap.
    for await (const e of this.kv.list({ prefix: key.dues() }, { batchSize: pageSize })) {
      const [, at, kind, ref] = e.key as [string, number, DueKind, string];
      page.push({ at, kind, ref });
      if (page.length >= pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length) yield page;
  }

  /**
   * The records due at these instants, in pages that gather several instants (after downtime
   * many come at once): armed work carries its record; entries without one are the sweep's.
   * `ranges`: only the records whose refs fall in them (null: all), read side by side over a
   * network; and `also` these, read by key.
   */
  async *recordsAt(
    instants: number[],
    ranges: RefRange[] | null = null,
    also: DueItem[] = [],
    pageSize = 500,
  ): AsyncGenerator<DueEntry[]> {
    // Over a network (commits many at a time) the ranges are read side by side: a burst's records
    // come in a few round trips, not one per page.
    let page: DueEntry[] = [];
    for (const at of instants) {
      const listed = recordSelectors(at, ranges).map((s) => this.#listed(s, pageSize));
      const lists = this.remote ? [merged(listed)] : listed;
      for (const list of lists) {
        for await (const part of list) {
          for (const e of part) {
            page.push(e);
            if (page.length >= pageSize) {
              yield page;
              page = [];
            }
          }
        }
      }
    }
    if (page.length) yield page;
    // In pages too: a burst created through this instance can leave thousands here.
    for (let i = 0; i < also.length; i += pageSize) {
      const keys = also.slice(i, i + pageSize).map((x) => key.dueRecord(x.at, x.kind, x.ref));
      const found = await getManyChunked(this.kv, keys);
      const rest = found.flatMap((e) => e.versionstamp === null ? [] : [toEntry(e as Deno.KvEntry<unknown>)]);
      if (rest.length) yield rest;
    }
  }

  /** Due entries listed by `selectors`, in pages. */
  #listed(selector: Deno.KvListSelector, pageSize: number): AsyncGenerator<DueEntry[]> {
    return pages(this.kv.list(selector, { batchSize: pageSize }), pageSize);
  }

  /** Everything due at one instant, page by page (a queue wake-up). */
  async *entriesAt(at: number, pageSize = 500): AsyncGenerator<DueEntry[]> {
    yield* this.#withRecords({ prefix: key.dueRecordsAt(at) }, { prefix: key.dueAt(at) }, pageSize);
  }

  /** Due entries after `from` up to `until`, page by page (running claims, to find a dead instance's). */
  async *dueBetween(from: number, until: number, pageSize = 1000): AsyncGenerator<DueEntry[]> {
    yield* pages(
      this.kv.list({ start: key.dueAt(from + 1), end: key.dueAt(until + 1) }, { batchSize: pageSize }),
      pageSize,
    );
  }

  /** Writes this instance's heartbeat counter (a value that changes while it lives; lease.ts); returns its commit's versionstamp. */
  async beat(instance: string, counter: number | string): Promise<string> {
    return (await this.kv.set(key.instance(instance), counter, { expireIn: 86400_000 })).versionstamp;
  }

  /** The last heartbeat of each instance (null: none). */
  async heartbeats(instances: string[]): Promise<Map<string, unknown>> {
    const entries = await getManyChunked<unknown>(this.kv, instances.map(key.instance));
    return new Map(entries.map((e, n) => [instances[n], e.value]));
  }

  /**
   * Removes one due entry found stale, only if it is still the entry that was read: the same
   * work scheduled again meanwhile (a reset writes an event's key anew) keeps its fresh entry.
   */
  async deleteDue({ item, versionstamp }: Pick<DueEntry, "item" | "versionstamp">): Promise<void> {
    // Expiries written before they moved apart are read (and deleted) under their old key.
    const keys = item.kind === "expire" ? [dueKey(item), [...key.dueAt(item.at, item.kind), item.ref]] : [dueKey(item)];
    for (const k of keys) {
      const op = this.kv.atomic().check({ key: k, versionstamp }).delete(k);
      if (k === keys[0]) { for (const r of dueKeys(item).slice(1)) op.delete(r); }
      if ((await op.commit()).ok) return;
    }
  }

  /**
   * Re-sends the queue wake-up of an instant the queue delivered early, once it is within the
   * horizon (older versions wrote wake-ups up to 30 days ahead; the due heap holds further ones).
   */
  async requeue(at: number, now: number): Promise<void> {
    if (!this.opts.useQueue || at - now > QUEUE_HORIZON_MS) return;
    const { value, delay } = wakeAt(at, now);
    await this.kv.enqueue(value, { delay });
  }
}
