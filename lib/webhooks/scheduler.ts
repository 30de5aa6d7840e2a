/**
 * Makes timers act on their own and delivers webhooks.
 *
 * One source of truth: the due index in KV (written atomically with every change). Three ways
 * to wake up, all calling the same idempotent steps, which claim work with atomic checks:
 * - in-process timers for whatever is due within HORIZON_MS (precise, no KV round trip),
 * - `kv.enqueue` messages where the KV has queues (durable backstop across restarts),
 * - a sweep every `sweepIntervalMs` (and on start) that runs anything overdue and arms what is near.
 * Queue handlers never await a webhook POST: attempts run in a bounded worker pool.
 */
import type { Config } from "../../config.ts";
import { signingSecrets } from "../accounts/accounts.ts";
import type { LogLine } from "../http.ts";
import { WorkerPool } from "./pool.ts";
import {
  type Account,
  type Delivery,
  type DeliveryChange,
  type DueItem,
  MAX_BATCH,
  type Store,
  type TimerChange,
} from "../kv/store.ts";
import { settle } from "../timers/model.ts";
import { z } from "zod";
import { signDelivery } from "./signing.ts";
import { type AttemptResult, postOnce } from "./deliver.ts";

/** Queue messages as written by the store; anything else is ignored. */
const QueueMessageSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("timer"), id: z.string(), version: z.number() }),
  z.object({ kind: z.literal("delivery"), timer_id: z.string(), id: z.string(), attempt: z.number() }),
  z.object({ kind: z.literal("expire"), id: z.string() }),
]);

/** Work due within this window is held in in-process timers. */
const HORIZON_MS = 5_000;
/** How long a claimed attempt may run before another instance may take it over. */
const LEASE_GRACE_MS = 5_000;
/** A delivery due further ahead than this is claimed ahead of time and held in memory. */
const PRECLAIM_MIN_MS = 300;
/** Concurrent commit loops for attempt results and for claims ahead. */
const RECORD_FLUSHERS = 4;
const PRECLAIMERS = 3;
/** How long before their instant held deliveries are checked against KV once more. */
const VERIFY_LEAD_MS = 200;

export interface SchedulerDeps {
  store: Store;
  config: Config;
  now: () => number;
  log?: (line: LogLine) => void;
  /** Injectable for tests. */
  fetch?: typeof fetch;
}

export class Scheduler {
  readonly pool: WorkerPool;
  /** Armed items by due instant: one in-process timer per instant, however many items share it. */
  #buckets = new Map<
    number,
    { timer: ReturnType<typeof setTimeout>; verify?: ReturnType<typeof setTimeout>; items: DueItem[] }
  >();
  #armed = new Set<string>();
  #results: { change: DeliveryChange; done: () => void }[] = [];
  /** Deliveries claimed ahead of their instant, sent without a KV round trip when it comes. */
  #held = new Map<string, { delivery: Delivery; versionstamp: string }>();
  /** Commits in flight that withdraw a staged delivery: a held one waits for their outcome. */
  #unstaging = new Map<string, Promise<boolean>>();
  #preclaims: DueItem[] = [];
  #preclaimers = 0;
  #flushers = 0;
  #pendingRecords = new Set<Promise<void>>();
  #inflight = new Map<string, Promise<void>>();
  #sweepTimer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  #started = false;

  constructor(readonly deps: SchedulerDeps) {
    this.pool = new WorkerPool(deps.config.webhookConcurrency);
    deps.store.opts.onDue = (item) => this.arm(item);
    deps.store.opts.leaseMs = deps.config.webhookTimeoutMs + LEASE_GRACE_MS;
    deps.store.opts.onBorn = (deliveries, versionstamp) => {
      // Not started (a CLI, or a test without a scheduler): the lease runs out and a sweep sends them.
      if (!this.#started || this.#stopped) return;
      for (const d of deliveries) void this.pool.submit(d.timer_id, () => this.#attempt(d, versionstamp));
    };
    deps.store.opts.onUnstaging = (refs, outcome) => {
      for (const ref of refs) {
        const done = outcome.then((ok) => {
          if (ok) this.#held.delete(ref);
          if (this.#unstaging.get(ref) === done) this.#unstaging.delete(ref);
          return ok;
        });
        this.#unstaging.set(ref, done);
      }
    };
  }

  /** Starts the sweep and, where the KV has queues, the queue listener. */
  start(): void {
    this.#started = true;
    if (this.deps.store.opts.useQueue) {
      this.deps.store.kv.listenQueue((msg) => this.onQueueMessage(msg)).catch((e) =>
        this.#log("error", "queue listener stopped", e)
      );
    }
    void this.sweep();
    this.#sweepTimer = setInterval(() => void this.sweep(), this.deps.config.sweepIntervalMs);
  }

  /** Stops waking up; attempts already running finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sweepTimer);
    for (const b of this.#buckets.values()) {
      clearTimeout(b.timer);
      clearTimeout(b.verify);
    }
    this.#held.clear();
    this.#buckets.clear();
    this.#armed.clear();
    await Promise.allSettled(this.#inflight.values());
    await this.pool.idle();
    await Promise.allSettled(this.#pendingRecords);
  }

  /** Waits until every step and attempt started so far has finished (for tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.#inflight.size > 0 || this.pool.pending > 0 || this.#pendingRecords.size > 0) {
      await Promise.allSettled(this.#inflight.values());
      await this.pool.idle();
      await Promise.allSettled(this.#pendingRecords);
    }
  }

  /** Holds a near item in an in-process timer. */
  arm(item: DueItem): void {
    if (this.#stopped) return;
    const delay = item.at - this.deps.now();
    if (delay > HORIZON_MS) return;
    const id = `${item.kind}:${item.ref}:${item.at}`;
    if (this.#armed.has(id)) return;
    this.#armed.add(id);
    if (item.kind === "delivery" && delay > PRECLAIM_MIN_MS) this.#preclaim(item);
    const bucket = this.#buckets.get(item.at);
    if (bucket) {
      bucket.items.push(item);
      return;
    }
    const fire = () => {
      const b = this.#buckets.get(item.at)!;
      this.#buckets.delete(item.at);
      for (const i of b.items) this.#armed.delete(`${i.kind}:${i.ref}:${i.at}`);
      // Deliveries held for this instant go out now, before any KV work of the instant.
      const rest = b.items.filter((i) => !(i.kind === "delivery" && this.#sendHeld(i.ref)));
      void this.runMany(rest, false);
    };
    const verify = delay > VERIFY_LEAD_MS
      ? setTimeout(() => void this.#verify(item.at), delay - VERIFY_LEAD_MS)
      : undefined;
    this.#buckets.set(item.at, { timer: setTimeout(fire, Math.max(0, delay)), verify, items: [item] });
  }

  /** Claims deliveries due soon, MAX_BATCH per commit, and holds them until their instant. */
  #preclaim(item: DueItem): void {
    this.#preclaims.push(item);
    if (this.#preclaimers < Math.min(PRECLAIMERS, Math.ceil(this.#preclaims.length / MAX_BATCH))) {
      this.#preclaimers++;
      void this.#preclaimBatches();
    }
  }

  async #preclaimBatches(): Promise<void> {
    await new Promise((r) => setTimeout(r, 0)); // let a burst gather
    while (this.#preclaims.length && !this.#stopped) {
      const batch = this.#preclaims.splice(0, MAX_BATCH);
      try {
        const entries = await this.deps.store.getDeliveries(batch.map((i) => i.ref));
        const now = this.deps.now();
        const claims: DeliveryChange[] = [];
        entries.forEach((e, n) => {
          const d = e?.delivery;
          // A claimed delivery's instant is its lease running out, not an attempt to take ahead.
          if (e && d && d.state === "pending" && !d.claimed && d.next_attempt_at === batch[n].at && batch[n].at > now) {
            const lease = batch[n].at + this.deps.config.webhookTimeoutMs + LEASE_GRACE_MS;
            claims.push({
              versionstamp: e.versionstamp,
              prev: d,
              next: { ...d, next_attempt_at: lease, claimed: true },
            });
          }
        });
        // On a conflict (another instance claimed one, or it was withdrawn) the usual path decides.
        const vs = claims.length ? await this.deps.store.updateDeliveries(claims, now, false) : null;
        if (vs) {
          for (const c of claims) {
            this.#held.set(`${c.next.timer_id}/${c.next.id}`, { delivery: c.next, versionstamp: vs });
          }
        }
      } catch (e) {
        this.#log("error", "pre-claim failed", e);
      }
    }
    this.#preclaimers--;
  }

  /** Sends a delivery held for its instant, unless a commit in flight withdraws it; false if none is held. */
  #sendHeld(ref: string): boolean {
    const held = this.#held.get(ref);
    if (!held) return false;
    this.#held.delete(ref);
    const job = () => this.#attempt(held.delivery, held.versionstamp);
    const unstaging = this.#unstaging.get(ref);
    if (!unstaging) void this.pool.submit(held.delivery.timer_id, job);
    else void unstaging.then((withdrawn) => withdrawn ? undefined : this.pool.submit(held.delivery.timer_id, job));
    return true;
  }

  /** Drops held deliveries that another instance withdrew meanwhile. */
  async #verify(at: number): Promise<void> {
    const refs = (this.#buckets.get(at)?.items ?? []).filter((i) => i.kind === "delivery" && this.#held.has(i.ref))
      .map((i) => i.ref);
    try {
      const entries = await this.deps.store.getDeliveries(refs);
      entries.forEach((e, n) => {
        if (!e || e.versionstamp !== this.#held.get(refs[n])?.versionstamp) this.#held.delete(refs[n]);
      });
    } catch (e) {
      this.#log("error", "verify failed", e);
    }
  }

  /** Runs overdue items and arms those due within the horizon. */
  async sweep(): Promise<void> {
    if (this.#stopped) return;
    try {
      const now = this.deps.now();
      // Everything due within the horizon: a New Year countdown may bring tens of thousands at once.
      const overdue: DueItem[] = [];
      for (const { item } of await this.deps.store.dueUntil(now + HORIZON_MS, 200_000)) {
        if (item.at <= now) overdue.push(item);
        else this.arm(item);
      }
      if (overdue.length) await this.runMany(overdue, true);
    } catch (e) {
      this.#log("error", "sweep failed", e);
    }
  }

  /** A queue message: validated, then the same step as any other wake-up. */
  async onQueueMessage(raw: unknown): Promise<void> {
    const parsed = QueueMessageSchema.safeParse(raw);
    if (!parsed.success) {
      if ((raw as { kind?: unknown })?.kind !== "probe") this.#log("warn", "ignored an unknown queue message");
      return;
    }
    const msg = parsed.data;
    const ref = msg.kind === "delivery" ? `${msg.timer_id}/${msg.id}` : msg.id;
    await this.run({ at: 0, kind: msg.kind, ref });
  }

  /** Runs one item's step, at most once at a time per item in this process. */
  run(item: DueItem, fromIndex = false): Promise<void> {
    const id = `${item.kind}:${item.ref}`;
    const running = this.#inflight.get(id);
    if (running) return running;
    const p = this.#step(item, fromIndex)
      .catch((e) => this.#log("error", `${item.kind} step failed`, e))
      .finally(() => this.#inflight.delete(id));
    this.#inflight.set(id, p);
    return p;
  }

  /**
   * Runs many items, several per KV round trip: timers and deliveries due at one instant are
   * read with getMany and claimed MAX_BATCH at a time in one atomic commit.
   */
  async runMany(items: DueItem[], fromIndex: boolean): Promise<void> {
    const fresh = items.filter((i) => !this.#inflight.has(`${i.kind}:${i.ref}`));
    const chunks = (kind: DueItem["kind"]) => {
      const ofKind = fresh.filter((i) => i.kind === kind);
      return Array.from(
        { length: Math.ceil(ofKind.length / MAX_BATCH) },
        (_, n) => ofKind.slice(n * MAX_BATCH, (n + 1) * MAX_BATCH),
      );
    };
    const deliveries = chunks("delivery").map((c) => () => this.#stepDeliveries(c, fromIndex));
    const timers = chunks("timer").map((c) => () => this.#stepTimers(c, fromIndex));
    const expiries = chunks("expire").map((c) => () =>
      Promise.all(c.map((i) => this.run(i, fromIndex))).then(() => {})
    );
    // Webhooks and state records of one instant take turns; expiries, which nobody waits for, last.
    const batches: (() => Promise<void>)[] = [];
    for (let n = 0; n < Math.max(deliveries.length, timers.length); n++) {
      if (deliveries[n]) batches.push(deliveries[n]);
      if (timers[n]) batches.push(timers[n]);
    }
    batches.push(...expiries);
    // A few batches at once keep KV busy without flooding it.
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        await batches[next++]().catch((e) => this.#log("error", "batch step failed", e));
      }
    };
    const all = Promise.all(Array.from({ length: Math.min(4, batches.length) }, worker)).then(() => {});
    for (const i of fresh) this.#inflight.set(`${i.kind}:${i.ref}`, all);
    try {
      await all;
    } catch (e) {
      this.#log("error", "batch step failed", e);
    } finally {
      for (const i of fresh) {
        if (this.#inflight.get(`${i.kind}:${i.ref}`) === all) this.#inflight.delete(`${i.kind}:${i.ref}`);
      }
    }
  }

  async #stepTimers(items: DueItem[], fromIndex: boolean): Promise<void> {
    const { store, now } = this.deps;
    const entries = await store.getTimers(items.map((i) => i.ref));
    const t = now();
    const changes: TimerChange[] = [];
    const singles: DueItem[] = [];
    entries.forEach((entry, n) => {
      const settled = entry ? settle(entry.timer, t, 100) : null;
      if (entry && settled && settled.events.length > 0) {
        changes.push({
          versionstamp: entry.versionstamp,
          prev: entry.timer,
          next: settled.timer,
          events: settled.events,
        });
      } else singles.push(items[n]); // stale or early: the single step tidies up
    });
    const stored = changes.length ? await store.commitTimers(changes, t) : [];
    if (stored === null) singles.push(...items.filter((i) => changes.some((c) => c.prev.id === i.ref)));
    else {
      // A long-missed unlimited interval has more round ends to catch up on.
      stored.forEach((timer, n) => {
        if (settle(timer, t, 1).events.length > 0) singles.push(items.find((i) => i.ref === changes[n].prev.id)!);
      });
    }
    for (const i of singles) await this.stepTimer(i.ref, fromIndex ? i : null);
  }

  async #stepDeliveries(all: DueItem[], fromIndex: boolean): Promise<void> {
    const { store, config, now } = this.deps;
    const items = all.filter((i) => !this.#sendHeld(i.ref));
    if (items.length === 0) return;
    const entries = await store.getDeliveries(items.map((i) => i.ref));
    const t = now();
    const claims: DeliveryChange[] = [];
    const singles: DueItem[] = [];
    entries.forEach((entry, n) => {
      const d = entry?.delivery;
      if (entry && d && d.state === "pending" && d.next_attempt_at !== null && d.next_attempt_at <= t) {
        const lease = t + config.webhookTimeoutMs + LEASE_GRACE_MS;
        claims.push({
          versionstamp: entry.versionstamp,
          prev: d,
          next: { ...d, next_attempt_at: lease, claimed: true },
        });
      } else singles.push(items[n]);
    });
    const vs = claims.length ? await store.updateDeliveries(claims, t) : null;
    if (claims.length && vs === null) {
      // One of them was claimed or changed elsewhere: fall back to one at a time.
      singles.push(...items.filter((i) => claims.some((c) => `${c.prev.timer_id}/${c.prev.id}` === i.ref)));
    } else if (vs) {
      for (const c of claims) void this.pool.submit(c.next.timer_id, () => this.#attempt(c.next, vs));
    }
    for (const i of singles) {
      const [timerId, id] = i.ref.split("/");
      await this.stepDelivery(timerId, id, fromIndex ? i : null);
    }
  }

  async #step(item: DueItem, fromIndex: boolean): Promise<void> {
    if (item.kind === "timer") return await this.stepTimer(item.ref, fromIndex ? item : null);
    if (item.kind === "expire") return await this.stepExpire(item.ref, fromIndex ? item : null);
    const [timerId, id] = item.ref.split("/");
    return await this.stepDelivery(timerId, id, fromIndex ? item : null);
  }

  /** Applies the timer's due clock transitions; a stale wake-up changes nothing. */
  async stepTimer(id: string, indexed: DueItem | null): Promise<void> {
    const { store, now } = this.deps;
    for (;;) {
      const entry = await store.getTimer(id);
      if (!entry) {
        if (indexed) await store.deleteDue(indexed);
        return;
      }
      const t = now();
      const { timer: next, events } = settle(entry.timer, t, 100);
      if (events.length === 0) {
        // Nothing due: an early queue message (delays cap at 30 days) or a stale index entry.
        if (indexed && entry.timer.due_at !== indexed.at) await store.deleteDue(indexed);
        else if (entry.timer.due_at !== null && entry.timer.due_at > t) {
          await store.requeue({ at: entry.timer.due_at, kind: "timer", ref: id }, {
            kind: "timer",
            id,
            version: entry.timer.version,
          }, t);
        }
        return;
      }
      const stored = await store.commitTimer(entry.versionstamp, entry.timer, next, events, t);
      // On a conflict someone else changed the timer: read again and decide again.
      if (stored && settle(stored, t, 1).events.length === 0) return;
    }
  }

  async stepExpire(id: string, indexed: DueItem | null): Promise<void> {
    const entry = await this.deps.store.getTimer(id);
    if (entry && entry.timer.expires_at <= this.deps.now()) await this.deps.store.deleteTimer(id);
    else if (!entry && indexed) await this.deps.store.deleteDue(indexed);
  }

  /** Claims a due attempt with a lease and hands the POST to the pool. */
  async stepDelivery(timerId: string, id: string, indexed: DueItem | null): Promise<void> {
    const { store, config, now } = this.deps;
    const entry = await store.getDelivery(timerId, id);
    const t = now();
    if (!entry || entry.delivery.state !== "pending" || entry.delivery.next_attempt_at === null) {
      if (indexed) await store.deleteDue(indexed);
      return;
    }
    const d = entry.delivery;
    if (d.next_attempt_at! > t) {
      if (indexed && indexed.at !== d.next_attempt_at) await store.deleteDue(indexed);
      return;
    }
    const claimed: Delivery = { ...d, next_attempt_at: t + config.webhookTimeoutMs + LEASE_GRACE_MS, claimed: true };
    const vs = await store.updateDelivery(entry.versionstamp, d, claimed, t);
    if (!vs) return; // another wake-up or instance claimed it
    void this.pool.submit(timerId, () => this.#attempt(claimed, vs));
  }

  async #attempt(claimed: Delivery, claimVersion: string): Promise<void> {
    const { config, now, store } = this.deps;
    let d = claimed;
    let versionstamp = claimVersion;
    // Waited in the pool so long that the claim could run out mid-attempt: renew it first, or let
    // whoever took it over meanwhile have it (never two attempts at once).
    if (d.next_attempt_at! - now() < config.webhookTimeoutMs + LEASE_GRACE_MS / 2) {
      const renewed = { ...d, next_attempt_at: now() + config.webhookTimeoutMs + LEASE_GRACE_MS };
      const vs = await store.updateDeliveries([{ versionstamp, prev: d, next: renewed }], now(), false);
      if (!vs) return;
      [d, versionstamp] = [renewed, vs];
    }
    const started = now();
    const result = await this.send(d, started);
    const finished = now();
    const attempts = [...d.attempts, {
      n: d.attempts.length + 1,
      at: new Date(started).toISOString(),
      duration_ms: result.duration_ms,
      status: result.status,
      error: result.error,
    }];
    const exhausted = attempts.length > config.webhookRetryDelays.length;
    const next: Delivery = {
      ...d,
      claimed: false,
      attempts,
      state: result.ok ? "succeeded" : exhausted ? "failed" : "pending",
      next_attempt_at: result.ok || exhausted ? null : finished + config.webhookRetryDelays[attempts.length - 1] * 1000,
    };
    // Recorded in the background: the pool slot goes to the next attempt at once. Fails only if
    // the timer (and its log) was deleted meanwhile: nothing to record then.
    void this.#record({ versionstamp, prev: d, next });
  }

  /** Records attempt results, up to MAX_BATCH per commit. */
  #record(change: DeliveryChange): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#results.push({ change, done: resolve });
    this.#pendingRecords.add(promise);
    void promise.then(() => this.#pendingRecords.delete(promise));
    // Several flushers when results pile up: each commit carries MAX_BATCH of them.
    if (this.#flushers < Math.min(RECORD_FLUSHERS, Math.ceil(this.#results.length / MAX_BATCH))) {
      this.#flushers++;
      void this.#flushResults();
    }
    return promise;
  }

  async #flushResults(): Promise<void> {
    await new Promise((r) => setTimeout(r, 0)); // let results of the same moment gather
    // The count drops in the same synchronous step as the last check, so no result is stranded.
    while (this.#results.length) {
      const batch = this.#results.splice(0, MAX_BATCH);
      const { store, now } = this.deps;
      const ok = await store.updateDeliveries(batch.map((b) => b.change), now()).catch(() => null);
      if (!ok) {
        // One of them changed meanwhile (e.g. its timer was deleted): record the rest one by one.
        for (const { change: c } of batch) {
          await store.updateDelivery(c.versionstamp, c.prev, c.next, now()).catch(() => null);
        }
      }
      for (const b of batch) b.done();
    }
    this.#flushers--;
  }

  /** Accounts (for their signing secrets), cached for a second: a burst reads each once. */
  #accounts = new Map<string, { account: Promise<Account | null>; until: number }>();
  #account(id: string, now: number): Promise<Account | null> {
    const hit = this.#accounts.get(id);
    if (hit && hit.until > now) return hit.account;
    if (this.#accounts.size > 10_000) this.#accounts.clear();
    const account = this.deps.store.getAccount(id);
    this.#accounts.set(id, { account, until: now + 1000 });
    return account;
  }

  /** Signs with the account's current secrets and POSTs once. */
  async send(d: Pick<Delivery, "account_id" | "url" | "payload">, at: number): Promise<AttemptResult> {
    const { config } = this.deps;
    const account = await this.#account(d.account_id, at);
    if (!account) return { status: null, error: "account no longer exists", duration_ms: 0, ok: false };
    const req = signDelivery(d.payload, signingSecrets(account, at), at);
    return await postOnce(d.url, req, {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
      fetch: this.deps.fetch,
    });
  }

  #log(level: string, msg: string, e?: unknown) {
    this.deps.log?.({
      time: new Date().toISOString(),
      level,
      msg,
      error: e instanceof Error ? e.message : e === undefined ? undefined : String(e),
    });
  }
}
