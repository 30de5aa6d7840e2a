/**
 * Rundowns in Deno KV: a rundown's change is written with its items' timer changes and the
 * deliveries of its events as one atomic unit (the rundown guarded by its versionstamp, each
 * timer by its own), so a linked advance lands whole or not at all.
 */
import type { Delivery } from "../webhooks/delivery_model.ts";
import type { Rundown } from "../rundowns/model.ts";
import { addCount, emptyWrite, fits, getManyChunked, type KvWrite, writeCost } from "./batch.ts";
import { type Committed, deliveryDue, DueIndex, type OnCommitted, type StoreOptions } from "./due.ts";
import { key, pageCursor } from "./keys.ts";
import { acctDeliveryEntry } from "./delivery_index.ts";
import type { TimerChange, TimerStore } from "./timers.ts";

export type RundownEntry = { rundown: Rundown; versionstamp: string };

/** A rundown's change: the record it replaces (null: new), the record as stored, its events' deliveries. */
export interface RundownChange {
  versionstamp: string | null;
  rundown: Rundown;
  deliveries: Delivery[];
  /** Timer changes written with it (its items'). */
  timers: TimerChange[];
}

/** How a rundown's creation or change with new timers is committed: the account's limits, its key's guard. */
export interface NewRundownWrite {
  /** The plan's stored-timer limit (null: unlimited). */
  timers: number | null;
  /** The plan's rundown limit (null: unlimited). */
  rundowns: number | null;
  now: number;
  guard?: Deno.AtomicCheck;
  onCommitted?: OnCommitted;
  /**
   * The write's own id, new (the last of the rundown's `write_ids`): a commit refused that finds it
   * stored landed all the same (its answer lost and the call made again).
   */
  writeId?: string;
}

export type RundownWriteOutcome = "ok" | "timers" | "rundowns" | "key gone" | "conflict" | "too large";

/** Writes merged into one (a commit), with what they schedule. */
function merge(parts: { write: KvWrite; scheduled: Committed }[]): { write: KvWrite; scheduled: Committed } {
  const write = emptyWrite();
  for (const p of parts) {
    write.checks.push(...p.write.checks);
    write.sets.push(...p.write.sets);
    write.deletes.push(...p.write.deletes);
    write.enqueues.push(...p.write.enqueues);
    if (p.write.sums) (write.sums ??= []).push(...p.write.sums);
  }
  return {
    write,
    scheduled: { due: parts.flatMap((p) => p.scheduled.due), born: parts.flatMap((p) => p.scheduled.born) },
  };
}

export class RundownStore extends DueIndex {
  constructor(kv: Deno.Kv, opts: StoreOptions, readonly timers: TimerStore) {
    super(kv, opts);
  }

  async get(id: string): Promise<RundownEntry | null> {
    const e = await this.kv.get<Rundown>(key.rundown(id));
    return e.value ? { rundown: e.value, versionstamp: e.versionstamp! } : null;
  }

  /** The rundown as read (null: none) and the check that it is still so, for a commit decided on it. */
  async getChecked(id: string): Promise<{ entry: RundownEntry | null; check: Deno.AtomicCheck }> {
    const e = await this.kv.get<Rundown>(key.rundown(id));
    return {
      entry: e.value ? { rundown: e.value, versionstamp: e.versionstamp! } : null,
      check: { key: e.key, versionstamp: e.versionstamp },
    };
  }

  /** A stream of the rundown's entry: now, then after every change (pages). */
  watch(id: string): ReadableStream<[Deno.KvEntryMaybe<Rundown>]> {
    return this.kv.watch<[Rundown]>([key.rundown(id)]);
  }

  /** The write of the rundown itself and its deliveries. */
  #rundownWrite(c: RundownChange, now: number): { write: KvWrite; scheduled: Committed } {
    const w = emptyWrite();
    const r = c.rundown;
    w.checks.push({ key: key.rundown(r.id), versionstamp: c.versionstamp });
    w.sets.push({ key: key.rundown(r.id), value: r });
    if (c.versionstamp === null) w.sets.push({ key: key.acctRundown(r.account_id, r.created_at, r.id), value: r.id });
    const scheduled: Committed = { due: [], born: [] };
    if (c.deliveries.length) addCount(w, key.logCount(r.id), c.deliveries.length);
    for (const d of c.deliveries) {
      w.sets.push({ key: key.delivery(d.timer_id, d.id), value: d }, acctDeliveryEntry(d));
      const due = deliveryDue(d)!;
      this.addDue(w, due, now);
      if (d.claimed) scheduled.born.push({ delivery: d, versionstamp: "" });
      else scheduled.due.push(due.item);
    }
    return { write: w, scheduled };
  }

  /** Many rundowns' entries, in the order of `ids` (null: none). */
  async getMany(ids: string[]): Promise<(RundownEntry | null)[]> {
    const entries = await getManyChunked<Rundown>(this.kv, ids.map(key.rundown));
    return entries.map((e) => e.value ? { rundown: e.value, versionstamp: e.versionstamp! } : null);
  }

  /** A rundown's change with its timers', as its parts and as one write. */
  #writes(c: RundownChange, now: number) {
    const parts = [...c.timers.map((t) => this.timers.timerWrite(t)), this.#rundownWrite(c, now)];
    return { parts, one: merge(parts) };
  }

  /** What a rundown's change schedules once committed (due instants to arm, deliveries born claimed). */
  scheduled(c: RundownChange, now: number): Committed {
    return this.#writes(c, now).one.scheduled;
  }

  /**
   * Commits a rundown's change with its timers' in one commit; a change too large for one (a reset
   * of many items) writes the timers first, the rundown last. Returns the rundown's versionstamp,
   * or null where anything changed meanwhile (read again, decide again).
   */
  async commitChange(c: RundownChange, now: number, onCommitted?: OnCommitted): Promise<string | null> {
    const { parts, one } = this.#writes(c, now);
    if (fits(writeCost(one.write), this.limits)) {
      return (await this.commit([one.write], [one.scheduled], onCommitted))[0];
    }
    const stamps = await this.commit(parts.map((p) => p.write), parts.map((p) => p.scheduled), onCommitted);
    return stamps.every(Boolean) ? stamps[stamps.length - 1] : null;
  }

  /**
   * Commits many rundowns' changes, each whole, packed into as few commits as the limits allow
   * (one rundown at most once: each checks its own versionstamp). Per change as commitChange.
   */
  async commitChanges(cs: RundownChange[], now: number, onCommitted?: OnCommitted): Promise<(string | null)[]> {
    const ones = cs.map((c) => this.#writes(c, now).one);
    const small = ones.map((o) => fits(writeCost(o.write), this.limits));
    const packed = ones.filter((_, i) => small[i]);
    const stamps = await this.commit(packed.map((o) => o.write), packed.map((o) => o.scheduled), onCommitted);
    const out: (string | null)[] = [];
    for (let i = 0, n = 0; i < cs.length; i++) {
      out.push(small[i] ? stamps[n++] : await this.commitChange(cs[i], now, onCommitted));
    }
    return out;
  }

  /**
   * Writes a rundown's change together with the timers created with it, in one commit: the new
   * timers, the existing timers' changes, the rundown. The account's limits are counted for the
   * commit and its creation sequence checked and advanced in it (as TimerStore.createTimer does),
   * so concurrent creations cannot overshoot: one that another creation overtook counts again.
   * "timers": the new timers pass the stored-timer limit `timers`; "rundowns": a new rundown passes
   * `rundowns`; "too large": more than one commit of this backend allows (the caller writes it in
   * steps); "conflict": something it was decided on changed meanwhile (decide again).
   */
  async commitWithNew(
    c: RundownChange,
    created: TimerChange[],
    o: NewRundownWrite,
  ): Promise<RundownWriteOutcome> {
    const parts = [
      // A new timer's id is 16 random base62 characters: its "absent" check would cost one of the
      // commit's checks per item for a collision that does not happen; the rundown keeps its own.
      ...created.map((t) => {
        const p = this.timers.timerWrite(t);
        p.write.checks = [];
        return p;
      }),
      ...c.timers.map((t) => this.timers.timerWrite(t)),
      this.#rundownWrite(c, o.now),
    ];
    const acct = c.rundown.account_id;
    const timers = created.length ? o.timers : null;
    const rundowns = c.versionstamp === null ? o.rundowns : null;
    for (;;) {
      const { write: one, scheduled } = merge(parts);
      if (o.guard) one.checks.push(o.guard);
      // Only limited plans serialise their creations; unlimited ones never contend.
      const seq = timers !== null || rundowns !== null ? await this.kv.get<number>(key.acctSeq(acct)) : null;
      if (seq) {
        if (timers !== null && await this.timers.countLive(acct, o.now, timers) + created.length > timers) {
          return "timers";
        }
        if (rundowns !== null && await this.count(acct, rundowns) >= rundowns) return "rundowns";
        one.checks.push(seq);
        one.sets.push({ key: key.acctSeq(acct), value: (seq.value ?? 0) + 1 });
      }
      if (!fits(writeCost(one), this.limits)) return "too large";
      const [stamp] = await this.commit([one], [scheduled], o.onCommitted);
      if (stamp) return "ok";
      // Asked first: the landed write moved the account's sequence itself.
      if (o.writeId && (await this.get(c.rundown.id))?.rundown.write_ids?.includes(o.writeId)) {
        o.onCommitted?.({ due: scheduled.due, born: [] });
        return "ok";
      }
      if (o.guard && (await this.kv.get(o.guard.key)).versionstamp === null) return "key gone";
      if (seq && (await this.kv.get(key.acctSeq(acct))).versionstamp !== seq.versionstamp) continue;
      return "conflict";
    }
  }

  /**
   * Deletes the rundown (its timers are the caller's), then its delivery log. The rundown's commit
   * leaves a tombstone, as a timer's too large for one commit does (timers.ts, `deleteTimer`): no
   * claim of its deliveries lands while it stands, and a crash before the log is gone leaves the
   * rest to the sweep's `finishDeletes`. False: it changed meanwhile (read again). A commit refused
   * that finds the rundown gone counts as deleted, as a timer's does (`deleteTimer`).
   */
  async delete(entry: RundownEntry): Promise<boolean> {
    const r = entry.rundown;
    const ok = await this.kv.atomic().check({ key: key.rundown(r.id), versionstamp: entry.versionstamp })
      .delete(key.rundown(r.id))
      .delete(key.acctRundown(r.account_id, r.created_at, r.id))
      .set(key.timerGone(r.id), { account_id: r.account_id })
      .commit();
    if (!ok.ok && await this.get(r.id)) return false;
    // Its deliveries and their due entries go as a deleted timer's do.
    await this.timers.finishDelete(r.id);
    return true;
  }

  /** How many rundowns the account holds, counted up to `upTo` (enough to tell a limit reached). */
  async count(acct: string, upTo: number): Promise<number> {
    let n = 0;
    for await (const _ of this.kv.list({ prefix: key.acctRundowns(acct) }, { limit: upTo })) n++;
    return n;
  }

  /** A page of an account's rundowns, newest first; `next_cursor` is null on the last page. */
  async list(acct: string, opts: { limit: number; cursor?: string }) {
    const iter = this.kv.list<string>({ prefix: key.acctRundowns(acct) }, {
      reverse: true,
      limit: opts.limit + 1,
      cursor: pageCursor.unwrap("r", opts.cursor),
    });
    const ids: string[] = [];
    let after = "", more = false;
    for await (const e of iter) {
      if (ids.length === opts.limit) {
        more = true;
        break;
      }
      ids.push(e.value);
      after = iter.cursor;
    }
    const rundowns = (await getManyChunked<Rundown>(this.kv, ids.map(key.rundown))).flatMap((e) => e.value ?? []);
    return { rundowns, next_cursor: more ? pageCursor.wrap("r", after) : null };
  }
}
