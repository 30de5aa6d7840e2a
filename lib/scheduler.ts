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
import type { Config } from "../config.ts";
import { signingSecrets } from "./accounts.ts";
import type { LogLine } from "./http.ts";
import { WorkerPool } from "./pool.ts";
import type { Delivery, DueItem, QueueMessage, Store } from "./store.ts";
import { settle } from "./timers.ts";
import { z } from "zod";
import { type AttemptResult, postOnce, signDelivery } from "./webhooks.ts";

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
  #armed = new Map<string, ReturnType<typeof setTimeout>>();
  #inflight = new Map<string, Promise<void>>();
  #sweepTimer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;

  constructor(readonly deps: SchedulerDeps) {
    this.pool = new WorkerPool(deps.config.webhookConcurrency);
    deps.store.opts.onDue = (item) => this.arm(item);
  }

  /** Starts the sweep and, where the KV has queues, the queue listener. */
  start(): void {
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
    for (const t of this.#armed.values()) clearTimeout(t);
    this.#armed.clear();
    await Promise.allSettled(this.#inflight.values());
    await this.pool.idle();
  }

  /** Waits until every step and attempt started so far has finished (for tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.#inflight.size > 0 || this.pool.pending > 0) {
      await Promise.allSettled(this.#inflight.values());
      await this.pool.idle();
    }
  }

  /** Holds a near item in an in-process timer. */
  arm(item: DueItem): void {
    if (this.#stopped) return;
    const delay = item.at - this.deps.now();
    if (delay > HORIZON_MS) return;
    const id = `${item.kind}:${item.ref}:${item.at}`;
    if (this.#armed.has(id)) return;
    this.#armed.set(
      id,
      setTimeout(() => {
        this.#armed.delete(id);
        void this.run(item);
      }, Math.max(0, delay)),
    );
  }

  /** Runs overdue items and arms those due within the horizon. */
  async sweep(): Promise<void> {
    if (this.#stopped) return;
    try {
      const now = this.deps.now();
      // Everything due within the horizon: a New Year countdown may bring tens of thousands at once.
      for (const { item } of await this.deps.store.dueUntil(now + HORIZON_MS, 200_000)) {
        if (item.at <= now) void this.run(item, true);
        else this.arm(item);
      }
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
    const claimed: Delivery = { ...d, next_attempt_at: t + config.webhookTimeoutMs + LEASE_GRACE_MS };
    const vs = await store.updateDelivery(entry.versionstamp, d, claimed, t);
    if (!vs) return; // another wake-up or instance claimed it
    void this.pool.submit(timerId, () => this.#attempt(claimed, vs));
  }

  async #attempt(d: Delivery, versionstamp: string): Promise<void> {
    const { store, config, now } = this.deps;
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
      attempts,
      state: result.ok ? "succeeded" : exhausted ? "failed" : "pending",
      next_attempt_at: result.ok || exhausted ? null : finished + config.webhookRetryDelays[attempts.length - 1] * 1000,
    };
    // Fails only if the timer (and its log) was deleted meanwhile: nothing to record then.
    await store.updateDelivery(versionstamp, d, next, finished);
  }

  /** Signs with the account's current secrets and POSTs once. */
  async send(d: Pick<Delivery, "account_id" | "url" | "payload">, at: number): Promise<AttemptResult> {
    const { store, config } = this.deps;
    const account = await store.getAccount(d.account_id);
    if (!account) return { status: null, error: "account no longer exists", duration_ms: 0, ok: false };
    const req = await signDelivery(d.payload, signingSecrets(account, at), at);
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
