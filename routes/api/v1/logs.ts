/** The account's logs: every webhook delivery (filtered, redeliverable by id) and the API request log. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../../lib/http.ts";
import { type RequestLog, statusMatches } from "../../../lib/accounts/request_log.ts";
import { ApiError } from "../../../lib/errors.ts";
import { requireAccount, type TimerService } from "../../../lib/timers/service.ts";
import { LIMITS } from "../../../lib/timers/validation.ts";
import { accountDeliveries, DELIVERY_STATES, redeliverById } from "../../../lib/webhooks/delivery_log.ts";
import { errors, KEY_ONLY, ok } from "./openapi.ts";
import { EVENT_ID, queryInteger } from "./schemas.ts";
import { DELIVERY_EVENTS } from "./webhook_schemas.ts";
import { DeliverySchema, deliveryView } from "./webhooks.ts";
import type { RateLimiter } from "../../../lib/accounts/rate_limit.ts";

const ONLY_KEY = KEY_ONLY;
const limit = queryInteger(1, LIMITS.list.max).optional().openapi({
  description: `Page size, 1–${LIMITS.list.max} (default ${LIMITS.list.default})`,
  example: 20,
});
const cursor = z.string().min(1).max(512).optional().openapi({ description: "next_cursor of the previous page" });

const DeliveryLogQuery = z.strictObject({
  event: z.enum(DELIVERY_EVENTS).optional().openapi({ description: "Only deliveries of this event type" }),
  status: z.enum(DELIVERY_STATES).optional().openapi({ description: "Only deliveries in this state" }),
  timer_id: z.string().regex(/^(tmr|rdn)_[0-9A-Za-z]{16}$/).optional().openapi({
    description: "Only deliveries of this timer (or rundown)",
  }),
  limit,
  cursor,
});

const listAccountDeliveries = createRoute({
  method: "get",
  path: "/deliveries",
  operationId: "listAccountDeliveries",
  tags: ["Webhooks"],
  summary: "Every webhook delivery of the account (all timers, all endpoints), newest first",
  description: "Each attempt carries its status, duration and the receiver's answer (the first 2 KB of the " +
    "body and the headers). A page reads at most 1 000 deliveries: a filter that matches few may answer a short " +
    "or empty page with a next_cursor to read on; next_cursor is null once nothing is left.",
  request: { query: DeliveryLogQuery },
  responses: {
    200: ok(
      z.strictObject({ deliveries: z.array(DeliverySchema), next_cursor: z.string().nullable() }).openapi(
        "AccountDeliveryList",
      ),
      "A page of deliveries",
    ),
    ...errors([400, 401, 403], { ...ONLY_KEY, 400: "An invalid query parameter, or a cursor this API did not return" }),
  },
});

const redeliverAccountDelivery = createRoute({
  method: "post",
  path: "/deliveries/{delivery_id}/redeliver",
  operationId: "redeliverAccountDelivery",
  tags: ["Webhooks"],
  summary: "Send any delivery of the account (a timer's or a rundown's) once more, with the same id",
  description: "As POST /timers/{id}/deliveries/{delivery_id}/redeliver, with the delivery named by its id alone.",
  request: {
    params: z.object({
      delivery_id: z.string().regex(EVENT_ID).openapi({
        param: { name: "delivery_id", in: "path", description: "The delivery's (event's) id" },
        example: "evt_0mhs7a2o05Hk2bQ9xZ1LmNp",
      }),
    }),
  },
  responses: {
    200: ok(DeliverySchema, "Pending again; attempted at once"),
    ...errors([401, 403, 404, 409, 422], {
      ...ONLY_KEY,
      404: "No delivery of the account with this id",
      409: "An attempt of it is under way, its endpoint is disabled or deleted, or it changed meanwhile",
      422: "Its timer (or rundown) has no webhook_url (error.field is webhook_url)",
    }),
  },
});

const ApiRequest = z.strictObject({
  at: z.string().openapi({ format: "date-time", description: "When the request arrived" }),
  method: z.string(),
  path: z.string().openapi({
    description: "Path and query; query values other than filters and paging read `redacted`",
  }),
  status: z.int(),
  key_prefix: z.string().nullable().openapi({ description: "The API key's prefix; null for a control token" }),
  request_id: z.string().openapi({ description: "The X-Request-Id it was answered with" }),
  duration_ms: z.number().min(0),
}).openapi("ApiRequest");

const listRequests = createRoute({
  method: "get",
  path: "/requests",
  operationId: "listApiRequests",
  tags: ["Account"],
  summary: "The account's last 1 000 API requests, newest first",
  description: "Requests made with any of the account's keys or a control token of its timers; never a body. " +
    "Written shortly after each answer (within about a second). Look a failed request up by its X-Request-Id.",
  request: {
    query: z.strictObject({
      status: z.string().regex(/^([1-5][0-9][0-9]|[1-5]xx)$/).optional().openapi({
        description: "Only this status (`422`) or class (`4xx`)",
        example: "4xx",
      }),
      request_id: z.string().regex(/^[\w.-]{1,64}$/).optional().openapi({ description: "Only this request" }),
      limit,
      cursor,
    }),
  },
  responses: {
    200: ok(
      z.strictObject({ requests: z.array(ApiRequest), next_cursor: z.string().nullable() }).openapi("ApiRequestList"),
      "A page of requests",
    ),
    ...errors([400, 401, 403], { ...ONLY_KEY, 400: "An invalid query parameter" }),
  },
});

/** A page of the request log (newest first) by the filters; the cursor is the last sequence number shown. */
export async function requestPage(
  log: RequestLog,
  acct: string,
  q: { status?: string; request_id?: string; limit: number; cursor?: string },
) {
  // Only the digits this log hands out: Number() also reads "1e400" and "Infinity" (as no cursor at all).
  const before = q.cursor === undefined ? Infinity : /^\d{1,15}$/.test(q.cursor) ? Number(q.cursor) : NaN;
  if (Number.isNaN(before)) {
    throw new ApiError(400, "cursor is not one this log returned", "cursor");
  }
  const matching = (await log.read(acct)).filter((r) =>
    r.seq < before && statusMatches(r.status, q.status) && (!q.request_id || r.request_id === q.request_id)
  );
  const page = matching.slice(0, q.limit);
  return { requests: page, next_cursor: matching.length > q.limit ? String(page.at(-1)!.seq) : null };
}

export function logRoutes(
  api: OpenAPIHono<AppEnv>,
  svc: TimerService,
  requestLog: RequestLog,
  limiter?: RateLimiter,
) {
  api.openapi(listAccountDeliveries, async (c) => {
    const q = c.req.valid("query");
    const page = await accountDeliveries(svc, c.get("principal"), {
      limit: q.limit ?? LIMITS.list.default,
      cursor: q.cursor,
      event: q.event,
      state: q.status,
      timer_id: q.timer_id,
    });
    return c.json({ deliveries: page.deliveries.map(deliveryView), next_cursor: page.next_cursor }, 200);
  });

  api.openapi(redeliverAccountDelivery, async (c) => {
    const next = await redeliverById(svc, c.get("principal"), c.req.valid("param").delivery_id, limiter);
    return c.json(deliveryView(next), 200);
  });

  api.openapi(listRequests, async (c) => {
    const account = requireAccount(c.get("principal"));
    const q = c.req.valid("query");
    const page = await requestPage(requestLog, account.id, { ...q, limit: q.limit ?? LIMITS.list.default });
    return c.json({
      requests: page.requests.map(({ seq: _, at, ...r }) => ({ at: new Date(at).toISOString(), ...r })),
      next_cursor: page.next_cursor,
    }, 200);
  });
}
