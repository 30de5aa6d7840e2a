/**
 * Webhooks sent by hand, for the API and the dashboard alike: a signed `webhook.test` to a
 * timer's URL, and the redelivery of any delivery (same id, attempted at once).
 */
import type { Principal } from "../accounts/auth.ts";
import { ApiError } from "../errors.ts";
import { newEventId } from "../ids.ts";
import type { Delivery } from "../kv/store.ts";
import { requireAccount, type TimerService } from "../timers/service.ts";
import type { Scheduler } from "./scheduler.ts";
import { REDELIVERIES_PER_MINUTE, redeliverWait, TEST_SENDS_PER_MINUTE } from "./quota.ts";
import type { RateLimiter } from "../accounts/rate_limit.ts";
import { clipError } from "./delivery_model.ts";
import { exampleData } from "./examples.ts";
import type { EventType } from "../timers/model.ts";

/**
 * Sends a signed test event (or an example of another event type, marked as a test) to the
 * timer's webhook_url now, records the attempt and returns it.
 */
export async function sendTestWebhook(
  svc: TimerService,
  scheduler: Scheduler,
  p: Principal,
  timerId: string,
  event: EventType | "webhook.test" = "webhook.test",
): Promise<{ delivered: boolean; delivery: Delivery }> {
  requireAccount(p);
  const { timer } = await svc.get(p, timerId);
  if (!timer.webhook_url) {
    throw new ApiError(422, "the timer has no webhook_url; set one with PATCH /timers/{id}", "webhook_url");
  }
  const now = svc.now();
  const id = newEventId(now);
  const d: Delivery = {
    id,
    timer_id: timer.id,
    account_id: timer.account_id,
    url: timer.webhook_url,
    payload: {
      id,
      event,
      timestamp: new Date(now).toISOString(),
      timer_id: timer.id,
      title: timer.title,
      type: timer.type,
      // Another type's example says it is a test in its data (examples.ts).
      data: event === "webhook.test"
        ? { message: "This is a test delivery; it needs no action." }
        : exampleData(event, now),
    },
    state: "pending",
    attempts: [],
    next_attempt_at: null,
    created_at: now,
  };
  const r = await scheduler.sender.testSend(d, now);
  if ("retryAfter" in r) {
    throw new ApiError(
      429,
      `at most ${TEST_SENDS_PER_MINUTE} test sends a minute per account; retry in ${r.retryAfter} s`,
      undefined,
      { "Retry-After": String(r.retryAfter) },
    );
  }
  const done: Delivery = {
    ...d,
    state: r.ok ? "succeeded" : "failed",
    attempts: [{
      n: 1,
      at: new Date(now).toISOString(),
      duration_ms: r.duration_ms,
      status: r.status,
      error: clipError(r.error),
      ...(r.response && { response: r.response }),
    }],
  };
  // Recorded only while the timer exists (deleted meanwhile, its log is gone; the answer still tells).
  if (await svc.store.putDelivery(done)) scheduler.sender.counted(timer.id); // counts towards the log's bound
  return { delivered: r.ok, delivery: done };
}

/**
 * Sends a delivery once more, with the same id, through the normal sender (the account's limits,
 * the destination rules): a settled one (succeeded or failed) becomes pending for exactly one
 * more attempt, due now, to the timer's current webhook_url (or its endpoint's current URL); a
 * pending one waiting for a retry is moved to now. 404 if unknown, 409 while an attempt is in
 * flight or its endpoint is disabled or deleted, 422 if the timer has no URL now.
 */
export async function redeliver(
  svc: TimerService,
  p: Principal,
  timerId: string,
  deliveryId: string,
  limiter?: RateLimiter,
) {
  const account = requireAccount(p);
  const wait = await redeliverWait(limiter, account.id);
  if (wait > 0) {
    throw new ApiError(
      429,
      `at most ${REDELIVERIES_PER_MINUTE} redeliveries a minute per account; retry in ${wait} s`,
      undefined,
      { "Retry-After": String(wait) },
    );
  }
  // Committed against the timer as read too (a webhook_url changed meanwhile is not redelivered
  // to); a timer that changes every second (a running interval) is read again a few times.
  for (let attempt = 0; attempt < 5; attempt++) {
    const owner = await ownerOf(svc, p, timerId);
    const entry = await svc.store.getDelivery(owner.id, deliveryId);
    if (!entry) throw new ApiError(404, "delivery not found");
    if (entry.delivery.claimed) {
      throw new ApiError(409, "an attempt of this delivery is under way; redeliver it once it is recorded");
    }
    const url = entry.delivery.endpoint_id === undefined
      ? owner.webhook_url
      : await endpointUrl(svc, owner.account_id, entry.delivery.endpoint_id);
    if (!url) {
      throw new ApiError(
        422,
        `the ${owner.kind} has no webhook_url; set one with PATCH /${owner.kind}s/{id}`,
        "webhook_url",
      );
    }
    const now = svc.now();
    const pending = entry.delivery.state === "pending";
    const next: Delivery = {
      ...entry.delivery,
      url,
      state: "pending",
      next_attempt_at: now,
      // A pending one keeps its retry schedule; a settled one gets exactly one attempt.
      ...(!pending && { last_try: true }),
    };
    if (
      await svc.store.updateDelivery(entry.versionstamp, entry.delivery, next, now, owner.versionstamp, svc.committed)
    ) {
      return next;
    }
  }
  throw new ApiError(409, "the delivery or its timer kept changing; try again");
}

/**
 * Who a delivery belongs to, as the caller may see it: a timer (svc.get's 404 for another's), or a
 * rundown (`rdn_…`, its rundown events) of the caller's account; with the versionstamp it was read at.
 */
async function ownerOf(svc: TimerService, p: Principal, id: string) {
  if (id.startsWith("rdn_")) {
    const e = await svc.store.rundowns.get(id);
    if (!e || e.rundown.account_id !== requireAccount(p).id) throw new ApiError(404, "delivery not found");
    const r = e.rundown;
    return { kind: "rundown", id, account_id: r.account_id, webhook_url: r.webhook_url, versionstamp: e.versionstamp };
  }
  const { timer: t, versionstamp } = await svc.get(p, id);
  return { kind: "timer", id: t.id, account_id: t.account_id, webhook_url: t.webhook_url, versionstamp };
}

/** The current URL of the account endpoint a delivery was for; 409 if it was deleted or is disabled. */
async function endpointUrl(svc: TimerService, acct: string, id: string): Promise<string> {
  const endpoint = (await svc.store.endpoints.read(acct)).endpoints.find((e) => e.id === id);
  if (!endpoint) throw new ApiError(409, `the webhook endpoint ${id} this delivery was for was deleted`);
  if (!endpoint.enabled) {
    throw new ApiError(409, `the webhook endpoint ${id} is disabled; enable it first (PATCH /webhook_endpoints/${id})`);
  }
  return endpoint.url;
}
