/**
 * The account-wide delivery log: every delivery of every timer and endpoint of an account,
 * newest first, filtered by event type, state and timer; and redelivery by the delivery's id
 * alone (the index names its timer).
 */
import type { Principal } from "../accounts/auth.ts";
import { ApiError } from "../errors.ts";
import { type AcctDeliveryQuery, acctDeliveryRef, listAccountDeliveries } from "../kv/delivery_index.ts";
import { requireAccount, type TimerService } from "../timers/service.ts";
import type { Delivery } from "./delivery_model.ts";
import { redeliver } from "./manual.ts";
import type { RateLimiter } from "../accounts/rate_limit.ts";

export const DELIVERY_STATES = ["pending", "succeeded", "failed"] as const;

export type { AcctDeliveryQuery };

/** A page of the caller's deliveries; 400 for a cursor this log did not hand out. */
export async function accountDeliveries(
  svc: TimerService,
  p: Principal,
  q: AcctDeliveryQuery,
): Promise<{ deliveries: Delivery[]; next_cursor: string | null }> {
  const account = requireAccount(p);
  try {
    return await listAccountDeliveries(svc.store.kv, account.id, q);
  } catch (e) {
    if (q.cursor && e instanceof TypeError) throw new ApiError(400, "cursor is not one this log returned", "cursor");
    throw e;
  }
}

/** Redelivers one of the caller's deliveries (a timer's or a rundown's) named by its id alone (manual.ts `redeliver`). */
export async function redeliverById(
  svc: TimerService,
  p: Principal,
  deliveryId: string,
  limiter?: RateLimiter,
): Promise<Delivery> {
  const account = requireAccount(p);
  const ref = await acctDeliveryRef(svc.store.kv, account.id, deliveryId);
  if (!ref) throw new ApiError(404, "delivery not found");
  return await redeliver(svc, p, ref.timer_id, deliveryId, limiter);
}
