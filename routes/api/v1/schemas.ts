/**
 * The zod schemas that validate requests and generate the OpenAPI document: one source of truth.
 * What a schema allows the server accepts (up to state- and clock-dependent rules: a target date
 * in the past, an action invalid in the timer's state), and what it refuses the server refuses.
 */
import { z } from "@hono/zod-openapi";
import { ACTIONS, THEMES, TIMER_STATES } from "../../../lib/timers/model.ts";
import { ZONES } from "../../../lib/timers/show.ts";
import { controlIn, LIMITS } from "../../../lib/timers/validation.ts";

const int = (min: number, max: number) => z.int().min(min).max(max);
const MESSAGE_COLORS = ["white", "green", "yellow", "red"] as const;
const SOUNDS = ["none", "beep", "chime"] as const;

/** Timer ids as issued (`tmr_` + 16 base62); anything else cannot exist and answers 404. */
export const TIMER_ID = /^tmr_[0-9A-Za-z]{16}$/;
/** Event (delivery) ids as issued: `evt_` + 9 base36 time digits + 14 base62. */
export const EVENT_ID = /^evt_[0-9a-z]{9}[0-9A-Za-z]{14}$/;

export const title = z.string().superRefine((s, ctx) => {
  // A lone surrogate (a \uD800 escape without its pair) is no text: strict JSON parsers refuse it on the way back.
  if (!s.isWellFormed()) ctx.addIssue({ code: "custom", message: "title must be text: it holds a lone surrogate" });
  const control = controlIn(s);
  if (control) {
    ctx.addIssue({ code: "custom", message: `title must be text without control characters; it holds ${control}` });
  }
  const n = [...s].length;
  if (n > LIMITS.title.max) {
    ctx.addIssue({ code: "custom", message: `title must be at most ${LIMITS.title.max} characters, got ${n}` });
  }
}).openapi({
  maxLength: LIMITS.title.max,
  // What controlIn refuses, for validators and fuzzers that read the document (lone surrogates aside).
  pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*$",
  description: `At most ${LIMITS.title.max} characters (Unicode code points): text without control characters ` +
    "or bidirectional overrides",
  example: "Launch",
});
const color = z.string().regex(/^[0-9A-Fa-f]{6}$/).openapi({
  description: "Six hex digits without the leading #; answered in upper case",
  example: "6C63FF",
});
// The scheme in any case (URLs' schemes are case-insensitive; the stored URL is normalised).
/** An absolute http(s) URL as the schema takes it (the service checks the rest: lib/webhooks/destinations.ts). */
export const httpUrl = () => z.string().max(2048).regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/);
const webhookUrl = httpUrl().openapi({
  format: "uri",
  description: "Absolute https URL notified of the timer's events (plain http only where the operator allows it; " +
    "private and loopback addresses are refused unless the operator allows them; ports 80, 443 and 1024–65535 " +
    "only, less the ports browsers refuse). Stored and answered " +
    "normalised: scheme and host in lower case, an international host in punycode, and characters RFC 3986 " +
    "does not allow (non-ASCII, [ ] ^ | { } and the like, a % that starts no escape) percent-encoded",
  example: "https://example.com/hooks/timer",
});
const theme = z.enum(THEMES).openapi({
  description: "Page theme; default dark (as the widget's, so a timer and a widget of parameters look alike)",
});
/** RFC 3339 lets "T" and "Z" be written in lower case; the validator takes upper case only. */
const upperTZ = (v: unknown) => typeof v === "string" ? v.replace(/[tz]/g, (c) => c.toUpperCase()) : v;
const targetDate = z.preprocess(upperTZ, z.iso.datetime({ offset: true })).openapi({
  // What the validator takes of `date-time`: a "T" (not a space), seconds, at most 9 fraction digits, a ±hh:mm offset.
  pattern: "^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})$",
  description: "ISO 8601 date-time with Z or an offset (a real calendar date), in the future, at most 10 years ahead",
  example: "2027-01-01T00:00:00Z",
});

const common = {
  title: title.nullable().optional().openapi({ description: "null: no title" }),
  theme: theme.optional(),
  color: color.optional(),
  webhook_url: webhookUrl.optional(),
};

const threshold = (zone: string, more: string) =>
  int(LIMITS.threshold.min, LIMITS.threshold.max).openapi({
    description: `Seconds before the end where the ${zone} zone begins (timer.${zone} is sent as it is crossed)` +
      more,
  });
const warnAt = threshold(
  "warning",
  "; below a countdown's duration (an interval's work: every work phase). With danger_at, above it",
);
const dangerAt = threshold("danger", "; below warn_at when both are set");
const overtime = z.boolean().openapi({
  description: "Count on past zero (zone overtime, overtime_seconds) after sending timer.completed with " +
    "data.overtime true; stops itself after 24 h. Default false",
});
const sound = z.enum(SOUNDS).openapi({
  description: "A cue the viewer and widget play at warning, at danger and at zero (synthesised; browsers may " +
    "ask for a tap first). Default none (the widget's completion alarm only); the widget's sound= overrides it",
});
const zones = { warn_at: warnAt.optional(), danger_at: dangerAt.optional(), sound: sound.optional() };

export const CountdownCreate = z.strictObject({
  type: z.literal("countdown"),
  duration: int(LIMITS.duration.min, LIMITS.duration.max).openapi({ description: "Seconds", example: 300 }),
  ...common,
  ...zones,
  overtime: overtime.optional(),
}).openapi("CountdownCreate", { description: "A countdown of `duration` seconds" });

export const EventCreate = z.strictObject({
  type: z.literal("event"),
  target_date: targetDate,
  ...common,
  ...zones,
  overtime: overtime.optional(),
}).openapi("EventCreate", { description: "Counts to a fixed instant; completes at target_date" });

export const IntervalCreate = z.strictObject({
  type: z.literal("interval"),
  work: int(LIMITS.work.min, LIMITS.work.max).openapi({ description: "Work phase, seconds", example: 20 }),
  rest: int(LIMITS.rest.min, LIMITS.rest.max).openapi({ description: "Rest phase, seconds", example: 10 }),
  rounds: int(LIMITS.rounds.min, LIMITS.rounds.max).optional().openapi({
    description: "Number of rounds; omit for unlimited",
    example: 8,
  }),
  ...common,
  ...zones,
}).openapi("IntervalCreate", { description: "Rounds of work then rest" });

export const CreateTimerBody = z.discriminatedUnion("type", [CountdownCreate, EventCreate, IntervalCreate])
  .openapi("CreateTimer", { description: "One shape per type; fields of another type are refused" });

export const UpdateTimerBody = z.strictObject({
  title: title.nullable().optional().openapi({ description: "null clears it" }),
  duration: int(LIMITS.duration.min, LIMITS.duration.max).optional().openapi({
    description: "Countdown timers only: the new duration in seconds, while the timer is idle or stopped " +
      "(409 otherwise, error.field duration). warn_at and danger_at must stay below it (422)",
    example: 600,
  }),
  target_date: targetDate.optional().openapi({
    description: "Event timers only: the new instant to count to (in the future, at most 10 years ahead), " +
      "in any state but completed and stopped (409 then, error.field target_date). The event then completes " +
      "at the new instant, once; duration is recounted from created_at and expires_at follows",
    example: "2027-01-01T00:00:00Z",
  }),
  theme: theme.optional(),
  color: color.optional(),
  webhook_url: webhookUrl.nullable().optional().openapi({ description: "null removes the webhook" }),
  warn_at: warnAt.nullable().optional().openapi({ description: "null clears it; thresholds count from now" }),
  danger_at: dangerAt.nullable().optional().openapi({ description: "null clears it; thresholds count from now" }),
  overtime: overtime.optional().openapi({ description: "Countdown and event timers (409 turning it off in overtime)" }),
  sound: sound.optional(),
}).openapi("UpdateTimer", {
  description: "The fields to change; the id, viewer, embed and control URLs stay. type, work, rest and rounds " +
    "cannot change (create a new timer)",
});

export const ActionBody = z.strictObject({
  action: z.enum(ACTIONS).openapi({ description: "What to do" }),
}).openapi("ActionChange", { description: "An action to apply" });
const adjustSeconds = int(LIMITS.adjust.min, LIMITS.adjust.max).refine((n) => n !== 0, {
  error: `seconds must be a non-zero integer from ${LIMITS.adjust.min} to ${LIMITS.adjust.max}, got 0`,
}).openapi({
  description: "Seconds to add (negative: to take away); not 0",
  not: { const: 0 },
  example: 60,
});
export const AdjustBody = z.strictObject({
  action: z.literal("adjust"),
  seconds: adjustSeconds,
}).openapi("AdjustChange", {
  description: "Adds or takes away time from a running or paused countdown, or from an interval's current " +
    "phase (the planned duration stays; added_seconds shows the net change, reset forgets it). Taking away " +
    "more than is left ends it now (completed, or overtime). 409 on events and on idle, completed or stopped timers",
});
export const StateTargetBody = z.strictObject({
  state: z.enum(["running", "paused", "idle", "stopped"]).openapi({
    description: "The state to reach (running: start or resume)",
  }),
}).openapi("StateTargetChange", {
  description: "The state to reach; the action that reaches it from the current state is applied",
});
export const StateBody = z.union([ActionBody, AdjustBody, StateTargetBody]).openapi(
  "StateChange",
  { description: "Exactly one of action (with seconds for adjust) or state" },
  { unionPreferredType: "oneOf" },
);

export const MessageBody = z.strictObject({
  text: z.string().superRefine((s, ctx) => {
    if (!s.isWellFormed()) ctx.addIssue({ code: "custom", message: "text must be text: it holds a lone surrogate" });
    const control = controlIn(s);
    if (control) {
      ctx.addIssue({ code: "custom", message: `text must be text without control characters; it holds ${control}` });
    }
    const n = [...s].length;
    if (n > LIMITS.message.max) {
      ctx.addIssue({ code: "custom", message: `text must be at most ${LIMITS.message.max} characters, got ${n}` });
    }
  }).optional().openapi({
    maxLength: LIMITS.message.max,
    pattern: "^[^\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*$",
    description: `At most ${LIMITS.message.max} characters; required unless blackout is true`,
    example: "Wrap up, please",
  }),
  // Its own words when refused: the timer's `color` rule (6 hex digits) would send a client astray.
  color: z.string().refine((v) => (MESSAGE_COLORS as readonly string[]).includes(v), {
    error: (i) => `color must be one of ${MESSAGE_COLORS.join(", ")}, got ${JSON.stringify(i.input)}`,
  }).transform((v) => v as (typeof MESSAGE_COLORS)[number]).optional().openapi({
    type: "string",
    enum: [...MESSAGE_COLORS],
    description: "Default white",
  }),
  flash: int(LIMITS.flash.min, LIMITS.flash.max).optional().openapi({
    description: "How many times the message flashes as it appears (at most 3 a second; a steady inverted style " +
      "where the viewer asks for reduced motion). Default 0",
  }),
  blackout: z.boolean().optional().openapi({
    description: "Turn the viewer black (the timer keeps counting underneath). Default false",
  }),
}).openapi("MessageChange", { description: "What the speaker's screen shows beside the timer" });

export const ActionParams = z.object({
  id: z.string().regex(TIMER_ID).openapi({
    param: { name: "id", in: "path", description: "The timer's id; any other shape answers 404" },
    example: "tmr_4fGh8KzQ2mN7pX1a",
  }),
  action: z.enum([...ACTIONS, "adjust"]).openapi({
    param: { name: "action", in: "path", description: "What to do; any other answers 404" },
    example: "start",
  }),
});
export const ActionQuery = z.strictObject({
  seconds: z.string().regex(/^-?[0-9]{1,6}$/).transform(Number).optional().openapi({
    type: "integer",
    minimum: LIMITS.adjust.min,
    maximum: LIMITS.adjust.max,
    description: "adjust only (required there): seconds to add, negative to take away, not 0",
    example: 60,
  }),
});

export const TimerIdParam = z.object({
  id: z.string().regex(TIMER_ID).openapi({
    param: { name: "id", in: "path", description: "The timer's id; any other shape answers 404" },
    example: "tmr_4fGh8KzQ2mN7pX1a",
  }),
});
export const DeliveryIdParams = TimerIdParam.extend({
  delivery_id: z.string().regex(EVENT_ID).openapi({
    param: { name: "delivery_id", in: "path", description: "The delivery's (event's) id" },
    example: "evt_0mhs7a2o05Hk2bQ9xZ1LmNp",
  }),
});

/**
 * A whole-number query parameter, written in plain decimal digits: `2026.0`, `0x7EA`, `2e3` or
 * ` 20` are refused rather than read as numbers.
 */
export const queryInteger = (min: number, max: number) =>
  z.string().regex(/^[0-9]{1,10}$/).transform(Number).pipe(z.number().int().min(min).max(max))
    .openapi({ type: "integer", minimum: min, maximum: max });

const limit = queryInteger(1, LIMITS.list.max).optional().openapi({
  description: `Page size, 1–${LIMITS.list.max} (default ${LIMITS.list.default})`,
  example: 20,
});
const cursor = z.string().min(1).max(512).optional().openapi({
  description: "next_cursor of the previous page",
});

export const ListQuery = z.strictObject({
  type: z.enum(["countdown", "event", "interval"]).optional().openapi({ description: "Only timers of this type" }),
  limit,
  cursor,
});
export const PageQuery = z.strictObject({ limit, cursor });

const iso = z.string().openapi({ format: "date-time" });
const url = z.string().openapi({ format: "uri" });

/** A message as stored and answered (a timer's, or a rundown's). */
export const MessageView = z.strictObject({
  text: z.string(),
  color: z.enum(MESSAGE_COLORS),
  flash: z.int().min(0).max(LIMITS.flash.max),
  blackout: z.boolean(),
  set_at: iso,
}).openapi("Message");

export const Timer = z.strictObject({
  timer_id: z.string().regex(TIMER_ID),
  title: z.string().nullable().openapi({ maxLength: LIMITS.title.max }),
  type: z.enum(["countdown", "event", "interval"]),
  duration: z.int().min(0).nullable().openapi({
    description: "Seconds: countdown as given; event from creation to target_date; interval rounds × (work + rest), " +
      "null when rounds are unlimited",
  }),
  remaining_seconds: z.int().min(0).nullable().openapi({
    description: "Whole seconds left (rounded up) at the time of the response; null for unlimited intervals",
  }),
  state: z.enum(TIMER_STATES),
  counting: z.boolean().openapi({
    description: "Whether the clock moves toward a deadline now: running, or an event timer nobody started " +
      "(an event counts to target_date whether or not it was started)",
  }),
  started_at: iso.nullable(),
  completed_at: iso.nullable(),
  theme: z.enum(THEMES),
  color: z.string().regex(/^[0-9A-F]{6}$/),
  viewer_url: url,
  embed_url: url,
  control_url: url.optional().openapi({
    description:
      "Only in the responses of creation and of POST /timers/{id}/control_token: the capability to read and " +
      "control this timer (keep it secret)",
  }),
  created_at: iso,
  expires_at: iso.openapi({
    description: "When the timer and its data are purged: at least 7 days after a running timer's next deadline, " +
      "or after the end a paused one would have if resumed at its last change (adjusts included)",
  }),
  target_date: iso.optional().openapi({ description: "Event timers" }),
  work: z.int().optional().openapi({ description: "Interval timers" }),
  rest: z.int().optional().openapi({ description: "Interval timers" }),
  rounds: z.int().nullable().optional().openapi({ description: "Interval timers; null for unlimited" }),
  interval: z.strictObject({
    round: z.int().min(1),
    phase: z.enum(["work", "rest"]),
    phase_remaining_seconds: z.int().min(0),
  }).optional().openapi({ description: "Interval timers: where the timer is now" }),
  webhook_url: url.nullable().optional().openapi({
    description: "Only to the owner (API key), not to a control token; normalised (see the request's webhook_url)",
  }),
  warn_at: z.int().nullable().openapi({ description: "Seconds before the end where the warning zone begins" }),
  danger_at: z.int().nullable().openapi({ description: "Seconds before the end where the danger zone begins" }),
  overtime: z.boolean().openapi({ description: "Whether it counts on past zero" }),
  sound: z.enum(SOUNDS).openapi({ description: "The cue the pages play at warning, danger and zero" }),
  zone: z.enum(ZONES).openapi({
    description: "Computed at the time of the response: normal, warning or danger (from the time left; an " +
      "interval's from its work phase), or overtime (past zero, counting on)",
  }),
  overtime_seconds: z.int().min(0).openapi({ description: "Whole seconds past zero while in overtime; 0 otherwise" }),
  added_seconds: z.int().openapi({ description: "Net seconds added by adjust since the last start or reset" }),
  message: MessageView.nullable().openapi({
    description: "What the viewer shows beside the timer (PUT /timers/{id}/message), or null",
  }),
}).openapi("Timer");

export const TimerList = z.strictObject({
  timers: z.array(Timer),
  next_cursor: z.string().nullable().openapi({ description: "Pass as cursor for the next page; null on the last" }),
}).openapi("TimerList");

export const Deleted = z.strictObject({ deleted: z.literal(true), timer_id: z.string() }).openapi("Deleted");

export const ErrorEnvelope = z.strictObject({
  error: z.strictObject({
    code: z.int().min(400).max(599).openapi({ description: "The HTTP status" }),
    message: z.string().min(1).openapi({ description: "What is wrong and how to fix it" }),
    field: z.string().optional().openapi({ description: "The offending field or parameter, when there is one" }),
  }),
}).openapi("ErrorResponse", {
  description: "Every error has this shape",
  example: {
    error: { code: 422, message: "duration must be an integer from 1 to 31536000 (seconds), got 0", field: "duration" },
  },
});
