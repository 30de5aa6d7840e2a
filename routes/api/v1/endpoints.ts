/** /api/v1/webhook_endpoints: the account's webhook endpoints (thin handlers over EndpointService). */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../../lib/http.ts";
import { undoIfLoggedOut } from "../../../lib/accounts/first_proof.ts";
import { type Principal, unauthorized } from "../../../lib/accounts/auth.ts";
import { requireAccount } from "../../../lib/timers/service.ts";
import { controlIn } from "../../../lib/timers/validation.ts";
import { type Endpoint, ENDPOINT_ID, type EndpointService, MAX_ENDPOINTS } from "../../../lib/webhooks/endpoints.ts";
import { errors, KEY_ONLY, ok } from "./openapi.ts";
import { RUNDOWN_EVENT_TYPES } from "../../../lib/rundowns/model.ts";
import { httpUrl } from "./schemas.ts";
import { WEBHOOK_EVENTS, WebhookPayload } from "./webhook_schemas.ts";
import { sendEndpointExample } from "../../../lib/webhooks/examples.ts";
import type { Sender } from "../../../lib/webhooks/sender.ts";

/** The event types an endpoint may ask for: timer events and rundown events (test sends go only where asked). */
const EVENT_TYPES = [
  ...WEBHOOK_EVENTS.filter((e) => e !== "webhook.test") as Exclude<typeof WEBHOOK_EVENTS[number], "webhook.test">[],
  ...RUNDOWN_EVENT_TYPES,
];
const DESCRIPTION_MAX = 200;

const url = httpUrl().openapi({
  format: "uri",
  description: "Absolute https URL that receives the events, under the same rules as a timer's webhook_url " +
    "(plain http and private addresses only where the operator allows them; ports 80, 443 and 1024–65535). " +
    "Stored and answered normalised",
  example: "https://example.com/hooks/timers",
});
const description = z.string().superRefine((s, ctx) => {
  const control = controlIn(s);
  if (control) {
    ctx.addIssue({
      code: "custom",
      message: `description must be text without control characters; it holds ${control}`,
    });
  }
  if ([...s].length > DESCRIPTION_MAX) {
    ctx.addIssue({ code: "custom", message: `description must be at most ${DESCRIPTION_MAX} characters` });
  }
}).openapi({
  maxLength: DESCRIPTION_MAX,
  // What controlIn refuses, for validators and generators that read the document.
  pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*$",
  description: "A note for people, e.g. what the receiver is; no control characters",
  example: "Slack relay",
});
const events = z.union([
  z.literal("all"),
  z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length),
]).openapi({
  description: '"all" (every event type, including types added later) or the event types this endpoint receives',
  example: ["timer.completed"],
});
const enabled = z.boolean().openapi({ description: "A disabled endpoint receives nothing (pending retries included)" });

const iso = z.string().openapi({ format: "date-time" });
const EndpointSchema = z.strictObject({
  id: z.string().regex(ENDPOINT_ID),
  url: z.string().openapi({ format: "uri" }),
  description: z.string(),
  events: z.union([z.literal("all"), z.array(z.enum(EVENT_TYPES))]),
  enabled: z.boolean(),
  created_at: iso,
  updated_at: iso,
}).openapi("WebhookEndpoint", {
  description: "Receives every event of every timer and rundown of the account that it asks for, beside the " +
    "timer's or rundown's own webhook_url: each delivery with its own id, signed with the account's secret, retried and logged in the " +
    "timer's (or rundown's) delivery log (endpoint_id names the endpoint)",
});
const CreateBody = z.strictObject({
  url,
  description: description.optional(),
  events: events.optional().openapi({ description: 'Default "all"' }),
  enabled: enabled.optional().openapi({ description: "Default true" }),
}).openapi("CreateWebhookEndpoint");
const UpdateBody = z.strictObject({
  url: url.optional(),
  description: description.optional(),
  events: events.optional(),
  enabled: enabled.optional(),
}).openapi("UpdateWebhookEndpoint");
const IdParam = z.object({
  endpoint_id: z.string().regex(ENDPOINT_ID).openapi({
    param: { name: "endpoint_id", in: "path", description: "The endpoint's id; any other shape answers 404" },
    example: "we_4fGh8KzQ2mN7pX1a",
  }),
});

const body = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const TAGS = ["Webhook endpoints"];
const OWNER = KEY_ONLY;
const NONE = { 404: "No webhook endpoint with this id in the account" };

const create = createRoute({
  method: "post",
  path: "/webhook_endpoints",
  operationId: "createWebhookEndpoint",
  tags: TAGS,
  summary: `Add a webhook endpoint (at most ${MAX_ENDPOINTS} per account)`,
  request: { body: body(CreateBody) },
  responses: {
    201: ok(EndpointSchema, "Created; Location names it", { location: true }),
    ...errors([400, 401, 403, 409, 413, 422], {
      ...OWNER,
      409: `The account already has ${MAX_ENDPOINTS} endpoints (delete or reuse one)`,
      422: "An invalid field (error.field names it), e.g. a URL refused as a timer's webhook_url would be",
    }),
  },
});
const list = createRoute({
  method: "get",
  path: "/webhook_endpoints",
  operationId: "listWebhookEndpoints",
  tags: TAGS,
  summary: "List the account's webhook endpoints, oldest first",
  responses: {
    200: ok(z.strictObject({ endpoints: z.array(EndpointSchema) }).openapi("WebhookEndpointList"), "All of them"),
    ...errors([401, 403], OWNER),
  },
});
const get = createRoute({
  method: "get",
  path: "/webhook_endpoints/{endpoint_id}",
  operationId: "getWebhookEndpoint",
  tags: TAGS,
  summary: "Read a webhook endpoint",
  request: { params: IdParam },
  responses: { 200: ok(EndpointSchema, "The endpoint"), ...errors([401, 403, 404], { ...OWNER, ...NONE }) },
});
const update = createRoute({
  method: "patch",
  path: "/webhook_endpoints/{endpoint_id}",
  operationId: "updateWebhookEndpoint",
  tags: TAGS,
  summary: "Change a webhook endpoint's URL, description, events, or enable or disable it",
  description: "Events emitted from then on follow the change; pending retries go to the new URL, and are not " +
    "sent while the endpoint is disabled (they are logged as failed, and can be redelivered once it is enabled).",
  request: { params: IdParam, body: body(UpdateBody) },
  responses: {
    200: ok(EndpointSchema, "The endpoint as changed"),
    ...errors([400, 401, 403, 404, 413, 422], { ...OWNER, ...NONE }),
  },
});
const remove = createRoute({
  method: "delete",
  path: "/webhook_endpoints/{endpoint_id}",
  operationId: "deleteWebhookEndpoint",
  tags: TAGS,
  summary: "Delete a webhook endpoint (its pending retries are not sent; the timers' logs keep its deliveries)",
  request: { params: IdParam },
  responses: {
    200: ok(
      z.strictObject({ deleted: z.literal(true), id: z.string() }).openapi("WebhookEndpointDeleted"),
      "Deleted",
    ),
    ...errors([401, 403, 404], { ...OWNER, ...NONE }),
  },
});

const example = createRoute({
  method: "post",
  path: "/webhook_endpoints/{endpoint_id}/test",
  operationId: "sendEndpointExample",
  tags: TAGS,
  summary: "Send an example of any event type to the endpoint now, and report the outcome",
  description: "A realistic payload of the event type asked for, signed like every delivery, marked as a test " +
    "(data.test is true; timer_id is tmr_ExampleTimer0001, which no timer has; a rundown event names " +
    "rdn_ExampleRundown01, which no rundown has). One attempt, never retried, " +
    "sent also while the endpoint is disabled. Counts towards the account's 10 test sends a minute.",
  request: {
    params: IdParam,
    body: body(
      z.strictObject({
        event: z.enum([...WEBHOOK_EVENTS, ...RUNDOWN_EVENT_TYPES]).openapi({
          description: "The event type to send an example of (a rundown event's names rdn_ExampleRundown01)",
        }),
      }).openapi("EndpointExampleRequest"),
    ),
  },
  responses: {
    200: ok(
      z.strictObject({
        delivered: z.boolean().openapi({ description: "Whether the endpoint answered 2xx in time" }),
        status: z.int().nullable().openapi({ description: "HTTP status, or null when no answer came" }),
        error: z.string().nullable().openapi({ description: "Why it failed; null when delivered" }),
        duration_ms: z.int().min(0),
        payload: WebhookPayload,
      }).openapi("EndpointExample"),
      "The attempt's outcome (also when the receiver failed) and the payload sent",
    ),
    ...errors([400, 401, 403, 404, 413, 422], {
      ...OWNER,
      ...NONE,
      429: "Rate limit exceeded, or more than 10 test sends this minute for the account; wait Retry-After seconds",
    }),
  },
});

/** What a client reads of an endpoint. */
export function endpointView(e: Endpoint) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events as "all" | typeof EVENT_TYPES,
    enabled: e.enabled,
    created_at: new Date(e.created_at).toISOString(),
    updated_at: new Date(e.updated_at).toISOString(),
  };
}

/** Registers the webhook endpoint routes on `api`. */
export function endpointRoutes(
  api: OpenAPIHono<AppEnv>,
  svc: EndpointService,
  sender: Sender,
  siteUrl: () => string,
  /**
   * Whether the API key a request came with is still there (read in KV, not the key cache, so
   * another process's deletion counts at once); other callers: true.
   */
  keyLive: (p: Principal) => Promise<boolean>,
) {
  const account = (c: { get(k: "principal"): Parameters<typeof requireAccount>[0] }) =>
    requireAccount(c.get("principal"));

  // A key deleted while its request was under way (a first proof of the mailbox, a revocation)
  // leaves no endpoint: the request checks its key again once the endpoint is stored, and takes
  // it away when gone.

  api.openapi(create, async (c) => {
    const acct = account(c).id;
    const input = c.req.valid("json");
    const e = await undoIfLoggedOut(
      () => keyLive(c.get("principal")),
      () => svc.create(acct, input),
      (e) => svc.delete(acct, e.id),
      () => unauthorized("invalid or revoked API key"),
    );
    c.header("Location", `${siteUrl()}/api/v1/webhook_endpoints/${e.id}`);
    return c.json(endpointView(e), 201);
  });
  api.openapi(list, async (c) => c.json({ endpoints: (await svc.list(account(c).id)).map(endpointView) }, 200));
  api.openapi(
    get,
    async (c) => c.json(endpointView(await svc.get(account(c).id, c.req.valid("param").endpoint_id)), 200),
  );
  api.openapi(update, async (c) => {
    const e = await svc.update(account(c).id, c.req.valid("param").endpoint_id, c.req.valid("json"));
    return c.json(endpointView(e), 200);
  });
  api.openapi(example, async (c) => {
    const id = c.req.valid("param").endpoint_id;
    const { result, payload } = await sendEndpointExample(svc, sender, account(c).id, id, c.req.valid("json").event);
    return c.json({
      delivered: result.ok,
      status: result.status,
      error: result.error,
      duration_ms: Math.round(result.duration_ms),
      payload: payload as unknown as z.infer<typeof WebhookPayload>,
    }, 200);
  });
  api.openapi(remove, async (c) => {
    const id = c.req.valid("param").endpoint_id;
    await svc.delete(account(c).id, id);
    return c.json({ deleted: true as const, id }, 200);
  });
}
