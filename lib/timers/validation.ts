/** Turns zod issues into one ApiError naming the first offending field and what it must be. */
import type { z } from "@hono/zod-openapi";
import { ApiError, notFound } from "../errors.ts";
import { THEMES, TIMER_TYPES } from "./model.ts";
import { MAX_ITEMS, RUNDOWN_MODES } from "../rundowns/model.ts";

export const LIMITS = {
  duration: { min: 1, max: 31_536_000 },
  work: { min: 1, max: 86_400 },
  rest: { min: 0, max: 86_400 },
  rounds: { min: 1, max: 10_000 },
  title: { max: 100 },
  list: { max: 100, default: 20 },
  threshold: { min: 1, max: 86_400 },
  message: { max: 200 },
  flash: { min: 0, max: 10 },
  adjust: { min: -86_400, max: 86_400 },
} as const;

/** Control characters and bidirectional overrides: a title holding them could disguise itself where it is shown. */
const CONTROLS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** The first control character or bidi override in `s` (as U+XXXX), or null. */
export function controlIn(s: string): string | null {
  const m = s.match(CONTROLS);
  return m ? `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}` : null;
}

/** `s` as displayable text: control characters and bidi overrides removed, lone surrogates replaced. */
export const displayable = (s: string): string => s.replace(CONTROLS, "").toWellFormed();

/** What each field must be, phrased to follow "<field> must be …". */
export const RULES: Record<string, string> = {
  type: `one of ${TIMER_TYPES.join(", ")}`,
  title: `a string of at most ${LIMITS.title.max} characters`,
  duration: `an integer from ${LIMITS.duration.min} to ${LIMITS.duration.max} (seconds)`,
  target_date:
    "an ISO 8601 date-time with seconds and Z or a ±hh:mm offset (RFC 3339, e.g. 2027-01-01T00:00:00Z), in the future and at most 10 years ahead",
  work: `an integer from ${LIMITS.work.min} to ${LIMITS.work.max} (seconds)`,
  rest: `an integer from ${LIMITS.rest.min} to ${LIMITS.rest.max} (seconds)`,
  rounds: `an integer from ${LIMITS.rounds.min} to ${LIMITS.rounds.max}, or omitted for unlimited rounds`,
  theme: `one of ${THEMES.join(", ")}`,
  color: "6 hex digits without the leading #, e.g. 6C63FF",
  webhook_url: "an absolute https URL of at most 2048 characters",
  action: "one of start, pause, resume, reset, stop, adjust",
  warn_at: `an integer from ${LIMITS.threshold.min} to ${LIMITS.threshold.max} (seconds before the end), or null`,
  danger_at: `an integer from ${LIMITS.threshold.min} to ${LIMITS.threshold.max} (seconds before the end), or null`,
  overtime: "true or false",
  sound: "one of none, beep, chime",
  seconds: `a non-zero integer from ${LIMITS.adjust.min} to ${LIMITS.adjust.max}`,
  text: `a string of at most ${LIMITS.message.max} characters`,
  flash: `an integer from ${LIMITS.flash.min} to ${LIMITS.flash.max} (times)`,
  blackout: "true or false",
  state: "one of running, paused, idle, stopped",
  mode: `one of ${RUNDOWN_MODES.join(", ")}`,
  items: `a list of 1 to ${MAX_ITEMS} items, each {"timer_id": "tmr_…"} or a new countdown or interval`,
  index: `an integer from 0 to ${MAX_ITEMS - 1} (an item's place, the first is 0)`,
  limit: `an integer from 1 to ${LIMITS.list.max}`,
  cursor: "a cursor returned as next_cursor by the previous page",
  year: "an integer from 1970 to 2100",
  region:
    "one of US, CN, TW, UK, JP, AU or another ISO 3166 country code such as DE (any case), or omitted for international days",
  lang: "a two-letter language code such as de",
  upcoming: "an integer from 1 to 100",
  tz: "an IANA time zone such as Europe/London",
  url: "an absolute https URL of at most 2048 characters",
  description: "a string of at most 200 characters",
  events: '"all" or a non-empty list of event types such as ["timer.completed"]',
  enabled: "true or false",
  event: "an event type such as timer.completed (see the API reference's webhooks)",
};

/** Which inputs belong to which timer type: a field of another type is refused, not ignored. */
export const TYPE_FIELDS: Record<string, readonly string[]> = {
  countdown: ["duration"],
  event: ["target_date"],
  interval: ["work", "rest", "rounds"],
};

/** Fields a timer has that no PATCH changes. */
const FIXED_FIELDS = ["type", "work", "rest", "rounds"];

/** The order in which fields are reported when several are wrong. */
const ORDER = [
  "type",
  "title",
  "duration",
  "target_date",
  "work",
  "rest",
  "rounds",
  "theme",
  "color",
  "webhook_url",
  "warn_at",
  "danger_at",
  "overtime",
  "sound",
  "action",
  "seconds",
  "state",
  "text",
  "flash",
  "blackout",
];

/** Quotes a received value for an error message, briefly. */
export function show(value: unknown): string {
  // JSON numbers beyond the double range (1e400) parse to ±Infinity, which JSON.stringify calls null.
  if (typeof value === "number" && !Number.isFinite(value)) return "a number too large to represent";
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** The message for `field` holding `value` against its rule. */
export function ruleMessage(field: string, value: unknown): string {
  const rule = RULES[field];
  if (value === undefined) return rule ? `${field} is required: ${rule}` : `${field} is required`;
  return rule ? `${field} must be ${rule}, got ${show(value)}` : `${field} is invalid, got ${show(value)}`;
}

/**
 * Maps a failed parse of `input` to an ApiError with `status` (422 for bodies, 400 for query
 * parameters). Custom messages set by refinements are kept.
 */
export function issuesToError(issues: readonly z.core.$ZodIssue[], input: unknown, status: number): ApiError {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return new ApiError(status, "the request body must be a JSON object");
  }
  const body = input as Record<string, unknown>;
  if ("action" in body && "state" in body) {
    return new ApiError(status, "send exactly one of action or state, not both", "state");
  }
  const rank = (i: z.core.$ZodIssue) => {
    const f = fieldOf(i);
    const r = ORDER.indexOf(f);
    return i.code === "unrecognized_keys" ? 1000 : r === -1 ? 500 : r;
  };
  const first = [...flatten(issues, "action" in body)].sort((a, b) => rank(a) - rank(b))[0];
  const field = fieldOf(first);
  if (first.code === "unrecognized_keys") {
    const owner = Object.keys(TYPE_FIELDS).find((t) => TYPE_FIELDS[t].includes(field));
    if (owner && typeof body.type === "string" && body.type !== owner) {
      return new ApiError(status, `${field} applies only to ${owner} timers, not to type "${body.type}"`, field);
    }
    // A timer's field that a PATCH of it (no action, state or message sent) cannot take.
    const change = !["action", "state", "text", "blackout"].some((k) => k in body);
    if (change && FIXED_FIELDS.includes(field)) {
      return new ApiError(
        status,
        `${field} cannot change after creation (duration of a countdown and target_date of an event can); ` +
          "create a new timer instead",
        field,
      );
    }
    return new ApiError(status, `unknown field "${field}"; check its spelling against the API reference`, field);
  }
  if (first.code === "custom") return new ApiError(status, first.message, field);
  const value = body[field];
  if (value === undefined && typeof body.type === "string" && TYPE_FIELDS[body.type]?.includes(field)) {
    return new ApiError(status, `${field} is required when type is "${body.type}": ${RULES[field]}`, field);
  }
  return new ApiError(status, ruleMessage(field, value), field);
}

/**
 * The issues of the union branch that came closest (fewest issues; the first on a tie), so
 * `{"action":"explode"}` is reported against action and not as a missing state.
 */
function flatten(issues: readonly z.core.$ZodIssue[], hasAction = false): z.core.$ZodIssue[] {
  return issues.flatMap((i) => {
    if (i.code !== "invalid_union" || i.errors.length === 0) return [i];
    // A branch taking the action sent ranks before one refusing as much elsewhere ({"action":"adjust"}
    // is missing its seconds, not a wrong action).
    const cost = (errs: z.core.$ZodIssue[]) =>
      errs.length - (hasAction && !errs.some((e) => e.path[0] === "action") ? 0.5 : 0);
    const best = i.errors.reduce((a, b) => (cost(b) < cost(a) ? b : a));
    return flatten(best.map((e) => ({ ...e, path: [...i.path, ...e.path] })), hasAction);
  });
}

function fieldOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return issue.keys[0];
  return String(issue.path[0] ?? "body");
}

/** The OpenAPIHono hook for failed request validation: 404 for ids, 422 for bodies, 400 for queries. */
export function validationHook(
  result: { success: boolean; target?: string; error?: { issues: readonly z.core.$ZodIssue[] }; data?: unknown },
): void {
  if (result.success) return;
  const issues = result.error?.issues ?? [];
  if (result.target === "param") {
    if (issues.some((i) => i.path[0] === "action")) {
      throw new ApiError(404, "no such action: use one of start, pause, resume, reset, stop, adjust");
    }
    // Ids of a shape this API never issues cannot exist; they are looked up nowhere.
    if (issues.some((i) => i.path[0] === "endpoint_id")) throw new ApiError(404, "webhook endpoint not found");
    throw notFound(
      issues.some((i) => i.path[0] === "delivery_id") && issues.every((i) => i.path[0] !== "id") ? "delivery" : "timer",
    );
  }
  throw issuesToError(issues, result.data, result.target === "json" ? 422 : 400);
}

/**
 * The first problem of zone thresholds against what they count down (a countdown's duration,
 * an interval's work phase; events have no upper bound but the limit), or null.
 */
export function thresholdProblem(
  t: { type: string; duration: number | null; work: number | null },
  warn: number | null,
  danger: number | null,
): { field: string; message: string } | null {
  const span = t.type === "countdown" ? t.duration : t.type === "interval" ? t.work : null;
  const what = t.type === "countdown" ? "the duration" : "the work phase";
  for (const [field, v] of [["warn_at", warn], ["danger_at", danger]] as const) {
    if (v !== null && span !== null && v >= span) {
      return { field, message: `${field} must be below ${what} (${span} s), got ${v}` };
    }
  }
  if (warn !== null && danger !== null && danger >= warn) {
    return { field: "danger_at", message: `danger_at must be below warn_at (${warn}), got ${danger}` };
  }
  return null;
}
