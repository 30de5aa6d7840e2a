/** The zod schemas that validate requests and generate the OpenAPI document. */
import { z } from "@hono/zod-openapi";
import { ACTIONS, THEMES, TIMER_TYPES } from "../../../lib/timers/model.ts";
import { LIMITS } from "../../../lib/timers/validation.ts";

const int = (min: number, max: number) => z.int().min(min).max(max);
const title = z.string().refine((s) => [...s].length <= LIMITS.title.max).openapi({
  description: `At most ${LIMITS.title.max} characters`,
  example: "Launch",
});
const color = z.string().regex(/^[0-9A-Fa-f]{6}$/).openapi({
  description: "Hex colour without the leading #",
  example: "6C63FF",
});
const webhookUrl = z.string().openapi({
  description: "Absolute https URL notified of the timer's events",
  example: "https://example.com/hooks/timer",
});
const theme = z.enum(THEMES);

/** Which inputs belong to which type: a field of another type is refused, not ignored. */
const TYPE_FIELDS = {
  countdown: ["duration"],
  event: ["target_date"],
  interval: ["work", "rest", "rounds"],
} as const;
const REQUIRED = { countdown: ["duration"], event: ["target_date"], interval: ["work", "rest"] } as const;

export const CreateTimerBody = z.strictObject({
  type: z.enum(TIMER_TYPES),
  title: title.optional(),
  duration: int(LIMITS.duration.min, LIMITS.duration.max).optional().openapi({
    description: "Seconds; required for countdown",
    example: 300,
  }),
  target_date: z.string().optional().openapi({
    description: "ISO 8601 date-time with offset or Z; required for event",
    example: "2027-01-01T00:00:00Z",
  }),
  work: int(LIMITS.work.min, LIMITS.work.max).optional().openapi({
    description: "Work seconds; required for interval",
  }),
  rest: int(LIMITS.rest.min, LIMITS.rest.max).optional().openapi({
    description: "Rest seconds; required for interval",
  }),
  rounds: int(LIMITS.rounds.min, LIMITS.rounds.max).optional().openapi({
    description: "Interval rounds; omit for unlimited",
  }),
  theme: theme.optional().openapi({ description: "Default light" }),
  color: color.optional(),
  webhook_url: webhookUrl.optional(),
}).superRefine((body, ctx) => {
  for (const field of REQUIRED[body.type]) {
    if (body[field] === undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: `${field} is required when type is "${body.type}"` });
    }
  }
  for (const [type, fields] of Object.entries(TYPE_FIELDS)) {
    if (type === body.type) continue;
    for (const field of fields) {
      if (body[field] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${field} applies only to ${type} timers, not to type "${body.type}"`,
        });
      }
    }
  }
}).openapi("CreateTimer");

export const UpdateTimerBody = z.strictObject({
  title: title.nullable().optional().openapi({ description: "null clears it" }),
  theme: theme.optional(),
  color: color.optional(),
  webhook_url: webhookUrl.nullable().optional().openapi({ description: "null removes the webhook" }),
}).openapi("UpdateTimer");

export const StateBody = z.strictObject({
  action: z.enum(ACTIONS).optional().openapi({ description: "Variant A" }),
  state: z.enum(["running", "paused", "idle", "stopped"]).optional().openapi({
    description: "Variant B: the state to reach",
  }),
}).superRefine((body, ctx) => {
  if ((body.action === undefined) === (body.state === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["action"],
      message: "send exactly one of action (start, pause, resume, reset, stop) or state",
    });
  }
}).openapi("StateChange");

export const TimerIdParam = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "tmr_4fGh8KzQ2mN7pX1a" }),
});

export const ListQuery = z.strictObject({
  type: z.enum(TIMER_TYPES).optional(),
  limit: z.string().regex(/^\d+$/).transform(Number).pipe(int(1, LIMITS.list.max)).optional().openapi({
    type: "integer",
    description: `Page size, 1–${LIMITS.list.max} (default ${LIMITS.list.default})`,
  }),
  cursor: z.string().optional(),
});

const iso = z.string().openapi({ format: "date-time" });

export const Timer = z.object({
  timer_id: z.string(),
  title: z.string().nullable(),
  type: z.enum(TIMER_TYPES),
  duration: z.int().nullable().openapi({ description: "Seconds; null for an interval with unlimited rounds" }),
  remaining_seconds: z.int().nullable(),
  state: z.enum(["idle", "running", "paused", "completed", "stopped"]),
  started_at: iso.nullable(),
  completed_at: iso.nullable(),
  theme,
  color: z.string(),
  viewer_url: z.string(),
  embed_url: z.string(),
  control_url: z.string().optional().openapi({ description: "Only in the creation response" }),
  created_at: iso,
  expires_at: iso,
  target_date: iso.optional(),
  work: z.int().optional(),
  rest: z.int().optional(),
  rounds: z.int().nullable().optional(),
  interval: z.object({
    round: z.int(),
    phase: z.enum(["work", "rest"]),
    phase_remaining_seconds: z.int(),
  }).optional(),
  webhook_url: z.string().nullable().optional().openapi({ description: "Only to the owner" }),
}).openapi("Timer");

export const TimerList = z.object({
  timers: z.array(Timer),
  next_cursor: z.string().nullable(),
}).openapi("TimerList");

export const Deleted = z.object({ deleted: z.literal(true), timer_id: z.string() }).openapi("Deleted");

export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.int(),
    message: z.string(),
    field: z.string().optional(),
  }),
}).openapi("Error");

/** Error responses shared by the authenticated endpoints. */
export function errors(...codes: number[]) {
  const text: Record<number, string> = {
    400: "Malformed JSON, wrong Content-Type or invalid query parameter",
    401: "Missing or invalid API key",
    403: "Plan without API access, or the stored-timer limit reached",
    404: "Timer not found or expired",
    409: "Action not valid in the timer's current state",
    413: "Body over 16 KiB",
    422: "Validation error; error.field names the field",
    429: "Rate limit exceeded; see Retry-After",
  };
  return Object.fromEntries(
    codes.map((c) => [c, { description: text[c], content: { "application/json": { schema: ErrorEnvelope } } }]),
  );
}
