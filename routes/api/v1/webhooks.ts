/** Webhook delivery log, test sends and manual redelivery of a timer's events. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ApiError } from "../../../lib/errors.ts";
import type { AppEnv } from "../../../lib/http.ts";
import type { Scheduler } from "../../../lib/webhooks/scheduler.ts";
import { redeliver as redeliverFailed, sendTestWebhook } from "../../../lib/webhooks/manual.ts";
import type { Delivery } from "../../../lib/kv/store.ts";
import { requireAccount, type TimerService } from "../../../lib/timers/service.ts";
import { LIMITS } from "../../../lib/timers/validation.ts";
import { errors, ok } from "./openapi.ts";
import { DeliveryIdParams, PageQuery, TimerIdParam } from "./schemas.ts";
import { DELIVERY_EVENTS, WEBHOOK_EVENTS, type WebhookEventType, WebhookPayload } from "./webhook_schemas.ts";

const iso = z.string().openapi({ format: "date-time" });

const Attempt = z.strictObject({
  n: z.int().min(1),
  at: iso,
  duration_ms: z.int().min(0),
  status: z.int().nullable().openapi({ description: "HTTP status, or null when no answer came" }),
  error: z.string().nullable().openapi({ description: "Why the attempt failed; null when it succeeded" }),
  response: z.strictObject({
    body: z.string().openapi({
      description: "The first 2 KB of the receiver's answer, as UTF-8 text (the receiver's data: render it escaped)",
    }),
    truncated: z.boolean().openapi({ description: "The body was longer than what is kept" }),
    headers: z.record(z.string(), z.string()).openapi({
      description: "The answer's headers (lower-case names; at most 1 KB in all, each value at most 256 " +
        "characters; cookie and authentication headers read [not kept])",
    }),
    headers_truncated: z.boolean().optional().openapi({ description: "Some headers did not fit and were left out" }),
  }).optional().openapi({
    description: "What the receiver answered; absent when no answer came (or for an older attempt of a delivery " +
      "whose answers were large: at least the newest ones are kept)",
  }),
}).openapi("DeliveryAttempt");

export const DeliverySchema = z.strictObject({
  id: z.string().openapi({ description: "The event id, stable across retries and redelivery" }),
  event: z.enum(DELIVERY_EVENTS).openapi({ description: "The event type (as payload.event)" }),
  state: z.enum(["pending", "succeeded", "failed"]),
  url: z.string().openapi({ format: "uri" }),
  endpoint_id: z.string().nullable().openapi({
    description: "The account webhook endpoint it was sent to (GET /webhook_endpoints); null: the timer's webhook_url",
  }),
  created_at: iso,
  next_attempt_at: iso.nullable(),
  attempts: z.array(Attempt),
  payload: WebhookPayload,
}).openapi("Delivery");

const NO_TIMER = { 404: "No timer with this id (or it expired)" };
const ONLY_KEY = { 403: "The plan has no API access, or a control token was used (only an API key is accepted)" };

const listDeliveries = createRoute({
  method: "get",
  path: "/timers/{id}/deliveries",
  operationId: "listDeliveries",
  tags: ["Webhooks"],
  summary: "The webhook delivery log of a timer, newest first",
  request: { params: TimerIdParam, query: PageQuery },
  responses: {
    200: ok(
      z.strictObject({ deliveries: z.array(DeliverySchema), next_cursor: z.string().nullable() }).openapi(
        "DeliveryList",
      ),
      "A page of deliveries",
    ),
    ...errors([400, 401, 403, 404], {
      ...NO_TIMER,
      ...ONLY_KEY,
      400: "An invalid query parameter, or a cursor this API did not return",
    }),
  },
});

const testWebhook = createRoute({
  method: "post",
  path: "/timers/{id}/webhook/test",
  operationId: "sendTestWebhook",
  tags: ["Webhooks"],
  summary: "Send a signed webhook.test event (or an example of any event type) to the timer's webhook_url now " +
    "and report the outcome",
  description: 'At most 10 a minute per account. A failed connection is reported as "could not connect", ' +
    '"TLS handshake failed" or "timed out"; an HTTP answer with its status.',
  request: {
    params: TimerIdParam,
    body: {
      required: false,
      content: {
        "application/json": {
          schema: z.strictObject({
            event: z.enum(WEBHOOK_EVENTS).optional().openapi({
              description: "Send an example of this event type instead (a realistic payload of the timer, marked " +
                "as a test: data.test is true). Default webhook.test",
            }),
          }).openapi("WebhookTestRequest"),
        },
      },
    },
  },
  responses: {
    200: ok(
      z.strictObject({ delivered: z.boolean(), delivery: DeliverySchema }).openapi("TestDelivery"),
      "The attempt's outcome (also when the receiver failed)",
    ),
    ...errors([400, 401, 403, 404, 413, 422], {
      ...NO_TIMER,
      ...ONLY_KEY,
      422: "The timer has no webhook_url (error.field is webhook_url)",
      429: "Rate limit exceeded, or more than 10 test sends this minute for the account; wait Retry-After seconds",
    }),
  },
});

const redeliver = createRoute({
  method: "post",
  path: "/timers/{id}/deliveries/{delivery_id}/redeliver",
  operationId: "redeliverDelivery",
  tags: ["Webhooks"],
  summary: "Send a delivery once more, with the same id (any state)",
  description: "One more attempt, at once, through the normal sender (the plan's limits, the destination rules), " +
    "to the timer's current webhook_url (a delivery to an account endpoint: to the endpoint's current URL; 409 " +
    "while it is disabled or once deleted). A succeeded or failed delivery gets exactly one attempt (redeliver " +
    "again if it fails); a pending one waiting for a retry is attempted now and keeps its schedule. The id stays, " +
    "so receivers that deduplicate on it see a repeat.",
  request: { params: DeliveryIdParams },
  responses: {
    200: ok(DeliverySchema, "Pending again; attempted at once"),
    ...errors([401, 403, 404, 409, 422], {
      ...ONLY_KEY,
      404: "No timer or no delivery with these ids",
      409: "An attempt of it is under way, its endpoint is disabled or deleted, or it changed meanwhile",
      422: "The timer has no webhook_url (error.field is webhook_url)",
    }),
  },
});

export function deliveryView(d: Delivery) {
  return {
    id: d.id,
    event: d.payload.event as WebhookEventType,
    state: d.state,
    url: d.url,
    endpoint_id: d.endpoint_id ?? null,
    created_at: new Date(d.created_at).toISOString(),
    next_attempt_at: d.next_attempt_at === null ? null : new Date(d.next_attempt_at).toISOString(),
    attempts: d.attempts,
    // The stored payload is the WebhookPayload of its event (documented per event type).
    payload: d.payload as unknown as z.infer<typeof WebhookPayload>,
  };
}

export function webhookRoutes(api: OpenAPIHono<AppEnv>, svc: TimerService, scheduler: Scheduler) {
  api.openapi(listDeliveries, async (c) => {
    const p = c.get("principal");
    requireAccount(p);
    const { timer } = await svc.get(p, c.req.valid("param").id);
    const q = c.req.valid("query");
    const page = await svc.store.listDeliveries(timer.id, {
      limit: q.limit ?? LIMITS.list.default,
      cursor: q.cursor,
      now: svc.now(),
    })
      .catch((e) => {
        if (q.cursor && e instanceof TypeError) {
          throw new ApiError(400, "cursor is not one this API returned", "cursor");
        }
        throw e;
      });
    return c.json({ deliveries: page.deliveries.map(deliveryView), next_cursor: page.next_cursor }, 200);
  });

  api.openapi(testWebhook, async (c) => {
    // The body is optional: none sends webhook.test.
    const event = (c.req.valid("json") as { event?: WebhookEventType } | undefined)?.event;
    const { delivered, delivery } = await sendTestWebhook(
      svc,
      scheduler,
      c.get("principal"),
      c.req.valid("param").id,
      event,
    );
    return c.json({ delivered, delivery: deliveryView(delivery) }, 200);
  });

  api.openapi(redeliver, async (c) => {
    const params = c.req.valid("param");
    const next = await redeliverFailed(svc, c.get("principal"), params.id, params.delivery_id, scheduler.deps.limiter);
    return c.json(deliveryView(next), 200);
  });
}
