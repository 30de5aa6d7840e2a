/**
 * What an account's webhooks may cost (DECISIONS.md, "Bounds on what the clock sends"): clock-driven
 * deliveries count against the plan's `webhooks_per_day`, test sends against 10 a minute; both
 * are counted by the shared rate limiter (merged across processes through KV).
 */
import type { Config } from "../../config.ts";
import type { RateLimiter } from "../accounts/rate_limit.ts";
import type { Account } from "../kv/store.ts";
import type { AttemptResult } from "./deliver.ts";
import type { Delivery } from "./delivery_model.ts";

/** Events the clock sends, not a client's action: they count against the plan's webhooks_per_day. */
const CLOCK_EVENTS = new Set([
  "timer.completed",
  "timer.warning",
  "timer.danger",
  "interval.round_end",
  "interval.completed",
]);

/** Whether the clock sent it: its events, and the stop that ends an overtime at its limit. */
export function clockDriven(payload: { event: string; data?: unknown }): boolean {
  if (CLOCK_EVENTS.has(payload.event)) return true;
  // A rundown moved on by its item's finish (not by an action) is the clock's doing too.
  if (payload.event.startsWith("rundown.")) {
    return (payload.data as { cause?: unknown } | undefined)?.cause === "finish";
  }
  return payload.event === "timer.stopped" && (payload.data as { reason?: unknown } | undefined)?.reason ===
      "overtime_limit";
}
/** The error of a clock-driven delivery over its plan's day (recorded failed, redeliverable). */
export const PLAN_DAY_SPENT = "plan's daily webhook limit reached";
/** Test sends one account may make a minute. */
export const TEST_SENDS_PER_MINUTE = 10;
/** Redeliveries one account may ask for a minute (through the API and the dashboard together). */
export const REDELIVERIES_PER_MINUTE = 60;

/** Limits as the rate limiter reads them: only the window given counts. */
const only = (o: { per_minute?: number; per_day?: number }) => ({
  api: true,
  per_minute: o.per_minute ?? null,
  per_day: o.per_day ?? null,
  timers: null,
  webhooks_per_day: null,
});

/**
 * Whether a delivery's first attempt is within its account's webhooks_per_day (counted if so).
 * Retries, redeliveries and a client's own actions' events are not counted.
 */
export async function withinPlan(
  limiter: RateLimiter | undefined,
  plans: Config["plans"],
  account: Account | null,
  d: Pick<Delivery, "account_id" | "attempts" | "payload"> & { last_try?: boolean },
): Promise<boolean> {
  // A redelivery of a settled delivery (`last_try`) is one more clock-driven POST: it counts.
  const redelivered = "last_try" in d && d.last_try === true;
  if (!limiter || !account || (d.attempts.length > 0 && !redelivered) || !clockDriven(d.payload)) return true;
  const perDay = plans[account.plan]?.webhooks_per_day ?? null;
  if (perDay === null) return true;
  return (await limiter.check(`webhooks:${d.account_id}`, only({ per_day: perDay }))).allowed;
}

/** Counts one redelivery asked for by the account: 0 when allowed, else the seconds to wait. */
export async function redeliverWait(limiter: RateLimiter | undefined, accountId: string): Promise<number> {
  if (!limiter) return 0;
  const decision = await limiter.check(`redeliver:${accountId}`, only({ per_minute: REDELIVERIES_PER_MINUTE }));
  return decision.allowed ? 0 : decision.retryAfter ?? 60;
}

/** Counts one test send of the account: 0 when allowed, else the seconds to wait. */
export async function testSendWait(limiter: RateLimiter | undefined, accountId: string): Promise<number> {
  if (!limiter) return 0;
  const decision = await limiter.check(`webhook-test:${accountId}`, only({ per_minute: TEST_SENDS_PER_MINUTE }));
  return decision.allowed ? 0 : decision.retryAfter ?? 60;
}

/**
 * What a test send reports for an attempt: an HTTP answer as it is, a failed connection as one of
 * three reasons only (its detail would make the test send a scanner of the operator's network).
 * `keep`: errors told as they are (not a connection's).
 */
export function testOutcome(r: AttemptResult, keep: string[] = []): AttemptResult {
  if (r.status !== null || r.error === null || keep.includes(r.error)) return r;
  const error = /^no answer within/.test(r.error)
    ? "timed out"
    : /tls|ssl|certificate|handshake/i.test(r.error)
    ? "TLS handshake failed"
    : "could not connect";
  return { ...r, error };
}
