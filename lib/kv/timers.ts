/**
 * Timers in Deno KV: a change computed by the service (lib/timers/changes.ts) is written as one
 * atomic unit — the timer guarded by its versionstamp, its due entries and the deliveries its
 * events cause — and many changes go in as few commits as the backend's limits allow.
 */
import type { Delivery } from "../webhooks/delivery_model.ts";
import type { Timer, TimerType } from "../timers/record.ts";
import { addCount, commitWrites, emptyWrite, fits, getManyChunked, type KvWrite, writeCost } from "./batch.ts";
import { type Committed, DueIndex, type DueItem, dueKeys, type DueWrite, type OnCommitted } from "./due.ts";
import { key, pageCursor } from "./keys.ts";
import { acctDeliveryEntry } from "./delivery_index.ts";

/** The whole change a timer's transition causes, as planned (lib/timers/changes.ts): written in one commit. */
export interface TimerChange {
  /** The record this change replaces (null: a new timer) and the versionstamp it was read at. */
  prev: Timer | null;
  versionstamp: string | null;
  /** The timer as it will be stored. */
  timer: Timer;
  /** Deliveries of its events, written with it. */
  deliveries: Delivery[];
  dueSet: DueWrite[];
  dueDelete: DueItem[];
}

export type TimerEntry = { timer: Timer; versionstamp: string };

export class TimerStore extends DueIndex {
  async getTimer(id: string): Promise<TimerEntry | null> {
    const e = await this.kv.get<Timer>(key.timer(id));
    return e.value ? { timer: e.value, versionstamp: e.versionstamp! } : null;
  }

  /** Reads timers by id. */
  async getTimers(ids: string[]): Promise<(TimerEntry | null)[]> {
    const entries = await getManyChunked<Timer>(this.kv, ids.map(key.timer));
    return entries.map((e) => e.value ? { timer: e.value, versionstamp: e.versionstamp! } : null);
  }

  /** A stream of the timer's entry: now, then after every change (same process, or managed KV). */
  watchTimer(id: string): ReadableStream<[Deno.KvEntryMaybe<Timer>]> {
    return this.kv.watch<[Timer]>([key.timer(id)]);
  }

  /** The write of one change, and what it schedules once committed. */
  timerWrite(c: TimerChange): { write: KvWrite; scheduled: Committed } {
    const w = emptyWrite();
    const t = c.timer;
    w.checks.push({ key: key.timer(t.id), versionstamp: c.versionstamp });
    w.sets.push({ key: key.timer(t.id), value: t });
    if (!c.prev || c.prev.expires_at !== t.expires_at) {
      // The account's listings carry expires_at: live timers are counted and listed from them.
      w.sets.push({ key: key.acctTimer(t.account_id, t.created_at, t.id), value: t.expires_at });
      w.sets.push({ key: key.acctTimerByType(t.account_id, t.type, t.created_at, t.id), value: t.expires_at });
    }
    const setKeys = new Set(c.dueSet.map((d) => `${d.item.at}|${d.item.kind}|${d.item.ref}`));
    for (const d of c.dueDelete) if (!setKeys.has(`${d.at}|${d.kind}|${d.ref}`)) w.deletes.push(...dueKeys(d));
    const now = t.changed_at ?? t.created_at;
    for (const d of c.dueSet) this.addDue(w, d, now);
    const born: { delivery: Delivery; versionstamp: string }[] = [];
    // The log's length is counted as it grows, so trimming it reads only what is beyond the bound.
    if (c.deliveries.length) addCount(w, key.logCount(t.id), c.deliveries.length);
    for (const d of c.deliveries) {
      w.sets.push({ key: key.delivery(d.timer_id, d.id), value: d }, acctDeliveryEntry(d));
      if (d.claimed) born.push({ delivery: d, versionstamp: "" });
    }
    // A claim is not armed: its claimer sends it now; the sweep takes it over if the claim runs out.
    const due = c.dueSet.filter((d) => !(d.value.kind === "delivery" && !d.value.delivery)).map((d) => d.item);
    return { write: w, scheduled: { due, born } };
  }

  /**
   * Commits timer changes, each guarded by the versionstamp it was read at. Returns the
   * versionstamp per change, or null where the timer changed meanwhile (read again, decide again).
   */
  async commitTimers(changes: TimerChange[], onCommitted?: OnCommitted): Promise<(string | null)[]> {
    const parts = changes.map((c) => this.timerWrite(c));
    return await this.commit(parts.map((p) => p.write), parts.map((p) => p.scheduled), onCommitted);
  }

  /**
   * Stores a new timer unless the account already holds `limit` live timers. All creations
   * and deletions of an account check one sequence key, so concurrent ones cannot overshoot.
   */
  async createTimer(
    change: TimerChange,
    limit: number | null,
    now: number,
    guard?: Deno.AtomicCheck,
    onCommitted?: OnCommitted,
  ): Promise<"ok" | "limit" | "key gone"> {
    const t = change.timer;
    for (;;) {
      const { write, scheduled } = this.timerWrite(change);
      // The API key used must still exist when the timer lands (a key cached elsewhere outlives its revocation, or
      // its account's deletion, by seconds). A check costs no read; the key's index entry rarely changes.
      if (guard) write.checks.push(guard);
      if (limit !== null) {
        // Only limited plans serialise their creations; unlimited ones never contend.
        const seq = await this.kv.get<number>(key.acctSeq(t.account_id));
        if (await this.countLive(t.account_id, now, limit) >= limit) return "limit";
        write.checks.push(seq);
        write.sets.push({ key: key.acctSeq(t.account_id), value: (seq.value ?? 0) + 1 });
      }
      const [vs] = await this.commit([write], [scheduled], onCommitted);
      if (vs) return "ok";
      const stored = await this.kv.get<Timer>(key.timer(t.id));
      // Landed all the same (its answer lost and the call made again): the control token is this
      // creation's own. Asked first: the key may have been revoked since it landed.
      if (stored.value?.control_token_hash === t.control_token_hash) {
        onCommitted?.({ due: scheduled.due, born: [] });
        return "ok";
      }
      if (stored.versionstamp) throw new Error("timer id collision; try again");
      if (guard) {
        const current = (await this.kv.get(guard.key)).versionstamp;
        if (current === null) return "key gone";
        // Rewritten, not removed (an old record's upgrade): check the entry as it is now.
        if (current !== guard.versionstamp) guard = { key: guard.key, versionstamp: current };
      }
    }
  }

  /** Live (unexpired) timers of an account, counting at most `upTo`. */
  async countLive(acct: string, now: number, upTo: number): Promise<number> {
    let n = 0;
    for await (const e of this.kv.list<number>({ prefix: key.acctTimers(acct) })) {
      if (e.value > now && ++n >= upTo) break;
    }
    return n;
  }

  /**
   * Deletes a timer with its indexes, due entries and delivery log, in one commit where it fits.
   * A log too large for one commit leaves a tombstone in the timer's commit: no claim of its
   * deliveries lands while it stands, and whoever finds it (this call, or a later sweep through
   * `finishDeletes`) removes the rest and then the tombstone — never half done. `decided`: what
   * else the delete is decided on, asked again at every try with the timer as read (it may throw
   * to refuse); its checks go into the timer's commit. False: no timer to delete when it began.
   *
   * A commit refused, then the timer found gone, counts as deleted: its answer was lost and the
   * call made again, the second try failing on the first's write (KV Connect, its server
   * restarting), or a concurrent delete of the same timer landed first (that call answers the same).
   * Its tombstone, if it wrote one, is then removed here as well.
   */
  async deleteTimer(id: string, decided?: (t: Timer) => Promise<Deno.AtomicCheck[]>): Promise<boolean> {
    let refused: "whole" | "tombstone" | null = null;
    for (;;) {
      const entry = await this.kv.get<Timer>(key.timer(id));
      const t = entry.value;
      if (!t && refused === "tombstone") await this.finishDelete(id);
      if (!t) return refused !== null;
      const seq = await this.kv.get<number>(key.acctSeq(t.account_id));
      const w = emptyWrite();
      w.checks.push(entry, seq);
      if (decided) w.checks.push(...await decided(t));
      w.deletes.push(
        key.timer(id),
        key.acctTimer(t.account_id, t.created_at, id),
        key.acctTimerByType(t.account_id, t.type, t.created_at, id),
        key.due(t.expires_at, "expire", id),
        key.logCount(id),
        key.logFailed(id),
      );
      w.sets.push({ key: key.acctSeq(t.account_id), value: (seq.value ?? 0) + 1 });
      if (t.due_at !== null) w.deletes.push(...dueKeys({ at: t.due_at, kind: "timer", ref: id }));
      const log = await this.#deliveryDeletes(id);
      const whole = { ...w, deletes: [...w.deletes, ...log.flatMap((d) => d.deletes)] };
      const one = fits(writeCost(whole), this.limits);
      if (!one) w.sets.push({ key: key.timerGone(id), value: { account_id: t.account_id } });
      if (!(await commitWrites(this.kv, [one ? whole : w], this.limits))[0]) {
        refused = one ? "whole" : "tombstone";
        continue;
      }
      if (!one) await this.finishDelete(id);
      return true;
    }
  }

  /** The deletes of a timer's deliveries and their due entries, one write per delivery. */
  async #deliveryDeletes(timerId: string): Promise<KvWrite[]> {
    const writes: KvWrite[] = [];
    for await (const e of this.kv.list<Delivery>({ prefix: key.deliveries(timerId) })) {
      const w = emptyWrite();
      w.deletes.push(e.key, acctDeliveryEntry(e.value).key);
      if (e.value.next_attempt_at !== null) {
        const item = { at: e.value.next_attempt_at, kind: "delivery" as const, ref: `${timerId}/${e.value.id}` };
        w.deletes.push(...dueKeys(item, !e.value.claimed));
      }
      writes.push(w);
    }
    return writes;
  }

  /** Removes what a deleted timer left (its deliveries), then its tombstone. */
  async finishDelete(timerId: string): Promise<void> {
    const writes = await this.#deliveryDeletes(timerId);
    await commitWrites(this.kv, writes, this.limits);
    await this.kv.atomic().delete(key.logCount(timerId)).delete(key.logFailed(timerId)).delete(key.timerGone(timerId))
      .commit();
  }

  /** Finishes deletes a crash left half done (their tombstones); returns how many. */
  async finishDeletes(): Promise<number> {
    let n = 0;
    for await (const e of this.kv.list({ prefix: key.timersGone() }, { limit: 100 })) {
      await this.finishDelete(e.key[1] as string);
      n++;
    }
    return n;
  }

  /** A page of an account's timers, newest first, optionally of one type; `next_cursor` is null on the last page. */
  async listTimers(acct: string, opts: { type?: TimerType; limit: number; cursor?: string; now: number }) {
    const prefix = opts.type ? key.acctTimersOfType(acct, opts.type) : key.acctTimers(acct);
    // One entry past the page says whether another page follows, so a full last page ends with null.
    const iter = this.kv.list<number>({ prefix }, {
      reverse: true,
      limit: opts.limit + 1,
      cursor: pageCursor.unwrap("t", opts.cursor),
    });
    const ids: string[] = [];
    let read = 0, after = "", more = false;
    for await (const e of iter) {
      if (read++ === opts.limit) {
        more = true;
        break;
      }
      if (e.value > opts.now) ids.push(e.key[e.key.length - 1] as string);
      after = iter.cursor;
    }
    const timers: Timer[] = [];
    for (const e of await this.getTimers(ids)) if (e) timers.push(e.timer);
    return { timers, next_cursor: more ? pageCursor.wrap("t", after) : null };
  }
}
