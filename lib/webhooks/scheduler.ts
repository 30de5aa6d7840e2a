/**
 * Makes timers act on their own: the wake-ups that run the due steps (steps.ts) on time, through
 * the work stepped here (runs.ts).
 *
 * One source of truth: the due index in KV, written atomically with every change and carrying
 * that change's record. Wake-ups, all running the same idempotent steps guarded by atomic checks:
 * - one native wake-up (due_heap.ts) for every instant armed in this process (all of them, loaded
 *   at start), which reads the records due then in one range read and commits their transitions
 *   as few commits as the backend's limits allow;
 * - `kv.enqueue` messages where the KV has queues, for what is due within the hour (a durable
 *   wake-up for other instances);
 * - a sweep every `sweepIntervalMs` that runs anything overdue (expiries, other instances' work,
 *   claims that ran out).
 *
 * Where several instances share the KV, each arms, sweeps and steps only the entries of the
 * shards it holds (shards.ts), and what its own commits scheduled (an API call served here).
 */
import type { Config } from "../../config.ts";
import type { RateLimiter } from "../accounts/rate_limit.ts";
import type { LogLine } from "../http.ts";
import type { Committed, DueEntry, DueItem, Store } from "../kv/store.ts";
import { z } from "zod";
import { Sender } from "./sender.ts";
import { DueSteps } from "./steps.ts";
import type { AttemptResult } from "./deliver.ts";
import type { Delivery } from "./delivery_model.ts";
import { DueHeap } from "./due_heap.ts";
import { DueRuns } from "./runs.ts";
import { type Claim, HEARTBEAT_MS, Lease, STOPPED } from "./lease.ts";
import { shardOf, Shards } from "./shards.ts";

/** Queue messages as written by the store (one per due instant); anything else is ignored. */
const QueueMessageSchema = z.object({ kind: z.literal("instant"), at: z.number() });

/** How often running claims are checked for dead claimers (and once at start). */
const TAKE_OVER_EVERY_MS = 2500;
/** Sweep ticks skipped at most in a row while due work runs. */
const SWEEP_SKIPS_MAX = 10;
/** Ranges of an instant's records read side by side over a network (their shards cut in about as many). */
const READ_SIDE_BY_SIDE = 8;
/** The heap loads again from the index once it holds twice what it was loaded with, and at least this many. */
const RELOAD_MIN = 50_000;

export interface SchedulerDeps {
  store: Store;
  config: Config;
  now: () => number;
  log?: (line: LogLine) => void;
  /** Injectable for tests. */
  fetch?: typeof fetch;
  /** The fewest instants the heap holds before it loads again from the index (tests). */
  reloadMin?: number;
  /** The monotonic clock other instances' silence is timed on (default `performance.now`; tests). */
  mono?: () => number;
  /** How long a KV call of a live process may keep retrying a busy file (default the store's; tests). */
  busyMs?: number;
  /** Counts clock-driven webhooks against the plans' `webhooks_per_day` (none: unlimited). */
  limiter?: RateLimiter;
  /**
   * How this process shares the due work (shards.ts): "shared" holds shard leases; "alone" knows
   * no other scheduler runs on this KV (the lock of a local file, or an in-memory KV), so it holds
   * every shard and takes over other instances' claims at once. Unset: every shard, claims taken
   * over by the liveness rule.
   */
  sharing?: "shared" | "alone";
}

export class Scheduler {
  readonly sender: Sender;
  /** What happens at a due instant (steps.ts). */
  readonly steps: DueSteps;
  #heap: DueHeap;
  /** The due work being stepped here (runs.ts). */
  readonly runs: DueRuns;
  #sweepTimer: ReturnType<typeof setInterval> | undefined;
  #beatTimer: ReturnType<typeof setInterval> | undefined;
  #takeOverTimer: ReturnType<typeof setInterval> | undefined;
  /** Claims, heartbeat and take-over decisions of this instance (lease.ts). */
  readonly lease: Lease;
  #started = false;
  #sweeping: Promise<void> | null = null;
  #skipped = 0;
  #stopped = false;
  /** The shards of the due work this instance steps (shards.ts). */
  readonly shards: Shards;
  #rebalancing: Promise<void> | null = null;

  constructor(readonly deps: SchedulerDeps) {
    this.lease = new Lease({
      timeoutMs: deps.config.webhookTimeoutMs,
      busyMs: deps.busyMs,
      mono: deps.mono,
      alone: deps.sharing === "alone",
    });
    this.shards = new Shards({
      store: deps.store,
      lease: this.lease,
      sharing: deps.sharing === "shared" ? "shared" : "all",
    });
    this.sender = new Sender({ ...deps, lease: this.lease, onCommitted: this.committed });
    this.runs = new DueRuns({
      step: (entries) => this.steps.run(entries),
      mine: (page) => this.shards.all ? page : page.filter(this.#mine),
      arm: (at) => {
        if (!this.#stopped) this.#heap.add(at);
      },
      log: (msg, e) => this.#log("error", msg, e),
    });
    this.steps = new DueSteps({
      store: deps.store,
      now: deps.now,
      sender: this.sender,
      committed: this.committed,
      claim: (now) => this.claim(now),
      arm: (item) => this.arm(item),
      stepped: this.runs.stepped,
      log: (level, msg, e) => this.#log(level, msg, e),
    });
    this.#heap = new DueHeap(deps.now, (instants) => void this.runAt(instants), {
      read: () => this.#dueInstants(),
      min: deps.reloadMin ?? RELOAD_MIN,
      reloaded: (held, armed, e) =>
        e ? this.#log("error", "reloading the due heap failed", e) : this.#log("info", "due heap reloaded", undefined, {
          held,
          armed,
        }),
    });
  }

  /** This instance, named in its claims and heartbeats. */
  get instance(): string {
    return this.lease.instance;
  }

  /**
   * Told of every commit made for this process (by the timer service and by its own steps): arms
   * what it scheduled and sends the deliveries born claimed by this instance.
   */
  readonly committed = (c: Committed): void => {
    if (this.#stopped) return;
    const now = this.deps.now();
    if (!this.shards.all) this.shards.scheduled(c.due, now);
    for (const item of c.due) this.runs.armAfterStep(item);
    // A claim that ran out before its commit was told of (an answer that came late, or a refused
    // commit found landed) is left to the sweep, which may be claiming it again right now: sent
    // from here as well, its outcome would fail to record over that new claim, and the delivery
    // would go out once more when the new claim runs out.
    const born = c.born.filter((b) => b.delivery.next_attempt_at! > now);
    if (born.length > 1) this.sender.order.prefetch(born.map((b) => b.delivery));
    for (const b of born) this.sender.submit(b.delivery, b.versionstamp);
  };

  /** The claim deliveries due at once are born with while this scheduler runs (else none: the sweep's). */
  claim(now: number): Claim | null {
    return this.#started && !this.#stopped ? this.lease.claim(now) : null;
  }

  /** A timer deleted through this process: attempts of it queued here are dropped unsent. */
  dropped(timerId: string): void {
    this.sender.drop(timerId);
  }

  get pool() {
    return this.sender.pool;
  }

  /** Entries of its shards, and its own claims wherever they are. */
  #mine = (e: DueEntry): boolean => this.shards.steps(e.item) || this.#ownClaim(e);

  /**
   * A claim of this instance: only it takes the claim up while it lives, in whichever shard the
   * entry now is (a rebalance may have moved it; a commit whose answer was lost, the KV restarting,
   * leaves its deliveries claimed here and never handed to the pool, for the sweep to find).
   */
  #ownClaim = (e: DueEntry): boolean => e.value.kind === "delivery" && e.value.by === this.instance;

  /**
   * Arms every deadline of its shards in KV, then sweeps at intervals; listens to the queue where
   * there is one. Sharing the work, it claims its shards first and rebalances at every heartbeat.
   */
  start(): void {
    this.#started = true;
    void this.beat();
    this.#beatTimer = setInterval(() => {
      void this.beat();
      void this.rebalance();
    }, HEARTBEAT_MS);
    if (this.deps.store.opts.useQueue) {
      this.deps.store.kv.listenQueue((msg) => this.onQueueMessage(msg)).catch((e) =>
        this.#log("error", "queue listener stopped", e)
      );
    }
    // The first round's shards are armed by the load; later gains by `rebalance`.
    void this.rebalance(false).then(() => this.#load()).then(async () => {
      if (this.#stopped) return;
      this.#sweepTimer = setInterval(() => void this.sweep(), this.deps.config.sweepIntervalMs);
      await this.takeOver();
      this.#takeOverTimer = setInterval(() => void this.takeOver(), TAKE_OVER_EVERY_MS);
    });
  }

  /** Writes this instance's next heartbeat; the lease hears when it landed (a failed one is the next one's to make up). */
  async beat(): Promise<void> {
    const sent = this.lease.beatSent();
    const beat = this.lease.nextBeat(!this.shards.all);
    const vs = await this.deps.store.timers.beat(this.instance, beat).catch(() => null);
    if (vs) this.lease.landed(vs, sent);
  }

  /** The instants of the due index not yet come (what is overdue goes to the sweep, read in bulk). */
  async *#dueInstants(): AsyncGenerator<number[]> {
    const t = this.deps.now();
    for await (const page of this.deps.store.timers.allDue()) {
      yield page.flatMap((item) =>
        item.kind === "expire" || item.at <= t || !this.shards.holdsRef(item.ref) ? [] : [item.at]
      );
    }
  }

  /**
   * One round of shard leases (shards.ts): claims this instance's share, lets extras go; arms and
   * sweeps the entries of shards gained (`arm` false: the first round, armed by the load).
   */
  rebalance(arm = true): Promise<void> {
    if (this.shards.all || this.#stopped) return Promise.resolve();
    this.#rebalancing ??= (async () => {
      try {
        const { gained, lost } = await this.shards.rebalance();
        if (!gained.length && !lost.length) return;
        this.#log("info", "shards rebalanced", undefined, { held: this.shards.held.length, gained, lost });
        // Not awaited: a long index keeps no round waiting (settled() waits for it as a wake-up).
        if (arm && gained.length && !this.#stopped) void this.runs.wake(this.#armShards(new Set(gained)));
      } catch (e) {
        this.#log("error", "rebalancing shards failed", e);
      }
    })().finally(() => this.#rebalancing = null);
    return this.#rebalancing;
  }

  /** Arms the deadlines of shards just gained, then yields what of them is overdue (the sweep's pages). */
  async *#armShards(gained: Set<number>): AsyncGenerator<DueEntry[]> {
    const t = this.deps.now();
    for await (const page of this.deps.store.timers.allDue()) {
      for (const item of page) {
        if (item.kind !== "expire" && item.at > t && gained.has(shardOf(item.ref, this.shards.count))) {
          this.#heap.add(item.at);
        }
      }
    }
    yield* this.deps.store.timers.overdue(this.deps.now());
  }

  async #load(): Promise<void> {
    const t0 = performance.now();
    let n = 0;
    try {
      n = await this.#heap.load(this.#dueInstants());
      await this.sweep(true);
    } catch (e) {
      this.#log("error", "arming the due index failed", e);
    }
    const { heapUsed, rss } = Deno.memoryUsage();
    this.#log("info", "scheduler armed", undefined, {
      armed: n,
      shards: this.shards.held.length,
      ms: Math.round(performance.now() - t0),
      heap_mib: Math.round(heapUsed / 1048576),
      rss_mib: Math.round(rss / 1048576),
    });
  }

  /** Stops waking up; attempts already running finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sweepTimer);
    clearInterval(this.#beatTimer);
    clearInterval(this.#takeOverTimer);
    this.#heap.stop();
    this.runs.stop();
    // Its shards go at once: the others arm and step them while this one's attempts finish.
    await this.#rebalancing;
    if (this.#started) await this.shards.releaseAll().catch((e) => this.#log("error", "releasing shards failed", e));
    await this.settled();
    // Gone for good: claims still held (past an account's bound) are another process's at once.
    if (this.#started) await this.deps.store.timers.beat(this.instance, STOPPED).catch(() => {});
  }

  /**
   * Waits until every wake-up, step and attempt started so far has finished, instants armed after
   * a step included, and runs what the heap holds due by the clock now (for tests and benchmarks).
   */
  async settled(): Promise<void> {
    const busy = () =>
      this.runs.busy || this.#sweeping || this.#rebalancing !== null || this.#heap.loading !== null ||
      this.sender.pool.pending > 0;
    for (this.#heap.fireDue(); busy(); this.#heap.fireDue()) {
      await this.runs.idle();
      await this.#heap.loading;
      await this.#rebalancing;
      await this.#sweeping;
      await this.sender.settled();
    }
    await this.sender.settled();
  }

  /**
   * Takes over the running claims of instances certainly gone (a process killed in the middle of
   * a burst; lease.ts decides, on this process's monotonic clock): their deliveries go out now.
   */
  async takeOver(): Promise<void> {
    // Not while stepping (its read of every running claim would slow a burst), unless an instance
    // was just found gone (shared shards: one stopped, or marked so by its restart): its claims in
    // this one's shards go out now, not when they run out (a lease later). One round at a time.
    if (this.#stopped || (this.runs.stepping > 0 && !this.lease.recentlyGone(this.sender.leaseMs))) return;
    this.#takingOver ??= this.#takeOver().finally(() => this.#takingOver = null);
    await this.#takingOver;
  }

  #takingOver: Promise<void> | null = null;

  async #takeOver(): Promise<void> {
    const { store, now } = this.deps;
    try {
      const t = now();
      const claims: DueEntry[] = [];
      for await (const page of store.timers.dueBetween(t, t + this.sender.leaseMs + 1000)) {
        for (const e of page) {
          if (e.value.kind === "delivery" && e.value.by && e.value.by !== this.instance && this.#mine(e)) {
            claims.push(e);
          }
        }
      }
      if (!claims.length) return;
      const owners = [...new Set(claims.map((e) => (e.value as { by: string }).by))];
      const dead = this.lease.observe(await store.timers.heartbeats(owners));
      const orphans = claims.filter((e) => dead.has((e.value as { by: string }).by));
      for (let i = 0; i < orphans.length; i += 500) await this.sender.claims.stepAll(orphans.slice(i, i + 500));
      if (orphans.length) {
        this.#log("info", "took over claims of stopped instances", undefined, { claims: orphans.length });
      }
    } catch (e) {
      this.#log("error", "taking over claims failed", e);
    }
  }

  /** Holds a deadline for its instant; expiries are left to the sweep (nobody waits for them). */
  arm(item: DueItem): void {
    if (this.#stopped || item.kind === "expire") return;
    this.#heap.add(item.at);
  }

  /** Armed deadlines held in memory. */
  get armed(): number {
    return this.#heap.size;
  }

  /**
   * Runs everything overdue that is not already running here. While this process is busy with
   * due work the sweep waits (at most SWEEP_SKIPS_MAX ticks): it would only re-read that work.
   * `force`: it runs anyway (at start, where what was overdue is left to it rather than armed).
   */
  sweep(force = false): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (!force && this.runs.stepping > 0 && this.#skipped++ < SWEEP_SKIPS_MAX) return Promise.resolve();
    this.#skipped = 0;
    // Deletes a crash left half done are finished after the due work (whose claims they refuse).
    this.#sweeping ??= this.runs.wake(this.deps.store.timers.overdue(this.deps.now()), "sweep failed")
      .then(async () => void await this.deps.store.timers.finishDeletes())
      .catch((e) => this.#log("error", "sweep failed", e))
      .finally(() => {
        this.#sweeping = null;
      });
    return this.#sweeping;
  }

  /**
   * Runs the work due at these instants: the records written with their due entries, read by
   * range — sharing the work, only its shards' ranges and what its own commits scheduled outside
   * them. An entry without a record (a running claim, or one written by an older version) is the sweep's.
   */
  runAt(instants: number[]): Promise<void> {
    const { store } = this.deps;
    const { ranges, own } = this.shards.toRead(instants, store.timers.remote ? READ_SIDE_BY_SIDE : 1);
    return this.runs.wake(store.timers.recordsAt(instants, ranges, own));
  }

  /** A queue message: validated, then the same steps as any other wake-up. */
  async onQueueMessage(raw: unknown): Promise<void> {
    if (this.#stopped) return; // a wake-up only: the due index keeps the work for the next process
    const parsed = QueueMessageSchema.safeParse(raw);
    if (!parsed.success) {
      if ((raw as { kind?: unknown })?.kind !== "probe") this.#log("warn", "ignored an unknown queue message");
      return;
    }
    const { at } = parsed.data;
    // Whatever is still due at that instant (done work has left the index).
    if (at > this.deps.now()) return void await this.deps.store.timers.requeue(at, this.deps.now());
    await this.runs.wake(this.deps.store.timers.entriesAt(at));
  }

  /** Signs with the account's current secrets and POSTs once (the webhook test uses it too). */
  send(d: Pick<Delivery, "account_id" | "url" | "payload">, at: number): Promise<AttemptResult> {
    return this.sender.send(d, at);
  }

  #log(level: string, msg: string, e?: unknown, extra?: Record<string, unknown>) {
    this.deps.log?.({
      time: new Date().toISOString(),
      level,
      msg,
      error: e instanceof Error ? e.message : e === undefined ? undefined : String(e),
      ...extra,
    });
  }
}
