/**
 * The due index (what is due when) and the commits that write it: every scheduled piece of work
 * is an entry `["due", at, kind, ref]` written in the same commit as the change that schedules
 * it, carrying that change's record; where the KV has queues a delayed message goes with it.
 */
import type { Delivery } from "../webhooks/deliveries.ts";
import type { DueItem, DueKind, DueValue, DueWrite } from "../timers/changes.ts";
import { commitWrites, type KvLimits, type KvWrite, LOCAL_KV_LIMITS } from "./batch.ts";
import { key } from "./keys.ts";

/** How long after an item is due its queue wake-up arrives, leaving the in-process wake-up first. */
export const QUEUE_SLACK_MS = 3000;

/** The longest delay a KV queue message may carry. */
const MAX_QUEUE_DELAY_MS = 30 * 86400_000 - 60_000;

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
  /** Told after every commit of what it scheduled (the scheduler arms and sends). */
  onCommitted?: (c: Committed) => void;
  /** Deliveries due at once are written claimed for this long by the committing process (0: unclaimed). */
  leaseMs?: number;
}

/** A due entry as listed: its item, the record it carries, and the versionstamp of the commit that wrote both. */
export interface DueEntry {
  item: DueItem;
  value: DueValue;
  versionstamp: string;
}

/** Adds a due entry (and its queue wake-up) to a write. */
export function addDue(w: KvWrite, d: DueWrite, useQueue: boolean, now: number): void {
  w.sets.push({ key: key.due(d.item.at, d.item.kind, d.item.ref), value: d.value });
  if (useQueue && d.wake) {
    w.enqueues.push({
      value: d.wake,
      delay: Math.min(MAX_QUEUE_DELAY_MS, Math.max(0, d.item.at - now) + QUEUE_SLACK_MS),
    });
  }
}

export const dueKey = (i: DueItem) => key.due(i.at, i.kind, i.ref);

function toEntry(e: Deno.KvEntry<unknown>): DueEntry {
  const [, at, kind, ref] = e.key as [string, number, DueKind, string];
  // Entries written before they carried their record hold a queue message: no record then.
  const v = e.value as DueValue;
  const value: DueValue = v && (("timer" in v && v.timer) || ("delivery" in v && v.delivery))
    ? v
    : { kind: "expire", id: kind === "expire" ? ref : "" };
  return { item: { at, kind, ref }, value, versionstamp: e.versionstamp };
}

/** The index and the commits that write it, shared by the timer and delivery stores. */
export class DueIndex {
  constructor(readonly kv: Deno.Kv, readonly opts: StoreOptions) {}

  get limits(): KvLimits {
    return this.opts.limits ?? LOCAL_KV_LIMITS;
  }

  /** Commits writes sized to the limits; tells the scheduler what the applied ones scheduled. */
  async commit(writes: KvWrite[], scheduled: Committed[]): Promise<(string | null)[]> {
    const stamps = await commitWrites(this.kv, writes, this.limits);
    const out: Committed = { due: [], born: [] };
    stamps.forEach((vs, n) => {
      if (vs === null) return;
      out.due.push(...scheduled[n].due);
      for (const b of scheduled[n].born) out.born.push({ delivery: b.delivery, versionstamp: vs });
    });
    if (out.due.length || out.born.length) this.opts.onCommitted?.(out);
    return stamps;
  }

  /** Due entries at or before `until`, oldest first, at most `limit`. */
  async dueUntil(until: number, limit = 10_000, after?: DueItem): Promise<DueEntry[]> {
    const out: DueEntry[] = [];
    const range = after
      ? { start: [...dueKey(after), ""], end: ["due", until + 1] }
      : { start: ["due"], end: ["due", until + 1] };
    for await (const e of this.kv.list(range, { limit, batchSize: 1000 })) out.push(toEntry(e));
    return out;
  }

  /** Every due entry, page by page (restart: arm everything). */
  async *allDue(pageSize = 5000): AsyncGenerator<DueItem[]> {
    let page: DueItem[] = [];
    for await (const e of this.kv.list({ prefix: ["due"] }, { batchSize: 1000 })) {
      const [, at, kind, ref] = e.key as [string, number, DueKind, string];
      page.push({ at, kind, ref });
      if (page.length >= pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length) yield page;
  }

  /** The current entries of these items (one range read per instant and kind); missing ones are stale. */
  async dueEntries(items: DueItem[]): Promise<Map<string, DueEntry>> {
    const groups = new Map<string, DueItem[]>();
    for (const i of items) {
      const g = `${i.at}|${i.kind}`;
      const list = groups.get(g);
      if (list) list.push(i);
      else groups.set(g, [i]);
    }
    const out = new Map<string, DueEntry>();
    for (const list of groups.values()) {
      const { at, kind } = list[0];
      if (list.length <= 10) {
        const entries = await this.kv.getMany(list.map(dueKey));
        for (const e of entries) if (e.versionstamp) out.set(`${kind}:${(e.key as string[])[3]}`, toEntry(e));
      } else {
        for await (const e of this.kv.list({ prefix: ["due", at, kind] }, { batchSize: 1000 })) {
          out.set(`${kind}:${(e.key as string[])[3]}`, toEntry(e));
        }
      }
    }
    return out;
  }

  /** Removes one due entry (work found stale or done). */
  async deleteDue(item: DueItem): Promise<void> {
    await this.kv.delete(dueKey(item));
  }

  /** Re-sends a queue wake-up for an entry the queue delivered early (delays cap at 30 days). */
  async requeue(d: DueWrite, now: number): Promise<void> {
    if (!this.opts.useQueue || !d.wake) return;
    await this.kv.enqueue(d.wake, {
      delay: Math.min(MAX_QUEUE_DELAY_MS, Math.max(0, d.item.at - now) + QUEUE_SLACK_MS),
    });
  }
}
