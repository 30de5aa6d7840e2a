/**
 * Sends deliveries claimed for this process (claims.ts): each attempt checked, admitted against
 * the bound on what a crash sends again, POSTed from a bounded worker pool; their outcomes go to
 * the recorder (recorder.ts).
 */
import type { Config } from "../../config.ts";
import type { RateLimiter } from "../accounts/rate_limit.ts";
import { signingSecrets } from "../accounts/accounts.ts";
import type { LogLine } from "../http.ts";
import type { Account, OnCommitted, Store } from "../kv/store.ts";
import { afterAttempt, type Delivery, heldBack } from "./delivery_model.ts";
import { OrderGate } from "./order.ts";
import { OutcomeRecorder } from "./recorder.ts";
import { maxOpen, Unrecorded } from "./unrecorded.ts";
import { DeliveryReads } from "./reads.ts";
import { PLAN_DAY_SPENT, testOutcome, testSendWait, withinPlan } from "./quota.ts";
import { WorkerPool } from "./pool.ts";
import { signDelivery } from "./signing.ts";
import { type AttemptResult, postOnce } from "./deliver.ts";
import type { Lease } from "./lease.ts";
import { Claims } from "./claims.ts";

export { LEASE_GRACE_MS } from "./lease.ts";
/** An attempt that waited longer than this to be admitted (see `unrecorded`) reads its claim again. */
const RECHECK_AFTER_MS = 100;
/**
 * Attempts in flight: as many as keep TARGET_PER_MS deliveries going at the answer time measured
 * (Little's law), at least MIN_IN_FLIGHT, at most WEBHOOK_CONCURRENCY. A fast receiver needs few;
 * more only wait in this process's own queue, and every attempt in flight is sent again if the
 * process dies before recording its answer. SIGKILL in the middle of a 10 000 burst (2026-11-24):
 * 64 in flight → 124 sent twice, 32 → 32, 16 → 16; 32 kept the burst faster than 16. Slow or silent receivers raise the answer time, and so the limit.
 * Accounts share the slots (pool.ts): one account's silent receivers leave the others a quarter at once.
 * A slot is also held for the checks before the POST (a read: a round trip over a remote
 * KV), so the slots are that many more: the POSTs in flight stay as many, each slot sends less often.
 */
const MIN_IN_FLIGHT = 32;
const TARGET_PER_MS = 1;
/** The errors of an attempt to an account endpoint deleted or disabled since the event (nothing is sent). */
export const ENDPOINT_DELETED = "the webhook endpoint was deleted; not sent";
export const ENDPOINT_DISABLED = "the webhook endpoint is disabled; not sent";
/** The error of an attempt whose timer's account no longer exists (nothing is sent). */
const ACCOUNT_GONE = "account no longer exists";

export interface SenderDeps {
  store: Store;
  config: Config;
  now: () => number;
  log?: (line: LogLine) => void;
  fetch?: typeof fetch;
  /** This process's claims and its view of other instances' heartbeats. */
  lease: Lease;
  /** Told of what recorded outcomes scheduled (retries to arm). */
  onCommitted?: OnCommitted;
  /** Counts clock-driven webhooks against the plans' `webhooks_per_day` (none: unlimited). */
  limiter?: RateLimiter;
}

/**
 * What an attempt left: its outcome (or hold) being recorded, or its delivery to go after its
 * timer's earlier one queued here, or nothing (not sent, nothing to record).
 */
type Attempted = { recording: Promise<unknown> } | { behind: { d: Delivery; versionstamp: string } } | undefined;

/** A timer's delivery (not a rundown's) never tried yet. */
const firstOfTimer = (d: Delivery) => d.attempts.length === 0 && !d.timer_id.startsWith("rdn_");

/** How many deleted timers the sender remembers, to drop their attempts still queued here. */
const DROPPED_KEPT = 10_000;

export class Sender {
  readonly pool: WorkerPool;
  /** Group commits of outcomes and holds, and the delivery logs' bound. */
  readonly recorder: OutcomeRecorder;
  /** Holds a delivery back while its timer's one before it was never tried (order.ts). */
  readonly order: OrderGate;
  /** Single deliveries read before sending, gathered into getMany calls. */
  readonly reads: DeliveryReads;
  /** Claims due deliveries for this process, each account's held here bounded. */
  readonly claims: Claims;
  /**
   * Attempts from their POST (admitted after their checks) to their outcome's record, bounded: all
   * that a crash can send again (unrecorded.ts). A receiver slow for a second raises the bound to the
   * pool's slots. Tests replace it with a smaller one.
   */
  unrecorded: Unrecorded;
  /** Deliveries (`timerId/id`) handed to the pool here and not yet recorded: this process's own work. */
  #held = new Set<string>();
  /** Timers deleted through this process: their attempts still queued here are dropped unsent. */
  #dropped = new Set<string>();

  constructor(readonly deps: SenderDeps) {
    this.pool = new WorkerPool(deps.config.webhookConcurrency);
    this.recorder = new OutcomeRecorder({
      store: deps.store,
      now: deps.now,
      onCommitted: deps.onCommitted,
      log: (msg, e) => this.#log("error", msg, e),
    });
    this.reads = new DeliveryReads(deps.store);
    this.order = new OrderGate(deps.store, (timerId, id) => this.reads.read(timerId, id));
    this.claims = new Claims({
      store: deps.store,
      now: deps.now,
      lease: deps.lease,
      pendingOf: (accountId) => this.pool.pendingOf(accountId),
      holds: (ref) => this.#held.has(ref),
      submit: (d, versionstamp) => this.submit(d, versionstamp),
      prefetch: (ds) => this.order.prefetch(ds),
    });
    this.pool.setLimit(MIN_IN_FLIGHT);
    this.unrecorded = new Unrecorded(maxOpen(deps.store.timers.limits.inFlight), deps.config.webhookConcurrency);
  }

  /**
   * Answer time of recent attempts and the time their checks took before the POST (ms, moving
   * averages), which set how many go at once: POSTs by the answer time, slots by both.
   */
  #answerMs: number | null = null;
  #checkMs = 0;
  #observe(answerMs: number, checkMs: number): void {
    this.#answerMs = this.#answerMs === null ? answerMs : this.#answerMs * 0.9 + answerMs * 0.1;
    this.#checkMs = this.#checkMs * 0.9 + checkMs * 0.1;
    const posts = Math.max(MIN_IN_FLIGHT, this.#answerMs * TARGET_PER_MS);
    this.pool.setLimit(posts * (1 + this.#checkMs / Math.max(1, this.#answerMs)));
    // Only a receiver slow for a second raises the bound on what a crash sends again.
    this.unrecorded.observe(answerMs, performance.now());
  }

  /** How long a claim made now holds. */
  get leaseMs(): number {
    return this.deps.lease.leaseMs;
  }

  /**
   * A timer was deleted: its attempts queued here are dropped, and none is POSTed from now on
   * (told before the delete commits, so nothing leaves after the DELETE's answer).
   */
  drop(timerId: string): void {
    if (this.#dropped.size >= DROPPED_KEPT) this.#dropped.delete(this.#dropped.values().next().value!);
    this.#dropped.add(timerId);
  }

  /** Whether an attempt of this delivery is held here (queued, running, or its outcome being recorded). */
  holds(ref: string): boolean {
    return this.#held.has(ref);
  }

  /**
   * Hands a claimed delivery to the pool, where accounts share the slots fairly; past the
   * account's bound it stays due in KV, taken up again once its claim ran out and the account has room.
   */
  submit(d: Delivery, versionstamp: string): void {
    const ref = `${d.timer_id}/${d.id}`;
    if (this.claims.full(d.account_id) || this.#held.has(ref) || this.#dropped.has(d.timer_id)) return;
    this.#held.add(ref);
    this.#enqueue(d, versionstamp, this.pool.wouldWait(d.timer_id, d.account_id));
  }

  /** Deliveries (`timerId/id`) queued in the pool here whose attempt has not started yet. */
  #queued = new Set<string>();

  /** Queues an attempt in its timer's lane of the pool. */
  #enqueue(d: Delivery, versionstamp: string, waits: boolean): void {
    const ref = `${d.timer_id}/${d.id}`;
    // Held until its outcome is recorded: a sweep meanwhile must not take this claim up again.
    const release = () => this.#held.delete(ref);
    this.#queued.add(ref);
    void this.pool.submit(d.timer_id, async () => {
      this.#queued.delete(ref);
      let recording: Promise<unknown> | undefined;
      let behind = false;
      try {
        const r = await this.#attempt(d, versionstamp, waits);
        // Its timer's earlier delivery is queued in the same lane (claimed later): it goes after it.
        if (r && "behind" in r) {
          behind = true;
          this.#enqueue(r.behind.d, r.behind.versionstamp, true);
        } else recording = r?.recording;
      } finally {
        if (recording) void recording.finally(release);
        else if (!behind) release();
      }
    }, d.account_id);
  }

  /**
   * One attempt of a claimed delivery. `waited`: it was queued behind others, so it is checked
   * again before it is POSTed: a timer deleted or a delivery changed meanwhile sends nothing.
   */
  async #attempt(claimed: Delivery, claimVersion: string, waited: boolean): Promise<Attempted> {
    const admission = { held: false };
    let r: Attempted;
    try {
      return r = await this.#checkAndSend(claimed, claimVersion, waited, admission);
    } finally {
      if (admission.held) {
        // Admitted until its outcome is recorded: until then a crash may send it again.
        const group = claimed.account_id;
        const recording = r && "recording" in r ? r.recording : undefined;
        if (recording) void recording.finally(() => this.unrecorded.release(group));
        else this.unrecorded.release(group);
      }
    }
  }

  /**
   * The claim as this attempt holds it before it goes on: read once if the attempt `waited`
   * (deleted, changed or taken over meanwhile: nothing to send). Null: stop.
   *
   * A claim that runs out while its attempt waits or runs is not renewed: nobody else takes it up
   * while this process lives. Another instance takes a claim over only once its claimer is
   * certainly gone (lease.ts: a heartbeat standing still longer than a live process can be silent),
   * and this process not while the attempt is held here (`holds`). A claimer thought gone while it
   * lives (frozen that long) finds its claim taken over in this read. Renewing it instead cost a
   * group commit per waiting attempt, in its pool slot: over KV Connect (+20 ms a call) a burst of
   * 10 000 whose attempts waited past 2.5 s made 3 800–4 100 commits instead of 2 150, and one
   * instance finished in 10–13.6 s instead of 9.
   */
  async #recheck(
    d: Delivery,
    versionstamp: string,
    waited: boolean,
  ): Promise<{ d: Delivery; versionstamp: string } | null> {
    if (!waited) return { d, versionstamp };
    if (
      versionstamp && firstOfTimer(d) && d.next_attempt_at! > this.deps.now() &&
      this.deps.lease.unsuspected(versionstamp)
    ) {
      // While its claim holds, only its timer's delete changes such a claim (URL changes drop
      // retries only; take-overs wait for its claimer to be gone, which a claim run out may mean,
      // and so may a claim committed before any recent beat of this process landed: KV out of
      // reach longer than the liveness bound, its beats with it; see `unsuspected`), and every
      // delete writes its account's sequence: none since the claim, nothing to read (the read of
      // every delivery that waited was 3 % of a 10 000 burst's main thread).
      const lastDelete = await this.reads.lastDelete(d.account_id);
      if (lastDelete === null || lastDelete < versionstamp) return { d, versionstamp };
    }
    const current = await this.reads.read(d.timer_id, d.id);
    return !current || (versionstamp && current.versionstamp !== versionstamp) ? null : { d, versionstamp };
  }

  /**
   * Its checks, then — admitted against the bound on what a crash sends again (`unrecorded`) —
   * the POST, and its outcome handed to the recorder. Sets `admission.held` once admitted.
   */
  async #checkAndSend(
    claimed: Delivery,
    claimVersion: string,
    waited: boolean,
    admission: { held: boolean },
  ): Promise<Attempted> {
    const { config, now } = this.deps;
    if (this.#dropped.has(claimed.timer_id)) return;
    const checking = performance.now();
    const checked = await this.#recheck(claimed, claimVersion, waited);
    if (!checked) return;
    const { d, versionstamp } = checked;
    const heldUntil = this.order.free(d) ? null : await this.order.heldUntil(d, now());
    if (heldUntil !== null) {
      if (this.#queued.has(`${d.timer_id}/${d.after}`)) return { behind: { d, versionstamp } };
      // Its timer's earlier delivery was never tried (claimed by a process that died?): looked at again later.
      return { recording: this.recorder.grouped({ versionstamp, prev: d, next: heldBack(d, heldUntil) }) };
    }
    const checkMs = performance.now() - checking;
    // Admitted after its checks, so those (reads gathered from many attempts) do not count against
    // the bound. A wait for it lasts until an earlier answer is recorded: with fast receivers a few
    // milliseconds, no longer than the awaits after the read above already take, so the read stands
    // (reading again measured +18 % CPU per timer on a 10 000 burst); a longer one reads the claim
    // again.
    if (this.unrecorded.tryAdmit(d.account_id)) admission.held = true;
    else {
      const admitting = performance.now();
      await this.unrecorded.admit(d.account_id);
      admission.held = true;
      if (performance.now() - admitting > RECHECK_AFTER_MS && !await this.#recheck(d, versionstamp, true)) return;
    }
    const started = now();
    let tried = d;
    let result: AttemptResult | null;
    // Deliveries to a timer's own URL go as they are, without a turn of the event loop more.
    const endpoints = this.deps.store.endpoints;
    const saves = d.endpoint_id === undefined ? 0 : endpoints.saves(d.account_id);
    const endpointGone = d.endpoint_id === undefined ? undefined : await this.#toEndpoint(d);
    if (typeof endpointGone === "string") {
      // Deleted or disabled since: nothing sent; the log says why (a redelivery can send it later).
      result = { ok: false, status: null, error: endpointGone, duration_ms: 0 };
      tried = { ...d, last_try: true };
    } else if (await this.#withinPlan(d, started)) {
      // An endpoint's new URL takes its retries.
      if (endpointGone) tried = endpointGone;
      // Checked last, in the same turn as the POST leaves: a DELETE answered before then stops it,
      // and so does a change of the account's endpoints made here since they were read (it goes
      // once its claim ran out, the change read then).
      const wanted = () =>
        !this.#dropped.has(d.timer_id) && (d.endpoint_id === undefined || endpoints.saves(d.account_id) === saves);
      result = await this.send(tried, started, wanted);
      if (result === null) return;
    } else {
      // Over the plan's day: recorded failed at once, never silently dropped (redeliverable later).
      result = { ok: false, status: null, error: PLAN_DAY_SPENT, duration_ms: 0 };
      tried = { ...d, last_try: true };
    }
    if (result.error === ACCOUNT_GONE) {
      // A timer created while its account was being deleted: nobody owns it, so it goes with its deliveries.
      await this.deps.store.timers.deleteTimer(d.timer_id).catch((e) =>
        this.#log("error", "deleting an orphan failed", e)
      );
      return;
    }
    this.#observe(result.duration_ms, checkMs);
    const next = afterAttempt(tried, result, started, now(), config.webhookRetryDelays);
    // Recorded in the background: the pool slot goes to the next attempt at once. Fails only
    // where the delivery changed meanwhile (its timer was deleted, its URL changed).
    const recording = this.recorder.outcome({ versionstamp, prev: d, next });
    this.order.recording(d, recording);
    return { recording };
  }

  /**
   * For a delivery to an account endpoint: why it is not sent (the endpoint was deleted or
   * disabled), or the delivery to its current URL if that changed; undefined when it goes as it is.
   */
  async #toEndpoint(d: Delivery): Promise<string | Delivery | undefined> {
    if (d.endpoint_id === undefined) return undefined;
    // As stored now: another instance's delete or disable is seen at once, not after the cache's 5 s.
    const endpoint = (await this.reads.endpointsOf(d.account_id)).find((e) => e.id === d.endpoint_id);
    if (!endpoint) return ENDPOINT_DELETED;
    if (!endpoint.enabled) return ENDPOINT_DISABLED;
    return endpoint.url === d.url ? undefined : { ...d, url: endpoint.url };
  }

  /**
   * A test send: at most TEST_SENDS_PER_MINUTE a minute per account (else the seconds to wait), sent
   * through the pool in the account's share like every delivery, reported by `testOutcome`.
   */
  async testSend(
    d: Pick<Delivery, "account_id" | "timer_id" | "url" | "payload">,
    at: number,
  ): Promise<AttemptResult | { retryAfter: number }> {
    const wait = await testSendWait(this.deps.limiter, d.account_id);
    if (wait > 0) return { retryAfter: wait };
    let result: AttemptResult = { status: null, error: "not sent", duration_ms: 0, ok: false };
    await this.pool.submit(`test:${d.timer_id}`, async () => void (result = await this.send(d, at)), d.account_id);
    return testOutcome(result, [ACCOUNT_GONE]);
  }

  /** Whether a delivery's first attempt is within its account's webhooks_per_day (counted if so). */
  async #withinPlan(d: Delivery, at: number): Promise<boolean> {
    const { limiter, config } = this.deps;
    return await withinPlan(limiter, config.plans, limiter ? await this.#account(d.account_id, at) : null, d);
  }

  /** Trims a timer's log once enough new outcomes were recorded for it (here or by a test send). */
  counted(timerId: string): void {
    this.recorder.counted(timerId);
  }

  /** Trims a timer's log now (see LogTrimmer). */
  trimLog(timerId: string): Promise<number> {
    return this.recorder.log.trim(timerId);
  }

  /** Resolves once every attempt and record started so far has finished. */
  async settled(): Promise<void> {
    while (this.pool.pending > 0 || this.recorder.busy) {
      await this.pool.idle();
      await this.recorder.settled();
    }
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

  /** Signs with the account's current secrets and POSTs once (null: `wanted` said no at the last moment). */
  async send(d: Pick<Delivery, "account_id" | "url" | "payload">, at: number): Promise<AttemptResult>;
  async send(
    d: Pick<Delivery, "account_id" | "url" | "payload">,
    at: number,
    wanted: () => boolean,
  ): Promise<AttemptResult | null>;
  async send(
    d: Pick<Delivery, "account_id" | "url" | "payload">,
    at: number,
    wanted?: () => boolean,
  ): Promise<AttemptResult | null> {
    const { config } = this.deps;
    const account = await this.#account(d.account_id, at);
    if (wanted && !wanted()) return null;
    if (!account) return { status: null, error: ACCOUNT_GONE, duration_ms: 0, ok: false };
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
