/**
 * Webhook deliveries as data: what one is, how an event becomes one, what an attempt's outcome
 * makes of it, and which ones the bounded log lets go. Pure: no clock, no KV.
 */
import { newEventId } from "../ids.ts";
import type { Timer, TimerEvent, TimerType } from "../timers/record.ts";
import { keepResponses, type ResponseExcerpt } from "./response.ts";

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
  /** What the receiver answered (capped; older attempts' may be dropped: keepResponses). */
  response?: ResponseExcerpt;
}

export interface Delivery {
  id: string;
  timer_id: string;
  account_id: string;
  url: string;
  /** Sent to this account endpoint (endpoints.ts); absent: to the timer's own webhook_url. */
  endpoint_id?: string;
  payload: WebhookPayload;
  state: "pending" | "succeeded" | "failed";
  attempts: Attempt[];
  /** When the next attempt is due, or while `claimed` when the claim runs out (null once settled). */
  next_attempt_at: number | null;
  /** An attempt is in flight under a lease until `next_attempt_at`. */
  claimed?: boolean;
  /** The instance holding the claim (lease.ts): only it, or whoever finds it gone, may send. */
  claimed_by?: string;
  /** The next attempt is the last whatever it answers: a redelivery makes exactly one. */
  last_try?: boolean;
  created_at: number;
  /**
   * The delivery of the same timer born just before this one (its timer's `last_delivery` then):
   * this one is not sent while that one holds later ones back (`holdsBackLater`). Absent: the first.
   */
  after?: string;
}

/** One delivery's change, guarded by the versionstamp it was read at. */
export interface DeliveryChange {
  versionstamp: string;
  prev: Delivery;
  next: Delivery;
}

/** How many settled deliveries the log keeps per timer (pending and failed ones are always kept). */
export const DELIVERY_LOG_KEEP = 1000;

/**
 * The delivery of `ev` to the timer's webhook, or to the account endpoint `to` (each with its own
 * id). `claimUntil` set: written claimed by the committing process, which sends it at once;
 * others leave it alone until then.
 */
export function newDelivery(
  t: Timer,
  ev: TimerEvent,
  now: number,
  claimUntil: number | null,
  claimBy?: string,
  to?: { url: string; endpoint_id: string },
): Delivery {
  const id = newEventId(ev.at);
  return {
    id,
    timer_id: t.id,
    account_id: t.account_id,
    url: to?.url ?? t.webhook_url!,
    ...(to && { endpoint_id: to.endpoint_id }),
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
    next_attempt_at: claimUntil ?? now,
    ...(claimUntil !== null && { claimed: true }),
    ...(claimUntil !== null && claimBy !== undefined && { claimed_by: claimBy }),
    created_at: now,
  };
}

/**
 * The attempts a delivery keeps, newest last: redelivering a failed one again and again adds one
 * each time, and a record past KV's 64 KiB could no longer be written (its outcome never recorded,
 * the attempt made again at every lease, for ever). The schedule allows at most 21. With errors
 * clipped to MAX_ERROR_CHARS, 50 and the longest URL stay under 40 KB.
 */
export const MAX_ATTEMPTS_KEPT = 50;
/**
 * An attempt's error is kept to this many characters: an error naming the destination's host
 * (up to a 2 048-character URL's) would otherwise fill 64 KiB in 31 attempts.
 */
export const MAX_ERROR_CHARS = 300;

/** An attempt's error as kept (at most MAX_ERROR_CHARS). */
export const clipError = (error: string | null) =>
  error === null || error.length <= MAX_ERROR_CHARS ? error : `${error.slice(0, MAX_ERROR_CHARS - 1)}…`;

/** A due attempt claimed until `until` (by the instance `by`). */
export function claim(d: Delivery, until: number, by?: string): Delivery {
  const { claimed_by: _, ...rest } = d;
  return { ...rest, next_attempt_at: until, claimed: true, ...(by !== undefined && { claimed_by: by }) };
}

/**
 * Whether a delivery still holds back its timer's later deliveries: it is pending and no attempt of
 * it has been recorded yet (due, queued, claimed, or in flight — perhaps by a process that died).
 * One recorded attempt releases them, whatever it answered: a retry scheduled after a failure does
 * not hold later events back, so a failing receiver delays them by one attempt, never for good.
 */
export function holdsBackLater(d: Delivery): boolean {
  return d.state === "pending" && d.attempts.length === 0;
}

/** A claimed delivery whose earlier one still holds it back: unclaimed again, due at `until`. */
export function heldBack(d: Delivery, until: number): Delivery {
  const { claimed_by: _, ...rest } = d;
  return { ...rest, claimed: false, next_attempt_at: until };
}

/** What one attempt's outcome makes of a claimed delivery: settled, or the next retry scheduled. */
export function afterAttempt(
  d: Delivery,
  result: { ok: boolean; status: number | null; error: string | null; duration_ms: number; response?: ResponseExcerpt },
  started: number,
  finished: number,
  retryDelaysSeconds: number[],
): Delivery {
  // Numbered by every attempt made, including those no longer kept.
  const n = (d.attempts.at(-1)?.n ?? 0) + 1;
  const attempts = keepResponses([...d.attempts, {
    n,
    at: new Date(started).toISOString(),
    duration_ms: result.duration_ms,
    status: result.status,
    error: clipError(result.error),
    ...(result.response && { response: result.response }),
  }].slice(-MAX_ATTEMPTS_KEPT));
  const { last_try, claimed_by: _, ...rest } = d;
  const exhausted = last_try === true || n > retryDelaysSeconds.length;
  return {
    ...rest,
    claimed: false,
    attempts,
    state: result.ok ? "succeeded" : exhausted ? "failed" : "pending",
    next_attempt_at: result.ok || exhausted ? null : finished + retryDelaysSeconds[n - 1] * 1000,
  };
}

/**
 * The deliveries the bounded log lets go, given a timer's log newest first: succeeded ones beyond
 * the newest `keep`, and failed ones beyond the newest `keep` failed (a receiver that stays down
 * would otherwise add failed ones forever: one a second from a 1-s interval). Pending ones stay
 * until settled: the retry schedule bounds how many there are.
 */
export function beyondLog<T extends { delivery: Delivery }>(newestFirst: T[], keep = DELIVERY_LOG_KEEP): T[] {
  let failed = 0;
  return newestFirst.filter((e, i) =>
    e.delivery.state === "failed" ? ++failed > keep : i >= keep && e.delivery.state === "succeeded"
  );
}

/** Why retries to a timer's former webhook URL stopped (told in the last attempt's error). */
export const DROPPED_FOR_NEW_URL = "webhook_url changed; retries to the old URL dropped";

/**
 * Retries to a URL the timer no longer notifies (changed or removed): pending deliveries with an
 * attempt made. One not attempted yet still goes to the URL it was created for.
 */
export function retriesToOldUrl<T extends { delivery: Delivery }>(entries: T[], url: string | null): T[] {
  // An account endpoint's deliveries follow the endpoint, not the timer's URL.
  return entries.filter((e) =>
    e.delivery.state === "pending" && e.delivery.attempts.length > 0 && e.delivery.url !== url &&
    e.delivery.endpoint_id === undefined
  );
}

/**
 * A retry dropped: settled as failed, its attempts kept, the last one telling why no more follow
 * (once: a redelivery dropped again before its attempt was recorded has the same last attempt).
 */
export function dropRetry(d: Delivery): Delivery {
  const attempts = d.attempts.map((a, i) =>
    i < d.attempts.length - 1 || a.error?.endsWith(DROPPED_FOR_NEW_URL)
      ? a
      : { ...a, error: a.error ? `${a.error}; ${DROPPED_FOR_NEW_URL}` : DROPPED_FOR_NEW_URL }
  );
  const { claimed_by: _, ...rest } = d;
  return { ...rest, state: "failed", claimed: false, attempts, next_attempt_at: null };
}
