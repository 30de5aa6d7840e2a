/**
 * Webhook deliveries in Deno KV: each one guarded by its versionstamp, its due entry (the next
 * attempt, or the running claim) written with it, many per commit as the limits allow.
 */
import { type Delivery, type DeliveryChange } from "../webhooks/delivery_model.ts";
import { addCount, emptyWrite, getManyChunked, type KvWrite } from "./batch.ts";
import { deliveryDue, DueIndex, dueKeys, type OnCommitted } from "./due.ts";
import { key, pageCursor } from "./keys.ts";
import { acctDeliveryEntry } from "./delivery_index.ts";

export type DeliveryEntry = { delivery: Delivery; versionstamp: string };

export class DeliveryStore extends DueIndex {
  async getDelivery(timerId: string, id: string): Promise<DeliveryEntry | null> {
    const e = await this.kv.get<Delivery>(key.delivery(timerId, id));
    return e.value ? { delivery: e.value, versionstamp: e.versionstamp! } : null;
  }

  /** Reads deliveries by `timerId/deliveryId`. */
  async getDeliveries(refs: string[]): Promise<(DeliveryEntry | null)[]> {
    const keys = refs.map((r) => key.delivery(...(r.split("/") as [string, string])));
    const entries = await getManyChunked<Delivery>(this.kv, keys);
    return entries.map((e) => e.value ? { delivery: e.value, versionstamp: e.versionstamp! } : null);
  }

  /**
   * Per account, the versionstamp of the last commit that deleted one of its timers (null: none
   * ever): every timer's delete writes its account's sequence key (timers.ts, `deleteTimer`), as
   * creations on a limited plan do too.
   */
  async lastDeletes(accounts: string[]): Promise<(string | null)[]> {
    return (await getManyChunked(this.kv, accounts.map((a) => key.acctSeq(a)))).map((e) => e.versionstamp);
  }

  /**
   * Stores a delivery that needs no scheduling (the webhook test's record), if its timer still
   * exists: a timer deleted while the test was sent has had its log purged, and a record written
   * after that would stay in KV for ever. False when the timer is gone.
   */
  async putDelivery(d: Delivery): Promise<boolean> {
    for (;;) {
      const timer = await this.kv.get(key.timer(d.timer_id));
      if (timer.versionstamp === null) return false;
      const index = acctDeliveryEntry(d);
      const op = this.kv.atomic().check(timer).set(key.delivery(d.timer_id, d.id), d).set(index.key, index.value)
        .sum(key.logCount(d.timer_id), 1n);
      if (d.state === "failed") op.sum(key.logFailed(d.timer_id), 1n);
      const res = await op.commit();
      if (res.ok) return true; // else the timer changed meanwhile (a running interval does each round): again
    }
  }

  /** The write of one delivery change: the record, and its due entry moved to the new instant. */
  deliveryWrite(c: DeliveryChange, now: number): KvWrite {
    const w = emptyWrite();
    const { prev, next } = c;
    w.checks.push({ key: key.delivery(prev.timer_id, prev.id), versionstamp: c.versionstamp });
    // A claim never lands for a timer whose delete is still removing its deliveries.
    if (next.claimed) w.checks.push({ key: key.timerGone(prev.timer_id), versionstamp: null });
    w.sets.push({ key: key.delivery(next.timer_id, next.id), value: next });
    if ((prev.state === "failed") !== (next.state === "failed")) {
      addCount(w, key.logFailed(prev.timer_id), next.state === "failed" ? 1 : -1);
    }
    const due = deliveryDue(next);
    if (prev.next_attempt_at !== null && prev.next_attempt_at !== next.next_attempt_at) {
      const item = { at: prev.next_attempt_at, kind: "delivery" as const, ref: `${prev.timer_id}/${prev.id}` };
      w.deletes.push(...dueKeys(item, !prev.claimed));
    }
    // Rewritten even when the instant stays, so the entry carries the current record.
    if (due) this.addDue(w, prev.next_attempt_at !== next.next_attempt_at ? due : { ...due, wake: false }, now);
    return w;
  }

  /**
   * Commits delivery changes, as few commits as the limits allow. Returns the versionstamp per
   * change, or null where the delivery changed meanwhile. `arm`: the scheduler arms the new instants.
   */
  async commitDeliveries(
    changes: DeliveryChange[],
    now: number,
    arm = true,
    onCommitted?: OnCommitted,
  ): Promise<(string | null)[]> {
    const writes = changes.map((c) => this.deliveryWrite(c, now));
    const scheduled = changes.map((c) => ({
      due: arm && c.next.next_attempt_at !== null && !c.next.claimed ? [deliveryDue(c.next)!.item] : [],
      born: [],
    }));
    return await this.commit(writes, scheduled, onCommitted);
  }

  /**
   * One delivery's change; returns the commit's versionstamp, or null if it changed meanwhile (or,
   * with `timerVersion`, if its timer did: the versionstamp the timer was read at).
   */
  async updateDelivery(
    versionstamp: string,
    prev: Delivery,
    next: Delivery,
    now: number,
    timerVersion?: string,
    onCommitted?: OnCommitted,
  ): Promise<string | null> {
    const w = this.deliveryWrite({ versionstamp, prev, next }, now);
    // A rundown's deliveries are grouped under its id: checked against the rundown.
    const owner = prev.timer_id.startsWith("rdn_") ? key.rundown(prev.timer_id) : key.timer(prev.timer_id);
    if (timerVersion !== undefined) w.checks.push({ key: owner, versionstamp: timerVersion });
    const due = next.next_attempt_at !== null && !next.claimed ? [deliveryDue(next)!.item] : [];
    return (await this.commit([w], [{ due, born: [] }], onCommitted))[0];
  }

  /** A page of a timer's deliveries, newest first; `next_cursor` is null on the last page. */
  async listDeliveries(timerId: string, opts: { limit: number; cursor?: string; now?: number }) {
    // One entry past the page says whether another page follows, so a full last page ends with null.
    const iter = this.kv.list<Delivery>({ prefix: key.deliveries(timerId) }, {
      reverse: true,
      limit: opts.limit + 1,
      cursor: pageCursor.unwrap("d", opts.cursor),
    });
    const deliveries: Delivery[] = [];
    let after = "", more = false;
    for await (const e of iter) {
      if (deliveries.length === opts.limit) {
        more = true;
        break;
      }
      deliveries.push(e.value);
      after = iter.cursor;
    }
    return { deliveries, next_cursor: more ? pageCursor.wrap("d", after) : null };
  }

  /** A timer's whole delivery log, newest first. */
  async deliveryLog(timerId: string): Promise<DeliveryEntry[]> {
    const out: DeliveryEntry[] = [];
    const iter = this.kv.list<Delivery>({ prefix: key.deliveries(timerId) }, { reverse: true, batchSize: 1000 });
    for await (const e of iter) out.push({ delivery: e.value, versionstamp: e.versionstamp });
    return out;
  }

  /** How many deliveries the timer's log holds and how many failed (null: a log older than its counters). */
  async logCounts(timerId: string): Promise<{ count: number | null; failed: number }> {
    const [n, f] = await this.kv.getMany<[Deno.KvU64, Deno.KvU64]>([key.logCount(timerId), key.logFailed(timerId)]);
    // A counter taken below zero (a log older than its counters) wrapped around: not a count then.
    const read = (c: Deno.KvU64 | null) => c === null || c.value >= 1n << 63n ? null : Number(c.value);
    return { count: read(n.value), failed: read(f.value) ?? 0 };
  }

  /** Starts the counters of a log written before them, unless a commit started them meanwhile. */
  async startLogCounts(timerId: string, count: number, failed: number): Promise<void> {
    await this.kv.atomic().check({ key: key.logCount(timerId), versionstamp: null })
      .set(key.logCount(timerId), new Deno.KvU64(BigInt(count)))
      .set(key.logFailed(timerId), new Deno.KvU64(BigInt(failed))).commit();
  }

  /** The oldest `limit` deliveries of a timer's log, oldest first. */
  async oldestDeliveries(timerId: string, limit: number): Promise<DeliveryEntry[]> {
    const out: DeliveryEntry[] = [];
    const iter = this.kv.list<Delivery>({ prefix: key.deliveries(timerId) }, {
      limit,
      batchSize: Math.min(limit, 500),
    });
    for await (const e of iter) out.push({ delivery: e.value, versionstamp: e.versionstamp });
    return out;
  }

  /**
   * Deletes deliveries (with their due entries) unless they changed since read; returns how many
   * went. `counted` false: the log has no counters yet (written by an older version).
   */
  async deleteDeliveries(entries: DeliveryEntry[], counted = true): Promise<number> {
    const writes = entries.map(({ delivery: d, versionstamp }) => {
      const w = emptyWrite();
      w.checks.push({ key: key.delivery(d.timer_id, d.id), versionstamp });
      w.deletes.push(key.delivery(d.timer_id, d.id), acctDeliveryEntry(d).key);
      if (counted) addCount(w, key.logCount(d.timer_id), -1);
      if (counted && d.state === "failed") addCount(w, key.logFailed(d.timer_id), -1);
      if (d.next_attempt_at !== null) {
        w.deletes.push(
          ...dueKeys({ at: d.next_attempt_at, kind: "delivery", ref: `${d.timer_id}/${d.id}` }, !d.claimed),
        );
      }
      return w;
    });
    const stamps = await this.commit(writes, writes.map(() => ({ due: [], born: [] })));
    return stamps.filter((s) => s !== null).length;
  }
}
