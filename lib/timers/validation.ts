/** Turns zod issues into one ApiError naming the first offending field and what it must be. */
import type { z } from "@hono/zod-openapi";
import { ApiError } from "../errors.ts";
import { THEMES, TIMER_TYPES } from "./model.ts";

export const LIMITS = {
  duration: { min: 1, max: 31_536_000 },
  work: { min: 1, max: 86_400 },
  rest: { min: 0, max: 86_400 },
  rounds: { min: 1, max: 10_000 },
  title: { max: 100 },
  list: { max: 100, default: 20 },
} as const;

/** What each field must be, phrased to follow "<field> must be …". */
export const RULES: Record<string, string> = {
  type: `one of ${TIMER_TYPES.join(", ")}`,
  title: `a string of at most ${LIMITS.title.max} characters`,
  duration: `an integer from ${LIMITS.duration.min} to ${LIMITS.duration.max} (seconds)`,
  target_date: "an ISO 8601 date-time with an offset or Z, in the future and at most 10 years ahead",
  work: `an integer from ${LIMITS.work.min} to ${LIMITS.work.max} (seconds)`,
  rest: `an integer from ${LIMITS.rest.min} to ${LIMITS.rest.max} (seconds)`,
  rounds: `an integer from ${LIMITS.rounds.min} to ${LIMITS.rounds.max}, or omitted for unlimited rounds`,
  theme: `one of ${THEMES.join(", ")}`,
  color: "6 hex digits without the leading #, e.g. 6C63FF",
  webhook_url: "an absolute https URL",
  action: "one of start, pause, resume, reset, stop",
  state: "one of running, paused, idle, stopped",
  limit: `an integer from 1 to ${LIMITS.list.max}`,
  cursor: "a cursor returned as next_cursor by the previous page",
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
  const rank = (i: z.core.$ZodIssue) => {
    const f = fieldOf(i);
    const r = ORDER.indexOf(f);
    return i.code === "unrecognized_keys" ? 1000 : r === -1 ? 500 : r;
  };
  const first = [...issues].sort((a, b) => rank(a) - rank(b))[0];
  const field = fieldOf(first);
  if (first.code === "unrecognized_keys") {
    return new ApiError(status, `unknown field "${field}"; check its spelling against the API reference`, field);
  }
  if (first.code === "custom") return new ApiError(status, first.message, field);
  const value = (input as Record<string, unknown>)[field];
  return new ApiError(status, ruleMessage(field, value), field);
}

function fieldOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return issue.keys[0];
  return String(issue.path[0] ?? "body");
}
