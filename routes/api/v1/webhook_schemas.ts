/**
 * The webhook payloads, one schema per event type (DECISIONS "Webhooks"), and the headers each
 * delivery carries. They document the `webhooks` of the OpenAPI document and the `payload` of the
 * delivery log.
 */
import { z } from "@hono/zod-openapi";
import { TIMER_ID } from "./schemas.ts";
import { RUNDOWN_EVENT_TYPES } from "../../../lib/rundowns/model.ts";

const iso = z.string().openapi({ format: "date-time" });
const seconds = z.int().min(0);

/** The data of a zone crossing. */
function zoneData(zone: "warning" | "danger") {
  return z.object({
    zone: z.literal(zone),
    remaining_seconds: seconds.openapi({
      description: `The timer's ${zone} threshold (${zone === "warning" ? "warn_at" : "danger_at"})`,
    }),
    round: z.int().min(1).optional().openapi({ description: "Interval timers: the round whose work phase crossed it" }),
  });
}

/** The data of each event type. */
const DATA = {
  "timer.started": z.object({
    state: z.literal("running"),
    duration: seconds.nullable().openapi({ description: "null for an interval with unlimited rounds" }),
    remaining_seconds: seconds.nullable(),
    started_at: iso,
  }),
  "timer.paused": z.object({ state: z.literal("paused"), remaining_seconds: seconds.nullable() }),
  "timer.resumed": z.object({ state: z.literal("running"), remaining_seconds: seconds.nullable() }),
  "timer.stopped": z.object({
    state: z.literal("stopped"),
    remaining_seconds: seconds.nullable(),
    overtime_seconds: seconds.optional().openapi({ description: "Timers with overtime: seconds past zero" }),
    reason: z.literal("overtime_limit").optional().openapi({
      description: "Only when overtime stopped itself after 24 h",
    }),
  }),
  "timer.reset": z.object({ state: z.literal("idle"), remaining_seconds: seconds.nullable() }),
  "timer.completed": z.object({
    state: z.literal("completed"),
    duration: seconds.nullable(),
    actual_duration: seconds.nullable().openapi({ description: "Seconds from start to completion" }),
    started_at: iso.nullable().openapi({ description: "null for an event timer that was never started" }),
    completed_at: iso,
    overtime: z.literal(true).optional().openapi({
      description: "Only for timers with overtime: it reached zero and counts on (state stays running)",
    }),
  }),
  "interval.round_end": z.object({
    round: z.int().min(1).openapi({ description: "The round that just ended (1-based)" }),
    rounds: z.int().min(1).nullable().openapi({ description: "null for unlimited rounds" }),
    work: seconds,
    rest: seconds,
    missed_rounds: z.int().min(1).optional().openapi({
      description: "Present on the first round end sent after a downtime that owed more than 10: only the 10 most " +
        "recent round ends are sent, and this many earlier ones were skipped without an event",
    }),
  }),
  "interval.completed": z.object({
    rounds: z.int().min(1),
    duration: seconds,
    actual_duration: seconds,
    started_at: iso,
    completed_at: iso,
  }),
  "timer.warning": zoneData("warning"),
  "timer.danger": zoneData("danger"),
  "timer.adjusted": z.object({
    seconds: z.int().openapi({ description: "Seconds added (negative: taken away) by this adjust" }),
    added_seconds: z.int().openapi({ description: "Net seconds added since the last start or reset" }),
    remaining_seconds: seconds.nullable().openapi({ description: "After the adjust; null for unlimited intervals" }),
  }),
  "webhook.test": z.object({ message: z.string() }),
} as const;

export type WebhookEventType = keyof typeof DATA;
export const WEBHOOK_EVENTS = Object.keys(DATA) as WebhookEventType[];
/** Every event type a delivery may carry: the timers' and the rundowns' (registered in rundown_schemas.ts). */
export const DELIVERY_EVENTS = [...WEBHOOK_EVENTS, ...RUNDOWN_EVENT_TYPES] as const;

const SUMMARY: Record<WebhookEventType, string> = {
  "timer.started": "The timer started running",
  "timer.paused": "The timer was paused",
  "timer.resumed": "The timer resumed from paused",
  "timer.stopped": "The timer was stopped",
  "timer.reset": "The timer returned to its initial duration",
  "timer.completed": "A countdown reached zero or an event timer reached target_date",
  "interval.round_end": "An interval timer finished a round",
  "interval.completed": "An interval timer finished its last round",
  "timer.warning": "The running count crossed warn_at (once per crossing; an interval's every work phase)",
  "timer.danger": "The running count crossed danger_at (once per crossing; an interval's every work phase)",
  "timer.adjusted": "Time was added to or taken from a running or paused timer",
  "webhook.test": "A test delivery sent on request (POST /timers/{id}/webhook/test)",
};

const schemaName = (event: string) =>
  event.split(/[._]/).map((w) => w[0].toUpperCase() + w.slice(1)).join("") + "Event";

function payload<E extends WebhookEventType>(event: E) {
  return z.object({
    id: z.string().openapi({ description: "The event id: stable across retries, deduplicate on it" }),
    event: z.literal(event),
    timestamp: iso.openapi({ description: "When the event happened" }),
    timer_id: z.string().regex(TIMER_ID),
    title: z.string().nullable(),
    type: z.enum(["countdown", "event", "interval"]),
    data: DATA[event],
    signature: z.string().regex(/^sha256=[0-9a-f]{64}$/).optional().openapi({
      description: "In the delivered body only (its last member): the same value as X-Service-Signature",
    }),
  }).openapi(schemaName(event), { description: SUMMARY[event] });
}

export const PAYLOADS = {
  "timer.started": payload("timer.started"),
  "timer.paused": payload("timer.paused"),
  "timer.resumed": payload("timer.resumed"),
  "timer.stopped": payload("timer.stopped"),
  "timer.reset": payload("timer.reset"),
  "timer.completed": payload("timer.completed"),
  "interval.round_end": payload("interval.round_end"),
  "interval.completed": payload("interval.completed"),
  "timer.warning": payload("timer.warning"),
  "timer.danger": payload("timer.danger"),
  "timer.adjusted": payload("timer.adjusted"),
  "webhook.test": payload("webhook.test"),
};

/** A rundown event's payload (each event's data: the webhooks rundown.*), as sent and as the delivery log holds it. */
export const RundownPayload = z.object({
  id: z.string(),
  event: z.enum(RUNDOWN_EVENT_TYPES),
  timestamp: iso,
  rundown_id: z.string(),
  title: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
}).openapi("RundownWebhookPayload", { description: "A rundown event's payload (see the webhooks rundown.*)" });

export const WebhookPayload = z.discriminatedUnion("event", [
  PAYLOADS["timer.started"],
  PAYLOADS["timer.paused"],
  PAYLOADS["timer.resumed"],
  PAYLOADS["timer.stopped"],
  PAYLOADS["timer.reset"],
  PAYLOADS["timer.completed"],
  PAYLOADS["interval.round_end"],
  PAYLOADS["interval.completed"],
  PAYLOADS["timer.warning"],
  PAYLOADS["timer.danger"],
  PAYLOADS["timer.adjusted"],
  PAYLOADS["webhook.test"],
  RundownPayload,
]).openapi("WebhookPayload", { description: "Any webhook payload, by its event (a timer's or a rundown's)" });

/** The headers of every delivery. */
export const DeliveryHeaders = z.object({
  "x-service-signature": z.string().regex(/^sha256=[0-9a-f]{64}$/).openapi({
    description: "HMAC-SHA256 (hex) of the body without its trailing signature member, keyed by the whole " +
      "secret string (UTF-8). During a rotation's grace period it keeps the previous secret.",
  }),
  "webhook-id": z.string().openapi({ description: "Standard Webhooks: the event id" }),
  "webhook-timestamp": z.string().regex(/^\d+$/).openapi({
    description: "Standard Webhooks: Unix seconds of this attempt; refuse values too far from now",
  }),
  "webhook-signature": z.string().openapi({
    description: "Standard Webhooks: space-separated `v1,<base64>` HMAC-SHA256 of `id.timestamp.body`, keyed by " +
      "the base64-decoded bytes after `whsec_`; one per current secret",
  }),
});

/** Registers one OpenAPI 3.1 webhook per event type. */
export function registerWebhooks(registry: {
  registerWebhook(w: Record<string, unknown>): void;
}) {
  for (const event of WEBHOOK_EVENTS) {
    registry.registerWebhook({
      method: "post",
      path: event,
      operationId: `webhook_${event.replace(".", "_")}`,
      tags: ["Webhooks"],
      summary: `${event}: ${SUMMARY[event]}`,
      description: (event === "webhook.test"
        ? "POSTed to the timer's webhook_url when a test send is asked for (POST /timers/{id}/webhook/test): " +
          "one attempt, never retried. "
        : "POSTed to the timer's webhook_url and to each enabled account endpoint that asks for it " +
          "(POST /webhook_endpoints), each with its own id. Answer any 2xx within the timeout (10 s by default); anything " +
          "else is retried on the operator's schedule (by default after 1 min, 5 min, 30 min, 2 h). ") +
        "Verify the signature before trusting the body; see the webhooks guide.",
      request: {
        headers: DeliveryHeaders,
        body: { required: true, content: { "application/json": { schema: PAYLOADS[event] } } },
      },
      responses: {
        200: { description: "Any 2xx acknowledges the delivery" },
        default: { description: "Anything else (or no answer within the timeout) is a failed attempt" },
      },
    });
  }
}
