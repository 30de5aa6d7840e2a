/**
 * Per-minute and per-day request limits shared by every process on one KV, without a KV write
 * per request: each process counts in memory and merges its counts into KV every `flushMs`
 * (an atomic `sum` per window), reading back the totals of all processes.
 *
 * Overshoot bound: between two merges a process only knows the others' counts as of the last
 * merge, so with P processes a window can admit at most what the other P−1 processes admit in
 * one flush interval beyond the limit. One process never overshoots.
 */
import type { MiddlewareHandler } from "hono";
import type { PlanLimits, Plans } from "../../config.ts";
import type { KeyResolver, Principal } from "./auth.ts";
import { ApiError } from "../errors.ts";
import type { AppEnv } from "../http.ts";
import { rateKey } from "../kv/keys.ts";

export interface Decision {
  allowed: boolean;
  /** The per-minute limit (or the daily one where only that applies); null when unlimited. */
  limit: number | null;
  remaining: number | null;
  /** Unix epoch seconds at which the current minute window resets. */
  reset: number;
  /** Seconds to wait, when refused. */
  retryAfter?: number;
  /** Which window refused: "minute" or "day". */
  window?: "minute" | "day";
}

interface Window {
  start: number;
  /** All processes' count as of the last merge (includes what this process merged). */
  merged: number;
  /** Counted here since the last merge. */
  pending: number;
}

interface Subject {
  minute: Window;
  day: Window;
  touched: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export class RateLimiter {
  #subjects = new Map<string, Subject>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> | null = null;
  /** Counters of windows that have ended, deleted at the next merge. */
  #stale: Deno.KvKey[] = [];

  constructor(
    readonly kv: Deno.Kv,
    readonly opts: { flushMs: number; now: () => number },
  ) {}

  /** Counts one request of `subject` against `limits`, unless it is over them. */
  check(subject: string, limits: PlanLimits): Decision {
    const now = this.opts.now();
    const s = this.#subject(subject, now);
    const minuteUsed = s.minute.merged + s.minute.pending;
    const dayUsed = s.day.merged + s.day.pending;
    const reset = Math.floor((s.minute.start + MINUTE) / 1000);
    const limit = limits.per_minute ?? limits.per_day;
    if (limits.per_day !== null && dayUsed >= limits.per_day) {
      const retryAfter = Math.ceil((s.day.start + DAY - now) / 1000);
      return { allowed: false, limit, remaining: 0, reset, retryAfter, window: "day" };
    }
    if (limits.per_minute !== null && minuteUsed >= limits.per_minute) {
      const retryAfter = Math.max(1, Math.ceil((s.minute.start + MINUTE - now) / 1000));
      return { allowed: false, limit, remaining: 0, reset, retryAfter, window: "minute" };
    }
    s.minute.pending++;
    s.day.pending++;
    s.touched = now;
    const remaining = limits.per_minute !== null
      ? limits.per_minute - minuteUsed - 1
      : limits.per_day !== null
      ? limits.per_day - dayUsed - 1
      : null;
    return { allowed: true, limit, remaining, reset };
  }

  #subject(name: string, now: number): Subject {
    const minuteStart = now - (now % MINUTE);
    const dayStart = now - (now % DAY);
    let s = this.#subjects.get(name);
    if (!s) {
      s = { minute: fresh(minuteStart), day: fresh(dayStart), touched: now };
      this.#subjects.set(name, s);
    }
    if (s.minute.start !== minuteStart) {
      this.#stale.push(rateKey(name, "m", s.minute.start));
      s.minute = fresh(minuteStart);
    }
    if (s.day.start !== dayStart) {
      this.#stale.push(rateKey(name, "d", s.day.start));
      s.day = fresh(dayStart);
    }
    return s;
  }

  /** Merges pending counts into KV and refreshes the totals of recently active subjects. */
  flush(): Promise<void> {
    // One merge at a time: a second caller waits for the running one.
    this.#flushing ??= this.#flush().finally(() => this.#flushing = null);
    return this.#flushing;
  }

  async #flush(): Promise<void> {
    const now = this.opts.now();
    for (const stale of this.#stale.splice(0, 500)) await this.kv.delete(stale).catch(() => {});
    const work: { name: string; s: Subject; m: number; d: number }[] = [];
    for (const [name, s] of this.#subjects) {
      if (now - s.touched > 2 * MINUTE && s.minute.pending === 0 && s.day.pending === 0) {
        this.#stale.push(rateKey(name, "m", s.minute.start));
        this.#subjects.delete(name);
        continue;
      }
      // Refresh only subjects active in the current minute: their windows are the ones in use.
      if (now - s.touched > MINUTE) continue;
      work.push({ name, s, m: s.minute.pending, d: s.day.pending });
      s.minute.pending = 0;
      s.day.pending = 0;
    }
    for (const { name, s, m, d } of work) {
      const mKey = rateKey(name, "m", s.minute.start);
      const dKey = rateKey(name, "d", s.day.start);
      try {
        if (m > 0 || d > 0) {
          await this.kv.atomic().sum(mKey, BigInt(m)).sum(dKey, BigInt(d)).commit();
        }
        const [mv, dv] = await this.kv.getMany<[Deno.KvU64, Deno.KvU64]>([mKey, dKey]);
        if (s.minute.start === mKey[3]) s.minute.merged = Number(mv.value?.value ?? 0n);
        if (s.day.start === dKey[3]) s.day.merged = Number(dv.value?.value ?? 0n);
      } catch {
        // KV unavailable: keep the counts to merge next time rather than forget them.
        if (s.minute.start === mKey[3]) s.minute.pending += m;
        if (s.day.start === dKey[3]) s.day.pending += d;
      }
    }
  }

  /** Starts merging every `flushMs`. */
  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.opts.flushMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}

function fresh(start: number): Window {
  return { start, merged: 0, pending: 0 };
}

const EXPOSED = "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, X-Request-Id";

/**
 * The API's front door, one middleware for speed: CORS (keys are bearer tokens, never cookies,
 * so any origin may call), who is calling, the plan's API access, and the rate limit with its
 * X-RateLimit-* headers on every response (429 with Retry-After when over).
 */
export function apiGate(
  limiter: RateLimiter,
  plans: Plans,
  keys: KeyResolver,
): MiddlewareHandler<AppEnv> {
  return async function apiGate(c, next) {
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", EXPOSED);
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
      c.header("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE");
      c.header("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id");
      c.header("Access-Control-Max-Age", "86400");
      return c.body(null, 204);
    }
    let principal: Principal;
    let authError: unknown = null;
    try {
      principal = await keys.principal(c.req.header("authorization"), c.get("ip"));
    } catch (e) {
      // A bad key still counts against the caller's address, and the 401 carries the headers.
      authError = e;
      principal = { kind: "anonymous", ip: c.get("ip") };
    }
    const [subject, plan] = principal.kind === "account"
      ? [`acct:${principal.account.id}`, plans[principal.account.plan]]
      : principal.kind === "control"
      ? [`ctl:${principal.token.slice(0, 16)}`, plans.pro]
      : [`ip:${principal.ip}`, plans.anonymous];
    const d = limiter.check(subject, plan);
    // Set before the response exists, so Hono merges them without copying the response.
    c.header("X-RateLimit-Reset", String(d.reset));
    if (d.limit !== null) c.header("X-RateLimit-Limit", String(d.limit));
    if (d.remaining !== null) c.header("X-RateLimit-Remaining", String(Math.max(0, d.remaining)));
    if (!d.allowed) {
      throw new ApiError(
        429,
        `rate limit of ${
          d.window === "day" ? `${plan.per_day} requests per day` : `${plan.per_minute} requests per minute`
        } exceeded; retry in ${d.retryAfter} s`,
        undefined,
        { "Retry-After": String(d.retryAfter) },
      );
    }
    if (authError) throw authError;
    // Free plans have public events only.
    if (principal.kind === "account" && !plan.api && c.req.path.startsWith("/api/v1/timers")) {
      throw new ApiError(403, `the ${principal.account.plan} plan has no API access; upgrade to pro or enterprise`);
    }
    c.set("principal", principal);
    await next();
  };
}
