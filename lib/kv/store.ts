/**
 * All Deno KV access: every key is spelled here and nowhere else. Every multi-key write is one
 * atomic operation with explicit checks; a timer's change, its due-index entry, its queue
 * wake-up and the webhook deliveries its events cause commit together or not at all.
 */
import { type Account, AccountStore } from "./accounts.ts";
import { newEventId } from "../ids.ts";
import { key } from "./keys.ts";
import { UserStore } from "./users.ts";
import { nextDeadline, pendingCompletion, type Timer, type TimerEvent, type TimerType } from "../timers/model.ts";

export type { Account, ApiKey, WebhookSecret } from "./accounts.ts";

/** The signed-over webhook body, without `signature`. Member order is the serialised order. */
export interface WebhookPayload {
  id: string;
  event: string;
  timestamp: string;
  timer_id: string;
  title: string | null;
  type: TimerType;
  data: Record<string, unknown>;
}

export interface Attempt {
  n: number;
  at: string;
  duration_ms: number;
  status: number | null;
  error: string | null;
}

export interface Delivery {
  id: string;
  timer_id: string;
  account_id: string;
  url: string;
  payload: WebhookPayload;
  state: "pending" | "succeeded" | "failed";
  attempts: Attempt[];
  /** When the next attempt is due, or while `claimed` when the claim runs out (null once settled). */
  next_attempt_at: number | null;
  /** An attempt is in flight (or held for its instant) under a lease until `next_attempt_at`. */
  claimed?: boolean;
  created_at: number;
}

/** One timer's change for a batch commit. */
export interface TimerChange {
  versionstamp: string;
  prev: Timer;
  next: Timer;
  events: TimerEvent[];
}

/** One delivery's change for a batch commit. */
export interface DeliveryChange {
  versionstamp: string;
  prev: Delivery;
  next: Delivery;
}

/** Atomic operations allow 10 checks: batches of timers or deliveries are at most this long. */
export const MAX_BATCH = 10;

/** Queue messages; handlers validate them and never trust them to be current. */
export type QueueMessage =
  | { kind: "timer"; id: string; version: number }
  | { kind: "delivery"; timer_id: string; id: string; attempt: number }
  | { kind: "expire"; id: string };

/** What is due when: one entry per scheduled piece of work. */
export type DueKind = "timer" | "delivery" | "expire";
export interface DueItem {
  at: number;
  kind: DueKind;
  /** Timer id, or `timerId/deliveryId`. */
  ref: string;
  /** A delivery written claimed by this process, to send at once (not armed). */
  born?: Delivery;
}

/** How long after an item is due its queue wake-up arrives, leaving the in-process timer first. */
export const QUEUE_SLACK_MS = 1000;

/** The longest delay a KV queue message may carry. */
const MAX_QUEUE_DELAY_MS = 30 * 86400_000 - 60_000;

export interface StoreOptions {
  /** Write queue wake-ups (kv.enqueue) alongside the due index. */
  useQueue: boolean;
  /** Told of every due instant written, to arm an in-process wake-up. */
  onDue?: (item: DueItem) => void;
  /** Takes deliveries due at once, written claimed by this process (their commit's versionstamp). */
  onBorn?: (deliveries: Delivery[], versionstamp: string) => void;
  /** The claim a born delivery carries: how long other processes leave it alone. */
  leaseMs?: number;
  /** Told of a commit that withdraws staged deliveries (`timerId/deliveryId`) and its outcome. */
  onUnstaging?: (refs: string[], outcome: Promise<boolean>) => void;
}

export class Store {
  constructor(readonly kv: Deno.Kv, readonly opts: StoreOptions = { useQueue: false }) {}

  // ── accounts ────────────────────────────────────────────────────────────────────────────

  #accounts?: AccountStore;
  #users?: UserStore;
  /** Accounts and their API keys (lib/kv/accounts.ts). */
  get accounts(): AccountStore {
    return this.#accounts ??= new AccountStore(this.kv);
  }
  /** Users, sessions, passkeys and one-time tokens (lib/kv/users.ts). */
  get users(): UserStore {
    return this.#users ??= new UserStore(this.kv);
  }

  /** The account (its plan and webhook secrets), as the scheduler and pages read it. */
  getAccount(id: string): Promise<Account | null> {
    return this.accounts.get(id);
  }

  // ── timers ──────────────────────────────────────────────────────────────────────────────

  async getTimer(id: string): Promise<{ timer: Timer; versionstamp: string } | null> {
    const e = await this.kv.get<Timer>(key.timer(id));
    return e.value ? { timer: e.value, versionstamp: e.versionstamp! } : null;
  }

  /** A stream of the timer's entry: now, then after every change (same process, or managed KV). */
  watchTimer(id: string): ReadableStream<[Deno.KvEntryMaybe<Timer>]> {
    return this.kv.watch<[Timer]>([key.timer(id)]);
  }

  /**
   * Stores a new timer unless the account already holds `limit` live timers. All creations
   * and deletions of an account check one sequence key, so concurrent ones cannot overshoot.
   */
  async createTimer(timer: Timer, limit: number | null, now: number): Promise<"ok" | "limit"> {
    for (;;) {
      const op = this.kv.atomic().check({ key: key.timer(timer.id), versionstamp: null });
      if (limit !== null) {
        // Only limited plans serialise their creations; unlimited ones never contend.
        const seq = await this.kv.get<number>(key.acctSeq(timer.account_id));
        if (await this.countLive(timer.account_id, now, limit) >= limit) return "limit";
        op.check(seq).set(key.acctSeq(timer.account_id), (seq.value ?? 0) + 1);
      }
      op.set(key.acctTimer(timer.account_id, timer.created_at, timer.id), timer.expires_at)
        .set(key.acctTimerByType(timer.account_id, timer.type, timer.created_at, timer.id), timer.expires_at);
      const due: DueItem[] = [];
      const stored = await this.schedule(op, due, null, timer, [], now);
      op.set(key.timer(timer.id), stored);
      const res = await op.commit();
      if (res.ok) {
        this.notify(due, res.versionstamp);
        return "ok";
      }
    }
  }

  /** Live (unexpired) timers of an account, counting at most `upTo`. */
  private async countLive(acct: string, now: number, upTo: number): Promise<number> {
    let n = 0;
    for await (const e of this.kv.list<number>({ prefix: key.acctTimers(acct) })) {
      if (e.value > now && ++n >= upTo) break;
    }
    return n;
  }

  /**
   * Commits a timer's change and what it causes, provided the timer is still at
   * `versionstamp`. Returns null on a conflict: the caller re-reads and decides again.
   */
  async commitTimer(versionstamp: string, prev: Timer, next: Timer, events: TimerEvent[], now: number) {
    return (await this.commitTimers([{ versionstamp, prev, next, events }], now))?.[0] ?? null;
  }

  /** Commits up to MAX_BATCH timer changes in one atomic operation: all or none. */
  async commitTimers(changes: TimerChange[], now: number): Promise<Timer[] | null> {
    const op = this.kv.atomic();
    const due: DueItem[] = [];
    const stored: Timer[] = [];
    const unstaged: string[] = [];
    for (const c of changes) {
      op.check({ key: key.timer(c.prev.id), versionstamp: c.versionstamp });
      const s = await this.schedule(op, due, c.prev, c.next, c.events, now);
      op.set(key.timer(s.id), s);
      stored.push(s);
      if (c.prev.staged && c.prev.staged.id !== s.staged?.id && !c.events.some((e) => e.type === "timer.completed")) {
        unstaged.push(`${c.prev.id}/${c.prev.staged.id}`);
      }
    }
    const commit = op.commit();
    if (unstaged.length) this.opts.onUnstaging?.(unstaged, commit.then((r) => r.ok, () => false));
    const res = await commit;
    if (!res.ok) return null;
    this.notify(due, res.versionstamp);
    return stored;
  }

  /** Reads timers by id (several per round trip). */
  async getTimers(ids: string[]): Promise<({ timer: Timer; versionstamp: string } | null)[]> {
    const out: ({ timer: Timer; versionstamp: string } | null)[] = [];
    for (let i = 0; i < ids.length; i += 10) {
      for (const e of await this.kv.getMany<Timer[]>(ids.slice(i, i + 10).map(key.timer))) {
        out.push(e.value ? { timer: e.value, versionstamp: e.versionstamp! } : null);
      }
    }
    return out;
  }

  /** Deletes a timer with its indexes, due entries and delivery log. */
  async deleteTimer(id: string): Promise<boolean> {
    for (;;) {
      const entry = await this.kv.get<Timer>(key.timer(id));
      const t = entry.value;
      if (!t) return false;
      const seq = await this.kv.get<number>(key.acctSeq(t.account_id));
      const op = this.kv.atomic().check(entry).check(seq)
        .delete(key.timer(id))
        .set(key.acctSeq(t.account_id), (seq.value ?? 0) + 1)
        .delete(key.acctTimer(t.account_id, t.created_at, id))
        .delete(key.acctTimerByType(t.account_id, t.type, t.created_at, id))
        .delete(key.due(t.expires_at, "expire", id));
      if (t.due_at !== null) op.delete(key.due(t.due_at, "timer", id));
      const commit = op.commit();
      if (t.staged) this.opts.onUnstaging?.([`${id}/${t.staged.id}`], commit.then((r) => r.ok, () => false));
      if (!(await commit).ok) continue;
      await this.purgeDeliveries(id);
      return true;
    }
  }

  private async purgeDeliveries(timerId: string) {
    for await (const e of this.kv.list<Delivery>({ prefix: key.deliveries(timerId) })) {
      const op = this.kv.atomic().delete(e.key);
      if (e.value.next_attempt_at !== null) {
        op.delete(key.due(e.value.next_attempt_at, "delivery", `${timerId}/${e.value.id}`));
      }
      await op.commit();
    }
  }

  /** A page of an account's timers, newest first, optionally of one type. */
  async listTimers(acct: string, opts: { type?: TimerType; limit: number; cursor?: string; now: number }) {
    const prefix = opts.type ? key.acctTimersOfType(acct, opts.type) : key.acctTimers(acct);
    const iter = this.kv.list<number>({ prefix }, { reverse: true, limit: opts.limit, cursor: opts.cursor });
    const ids: string[] = [];
    for await (const e of iter) if (e.value > opts.now) ids.push(e.key[e.key.length - 1] as string);
    const timers: Timer[] = [];
    // kv.getMany takes at most 10 keys at a time.
    for (let i = 0; i < ids.length; i += 10) {
      const entries = await this.kv.getMany<Timer[]>(ids.slice(i, i + 10).map(key.timer));
      for (const e of entries) if (e.value) timers.push(e.value);
    }
    const full = ids.length === opts.limit || iter.cursor !== "";
    return { timers, next_cursor: full && iter.cursor ? iter.cursor : null };
  }

  // ── deliveries ───────────────────────────────────────────────────────────────────────────

  async getDelivery(timerId: string, id: string): Promise<{ delivery: Delivery; versionstamp: string } | null> {
    const e = await this.kv.get<Delivery>(key.delivery(timerId, id));
    return e.value ? { delivery: e.value, versionstamp: e.versionstamp! } : null;
  }

  /**
   * Replaces a delivery provided it is still at `versionstamp`, moving its due entry to the new
   * `next_attempt_at` (a lease while an attempt runs, the next retry, or none once settled).
   */
  async updateDelivery(versionstamp: string, prev: Delivery, next: Delivery, now: number): Promise<string | null> {
    return await this.updateDeliveries([{ versionstamp, prev, next }], now);
  }

  /** Up to MAX_BATCH delivery updates in one atomic operation; returns its versionstamp. */
  async updateDeliveries(changes: DeliveryChange[], now: number, arm = true): Promise<string | null> {
    const due: DueItem[] = [];
    const op = this.kv.atomic();
    for (const { versionstamp, prev, next } of changes) {
      const ref = `${next.timer_id}/${next.id}`;
      op.check({ key: key.delivery(prev.timer_id, prev.id), versionstamp }).set(
        key.delivery(next.timer_id, next.id),
        next,
      );
      if (prev.next_attempt_at !== null && prev.next_attempt_at !== next.next_attempt_at) {
        op.delete(key.due(prev.next_attempt_at, "delivery", ref));
      }
      if (next.next_attempt_at !== null && prev.next_attempt_at !== next.next_attempt_at) {
        this.addDue(op, due, { at: next.next_attempt_at, kind: "delivery", ref }, {
          kind: "delivery",
          timer_id: next.timer_id,
          id: next.id,
          attempt: next.attempts.length + 1,
        }, now);
      }
    }
    const res = await op.commit();
    if (!res.ok) return null;
    if (arm) this.notify(due, res.versionstamp);
    return res.versionstamp;
  }

  /** Reads deliveries by `timerId/deliveryId` reference (several per round trip). */
  async getDeliveries(refs: string[]): Promise<({ delivery: Delivery; versionstamp: string } | null)[]> {
    const out: ({ delivery: Delivery; versionstamp: string } | null)[] = [];
    for (let i = 0; i < refs.length; i += 10) {
      const keys = refs.slice(i, i + 10).map((r) => key.delivery(...(r.split("/") as [string, string])));
      for (const e of await this.kv.getMany<Delivery[]>(keys)) {
        out.push(e.value ? { delivery: e.value, versionstamp: e.versionstamp! } : null);
      }
    }
    return out;
  }

  /** Stores a delivery that needs no scheduling (the webhook test's record). */
  async putDelivery(d: Delivery): Promise<void> {
    await this.kv.set(key.delivery(d.timer_id, d.id), d);
  }

  /** A page of a timer's deliveries, newest first; a completion staged for later is not shown. */
  async listDeliveries(timerId: string, opts: { limit: number; cursor?: string; now: number }) {
    const iter = this.kv.list<Delivery>({ prefix: key.deliveries(timerId) }, {
      reverse: true,
      limit: opts.limit,
      cursor: opts.cursor,
    });
    const deliveries: Delivery[] = [];
    for await (const e of iter) {
      if (Date.parse(e.value.payload.timestamp) <= opts.now || e.value.attempts.length > 0) deliveries.push(e.value);
    }
    return { deliveries, next_cursor: iter.cursor && deliveries.length > 0 ? iter.cursor : null };
  }

  /** Removes one due entry (work found stale or done). */
  async deleteDue(item: DueItem): Promise<void> {
    await this.kv.delete(key.due(item.at, item.kind, item.ref));
  }

  /** Re-sends a queue wake-up for an entry the queue delivered early (delays cap at 30 days). */
  async requeue(item: DueItem, msg: QueueMessage, now: number): Promise<void> {
    if (!this.opts.useQueue) return;
    await this.kv.enqueue(msg, { delay: Math.min(MAX_QUEUE_DELAY_MS, Math.max(0, item.at - now) + QUEUE_SLACK_MS) });
  }

  // ── scheduling ──────────────────────────────────────────────────────────────────────────

  /**
   * Adds to `op` the due index and wake-ups of `next`, the removal of `prev`'s, and one
   * delivery per event when the timer has a webhook. Returns `next` with its `due_at` set.
   */
  private async schedule(
    op: Deno.AtomicOperation,
    due: DueItem[],
    prev: Timer | null,
    next: Timer,
    events: TimerEvent[],
    now: number,
  ): Promise<Timer> {
    const dueAt = nextDeadline(next);
    const stored: Timer = { ...next, due_at: dueAt, changed_at: now, staged: prev?.staged ?? null };
    if (prev?.due_at !== null && prev?.due_at !== undefined && prev.due_at !== dueAt) {
      op.delete(key.due(prev.due_at, "timer", prev.id));
    }
    if (!prev) {
      this.addDue(op, due, { at: next.expires_at, kind: "expire", ref: next.id }, { kind: "expire", id: next.id }, now);
    }
    if (dueAt !== null) {
      this.addDue(op, due, { at: dueAt, kind: "timer", ref: next.id }, {
        kind: "timer",
        id: next.id,
        version: next.version,
      }, now);
    }
    // A staged completion that now happens is already written: it is not written again.
    const staged = stored.staged;
    const happened = staged ? events.find((e) => e.type === "timer.completed" && e.at === staged.at) : undefined;
    if (staged && happened) stored.staged = null;
    if (next.webhook_url) {
      for (const ev of events) {
        if (ev === happened) continue;
        this.addDelivery(op, due, next, ev, now, now);
      }
    }
    // Stage the completion of a running countdown or event ahead, due at its deadline, so the
    // deadline itself needs no commit before the webhook goes out.
    const ahead = next.webhook_url ? pendingCompletion(next) : null;
    const keep = staged && !happened && ahead && ahead.event.at === staged.at &&
      prev?.webhook_url === next.webhook_url &&
      prev?.title === next.title;
    if (staged && !happened && !keep) {
      const ref = `${next.id}/${staged.id}`;
      const entry = await this.kv.get<Delivery>(key.delivery(next.id, staged.id));
      // Unstaging races with its own dispatch: checking the delivery makes exactly one of them win.
      const dueAt = entry.value?.next_attempt_at ?? staged.at; // moved by a pre-claim
      op.check(entry).delete(key.delivery(next.id, staged.id)).delete(key.due(dueAt, "delivery", ref));
      stored.staged = null;
    }
    if (ahead && !keep) {
      const id = this.addDelivery(op, due, next, ahead.event, ahead.event.at, now);
      stored.staged = { id, at: ahead.event.at };
    }
    return stored;
  }

  /** Writes one pending delivery of `ev`, first attempt due at `at`. Returns its id. */
  private addDelivery(op: Deno.AtomicOperation, due: DueItem[], t: Timer, ev: TimerEvent, at: number, now: number) {
    const id = newEventId(ev.at);
    const delivery: Delivery = {
      id,
      timer_id: t.id,
      account_id: t.account_id,
      url: t.webhook_url!,
      payload: {
        id,
        event: ev.type,
        timestamp: new Date(ev.at).toISOString(),
        timer_id: t.id,
        title: t.title,
        type: t.type,
        data: ev.data,
      },
      state: "pending",
      attempts: [],
      next_attempt_at: at,
      created_at: now,
    };
    // Born claimed: the committing process sends it at once from memory; others wait out the lease.
    const born = at <= now && this.opts.onBorn !== undefined;
    if (born) {
      delivery.next_attempt_at = now + (this.opts.leaseMs ?? 15_000);
      delivery.claimed = true;
    }
    op.set(key.delivery(t.id, id), delivery);
    this.addDue(op, due, {
      at: delivery.next_attempt_at!,
      kind: "delivery",
      ref: `${t.id}/${id}`,
      born: born ? delivery : undefined,
    }, {
      kind: "delivery",
      timer_id: t.id,
      id,
      attempt: 1,
    }, now);
    return id;
  }

  private addDue(op: Deno.AtomicOperation, due: DueItem[], item: DueItem, msg: QueueMessage, now: number) {
    due.push(item);
    op.set(key.due(item.at, item.kind, item.ref), msg);
    if (this.opts.useQueue) {
      // The queue is the durable backstop; in-process timers fire first, so it comes a little later.
      op.enqueue(msg, { delay: Math.min(MAX_QUEUE_DELAY_MS, Math.max(0, item.at - now) + QUEUE_SLACK_MS) });
    }
  }

  /** Tells the in-process scheduler of due instants and deliveries born claimed by a commit. */
  private notify(due: DueItem[], versionstamp: string) {
    const born = due.flatMap((i) => i.born ? [i.born] : []);
    if (born.length) this.opts.onBorn?.(born, versionstamp);
    if (this.opts.onDue) { for (const item of due) if (!item.born) this.opts.onDue(item); }
  }

  /** Due-index entries at or before `until`, oldest first. */
  async dueUntil(until: number, limit = 500): Promise<{ item: DueItem; msg: QueueMessage }[]> {
    const out: { item: DueItem; msg: QueueMessage }[] = [];
    const iter = this.kv.list<QueueMessage>(key.dueBefore(until + 1), { limit, batchSize: 1000 });
    for await (const e of iter) {
      const [, at, kind, ref] = e.key as [string, number, DueKind, string];
      out.push({ item: { at, kind, ref }, msg: e.value });
    }
    return out;
  }
}
