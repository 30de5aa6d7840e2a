/** An account's usage against its plan, for the dashboard's overview. */
import type { PlanLimits, Plans } from "../../config.ts";
import { rateKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";

export interface Usage {
  plan: string;
  limits: PlanLimits;
  /** Requests counted this minute and today (UTC), as merged into KV by the rate limiter. */
  requests_this_minute: number;
  requests_today: number;
  timers_stored: number;
}

/**
 * Live timers are counted up to this many (the overview then shows "10 000+"): an account without
 * a timer limit may hold 100 000, and listing all their index entries on every view of the
 * overview took ≈ 350 ms.
 */
export const USAGE_TIMERS_COUNTED = 10_000;

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Reads the rate limiter's merged window counters for the account (`acct:<id>`), which lag the
 * live count by at most one merge interval, and counts the account's live timers (up to
 * USAGE_TIMERS_COUNTED).
 */
export async function accountUsage(store: Store, plans: Plans, accountId: string, now: number): Promise<Usage | null> {
  const account = await store.accounts.get(accountId);
  if (!account) return null;
  const subject = `acct:${accountId}`;
  const [minute, day] = await store.accounts.counters([
    rateKey(subject, "m", now - (now % MINUTE)),
    rateKey(subject, "d", now - (now % DAY)),
  ]);
  return {
    plan: account.plan,
    limits: plans[account.plan],
    requests_this_minute: minute,
    requests_today: day,
    timers_stored: await store.accounts.countTimers(accountId, now, USAGE_TIMERS_COUNTED),
  };
}
