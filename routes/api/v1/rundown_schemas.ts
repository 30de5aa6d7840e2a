/** Rundown request and response schemas: they validate requests and make the OpenAPI document. */
import { z } from "@hono/zod-openapi";
import { ApiError, notFound } from "../../../lib/errors.ts";
import { MAX_ITEMS, RUNDOWN_ACTIONS, RUNDOWN_MODES, RUNDOWN_STATES } from "../../../lib/rundowns/model.ts";
import { issuesToError, show, validationHook } from "../../../lib/timers/validation.ts";
import { TIMER_STATES } from "../../../lib/timers/model.ts";
import { ActionQuery, CountdownCreate, IntervalCreate, MessageView, queryInteger, TIMER_ID, title } from "./schemas.ts";
import { DeliveryHeaders } from "./webhook_schemas.ts";

export const RUNDOWN_ID = /^rdn_[0-9A-Za-z]{16}$/;

const iso = z.string().openapi({ format: "date-time" });
const url = z.string().openapi({ format: "uri" });

export const ItemRef = z.strictObject({
  timer_id: z.string().regex(TIMER_ID).openapi({ description: "An existing countdown or interval timer of yours" }),
}).openapi("RundownItemRef", { description: "An existing timer; it stays when the rundown is deleted" });

const ItemInput = z.union([ItemRef, CountdownCreate, IntervalCreate]).openapi("RundownItemInput", {
  description: "An existing timer, or a countdown or interval created with the rundown (POST /timers' body); " +
    "timers created with the rundown are deleted with it",
});
const items = z.array(ItemInput).min(1).max(MAX_ITEMS).openapi({ description: `1 to ${MAX_ITEMS} items, in order` });
const mode = z.enum(RUNDOWN_MODES).openapi({
  description: "manual: the operator moves on (next); linked: when an item completes (an item in overtime: when " +
    "it is stopped) the next starts in the same commit, at the same instant. Default manual",
});
const webhookUrl = z.string().max(4096).openapi({
  format: "uri",
  description: "Receives rundown.started, rundown.advanced and rundown.completed, signed like timer events",
});

export const CreateRundownBody = z.strictObject({
  title: title.nullable().optional(),
  items,
  mode: mode.optional(),
  webhook_url: webhookUrl.optional(),
}).openapi("CreateRundown");

export const UpdateRundownBody = z.strictObject({
  title: title.nullable().optional().openapi({ description: "null clears it" }),
  items: items.optional().openapi({
    description: "The whole new list: items kept by their timer_id (in the new order), new ones added; an item " +
      "left out is removed (409 if it is running; one created with the rundown is deleted)",
  }),
  mode: mode.optional(),
  webhook_url: webhookUrl.nullable().optional().openapi({ description: "null removes it" }),
}).openapi("UpdateRundown");

export const RundownStateBody = z.strictObject({
  action: z.enum(RUNDOWN_ACTIONS).openapi({
    description: "start: the current item (resumed if paused); next/previous: stop the current item, start the " +
      "neighbour; goto: stop the current item and cue `index` without starting it; stop; reset: every item idle, " +
      "back to item 0",
  }),
  index: z.number().int().min(0).max(MAX_ITEMS - 1).optional().openapi({ description: "goto only: the item" }),
}).openapi("RundownStateChange");

export const RundownIdParam = z.object({
  id: z.string().regex(RUNDOWN_ID).openapi({
    param: { name: "id", in: "path", description: "The rundown's id; any other shape answers 404" },
    example: "rdn_4fGh8KzQ2mN7pX1a",
  }),
});
/** The bare-POST actions: the rundown's, and adjust (the live item's time). */
export const RUNDOWN_POST_ACTIONS = [...RUNDOWN_ACTIONS, "adjust"] as const;
export const RundownActionParams = RundownIdParam.extend({
  action: z.enum(RUNDOWN_POST_ACTIONS).openapi({
    param: {
      name: "action",
      in: "path",
      description: "What to do (adjust: the live item's time, ?seconds=N); any other answers 404",
    },
    example: "next",
  }),
});
export const RundownActionQuery = z.strictObject({
  index: queryInteger(0, MAX_ITEMS - 1).optional().openapi({ description: "goto only (required there)" }),
  seconds: ActionQuery.shape.seconds,
});

const Item = z.strictObject({
  timer_id: z.string(),
  title: z.string().nullable(),
  type: z.enum(["countdown", "interval", "event"]).nullable(),
  state: z.enum([...TIMER_STATES, "missing"]).openapi({ description: "missing: the timer was deleted" }),
  duration: z.number().int().nullable(),
  remaining_seconds: z.number().int().nullable(),
  message: MessageView.nullable().openapi({ description: "The item's own message (its timer's), or null" }),
  created_with_rundown: z.boolean(),
  planned_start: iso.nullable().openapi({ description: "The show's start (or now, before it) plus the items before" }),
  expected_start: iso.nullable().openapi({
    description: "Started items: when they started; later ones: the current item's expected end plus the items between",
  }),
});

export const Rundown = z.strictObject({
  rundown_id: z.string().regex(RUNDOWN_ID),
  title: z.string().nullable(),
  mode: z.enum(RUNDOWN_MODES),
  state: z.enum(RUNDOWN_STATES),
  current: z.number().int().openapi({ description: "The index of the live (or cued) item" }),
  offset_seconds: z.number().int().openapi({
    description: "How far the show runs behind its plan (negative: ahead), from the current item's expected end",
  }),
  items: z.array(Item),
  started_at: iso.nullable(),
  completed_at: iso.nullable(),
  message: MessageView.nullable().openapi({
    description: "The show's message (PUT /rundowns/{id}/message), shown on the stage across items, or null. " +
      "While the live item has a message of its own, the stage shows the item's",
  }),
  stage_url: url.openapi({ description: "Always shows the current item" }),
  agenda_url: url,
  control_url: url.optional().openapi({
    description:
      "Shown only when created and by POST /rundowns/{id}/control_token: /r/<id>/control#<control token>; the " +
      "token (as Bearer) may read this rundown and run its actions",
  }),
  created_at: iso,
  webhook_url: url.nullable().optional(),
}).openapi("Rundown");

export const RundownList = z.strictObject({
  rundowns: z.array(Rundown),
  next_cursor: z.string().nullable(),
}).openapi("RundownList");

export const RundownDeleted = z.strictObject({ deleted: z.literal(true), rundown_id: z.string() })
  .openapi("RundownDeleted");

/**
 * Validation answers for rundown routes: 404 naming a rundown for ids of another shape, and an
 * item's problem named by its place (`items[2].duration`), as POST /timers would name it.
 */
export function rundownHook(
  result: { success: boolean; target?: string; error?: { issues: readonly z.core.$ZodIssue[] }; data?: unknown },
): void {
  if (result.success) return;
  const issues = result.error?.issues ?? [];
  if (result.target === "param") {
    if (issues.some((i) => i.path[0] === "action")) {
      throw new ApiError(404, `no such action: use one of ${RUNDOWN_POST_ACTIONS.join(", ")}`);
    }
    throw notFound("rundown");
  }
  const body = result.data as { items?: unknown[] } | undefined;
  const at = issues.find((i) => i.path[0] === "items" && typeof i.path[1] === "number")?.path[1] as number | undefined;
  if (result.target === "json" && at !== undefined && Array.isArray(body?.items)) {
    const item = body.items[at];
    const isRef = typeof item === "object" && item !== null && "timer_id" in item;
    const parsed = (isRef ? ItemRef : z.discriminatedUnion("type", [CountdownCreate, IntervalCreate])).safeParse(item);
    if (!parsed.success) {
      const e = issuesToError(parsed.error.issues, item, 422);
      throw new ApiError(422, `items[${at}]: ${e.message}`, `items[${at}]${e.field ? `.${e.field}` : ""}`);
    }
  }
  // The state body's own fields, by the rundown's rules (not a timer's actions).
  const obj = typeof result.data === "object" && result.data !== null && !Array.isArray(result.data)
    ? result.data as Record<string, unknown>
    : null;
  const own = issues.find((i) => i.path[0] === "action" || i.path[0] === "index");
  if (result.target === "json" && obj && own) {
    const field = String(own.path[0]);
    const rule = field === "action"
      ? `one of ${RUNDOWN_ACTIONS.join(", ")}`
      : `an integer from 0 to ${MAX_ITEMS - 1} (the item's place; goto only)`;
    const value = obj[field];
    const message = value === undefined
      ? `${field} is required: ${rule}`
      : `${field} must be ${rule}, got ${show(value)}`;
    throw new ApiError(422, message, field);
  }
  validationHook(result);
}

const RundownItemRef = z.object({
  index: z.number().int(),
  timer_id: z.string().nullable(),
  title: z.string().nullable(),
});

const RUNDOWN_EVENTS = {
  "rundown.started": {
    summary: "the show started (start from idle, stopped or completed)",
    data: z.object({ item: RundownItemRef }),
  },
  "rundown.advanced": {
    summary: "another item is current: next, previous, goto, or a linked item's finish (stamped with its instant)",
    data: z.object({
      from: z.number().int(),
      to: z.number().int(),
      item: RundownItemRef,
      cause: z.enum(["next", "previous", "goto", "finish"]).openapi({
        description: "The action, or finish: the live item completed (linked mode)",
      }),
    }),
  },
  "rundown.completed": {
    summary: "the last item completed (or, in overtime, was stopped)",
    data: z.object({ item: RundownItemRef, cause: z.literal("finish") }),
  },
} as const;

/** Registers the rundown events as OpenAPI 3.1 webhooks, signed and retried like timer events. */
export function registerRundownWebhooks(registry: { registerWebhook(w: Record<string, unknown>): void }) {
  for (const [event, { summary, data }] of Object.entries(RUNDOWN_EVENTS)) {
    const name = event.split(".").map((w) => w[0].toUpperCase() + w.slice(1)).join("") + "Event";
    const schema = z.object({
      id: z.string().openapi({ description: "The event id: stable across retries, deduplicate on it" }),
      event: z.literal(event),
      timestamp: iso.openapi({ description: "When the event happened" }),
      rundown_id: z.string().regex(RUNDOWN_ID),
      title: z.string().nullable(),
      data,
      signature: z.string().regex(/^sha256=[0-9a-f]{64}$/).optional().openapi({
        description: "In the delivered body only (its last member): the same value as X-Service-Signature",
      }),
    }).openapi(name, { description: summary });
    registry.registerWebhook({
      method: "post",
      path: event,
      operationId: `webhook_${event.replace(".", "_")}`,
      tags: ["Webhooks"],
      summary: `${event}: ${summary}`,
      description: "POSTed to the rundown's webhook_url and to each account webhook endpoint that asks for it " +
        "(each delivery its own id), signed with the account's secret and retried like timer events (the items' " +
        "own timer events go to their timers' webhook_url and endpoints as always).",
      request: {
        headers: DeliveryHeaders,
        body: { required: true, content: { "application/json": { schema } } },
      },
      responses: {
        200: { description: "Any 2xx acknowledges the delivery" },
        default: { description: "Anything else (or no answer within the timeout) is a failed attempt" },
      },
    });
  }
}
