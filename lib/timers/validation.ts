/** Turns zod issues into one ApiError naming the first offending field and what it must be. */
import type { z } from "@hono/zod-openapi";
import { ApiError, notFound } from "../errors.ts";
import { THEMES, TIMER_TYPES } from "./model.ts";

export const LIMITS = {
  duration: { min: 1, max: 31_536_000 },
  work: { min: 1, max: 86_400 },
  rest: { min: 0, max: 86_400 },
  rounds: { min: 1, max: 10_000 },
  title: { max: 100 },
  list: { max: 100, default: 20 },
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
  action: "one of start, pause, resume, reset, stop",
  state: "one of running, paused, idle, stopped",
  limit: `an integer from 1 to ${LIMITS.list.max}`,
  cursor: "a cursor returned as next_cursor by the previous page",
  year: "an integer from 1970 to 2100",
  region:
    "one of US, CN, TW, UK, JP, AU or another ISO 3166 country code such as DE (any case), or omitted for international days",
  lang: "a two-letter language code such as de",
  upcoming: "an integer from 1 to 100",
  tz: "an IANA time zone such as Europe/London",
};

/** Which inputs belong to which timer type: a field of another type is refused, not ignored. */
export const TYPE_FIELDS: Record<string, readonly string[]> = {
  countdown: ["duration"],
  event: ["target_date"],
  interval: ["work", "rest", "rounds"],
};

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
  "action",
  "state",
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
  const first = [...flatten(issues)].sort((a, b) => rank(a) - rank(b))[0];
  const field = fieldOf(first);
  if (first.code === "unrecognized_keys") {
    const owner = Object.keys(TYPE_FIELDS).find((t) => TYPE_FIELDS[t].includes(field));
    if (owner && typeof body.type === "string" && body.type !== owner) {
      return new ApiError(status, `${field} applies only to ${owner} timers, not to type "${body.type}"`, field);
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
function flatten(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((i) => {
    if (i.code !== "invalid_union" || i.errors.length === 0) return [i];
    const best = i.errors.reduce((a, b) => (b.length < a.length ? b : a));
    return flatten(best.map((e) => ({ ...e, path: [...i.path, ...e.path] })));
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
    // Ids of a shape this API never issues cannot exist; they are looked up nowhere.
    throw notFound(
      issues.some((i) => i.path[0] === "delivery_id") && issues.every((i) => i.path[0] !== "id") ? "delivery" : "timer",
    );
  }
  throw issuesToError(issues, result.data, result.target === "json" ? 422 : 400);
}
