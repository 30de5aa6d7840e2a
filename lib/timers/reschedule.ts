/**
 * Rescheduling a timer in place (PATCH /timers/:id with duration or target_date): the id, the
 * embeds and the links stay. Pure: the service plans the change (its due index moves with it).
 */
import { ApiError } from "../errors.ts";
import { effective, type Timer } from "./model.ts";
import { position } from "./show.ts";
import { ruleMessage, thresholdProblem } from "./validation.ts";

export interface RescheduleInput {
  duration?: number;
  target_date?: string;
  warn_at?: number | null;
  danger_at?: number | null;
}

const TEN_YEARS_MS = 3653 * 86400_000;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A target date: ISO 8601 with an offset or Z, in the future, at most ten years ahead. */
export function parseTarget(raw: string, now: number): number {
  const ms = ISO_WITH_OFFSET.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw new ApiError(422, ruleMessage("target_date", raw), "target_date");
  if (ms <= now) throw new ApiError(422, `target_date must be in the future, got ${raw}`, "target_date");
  if (ms > now + TEN_YEARS_MS) {
    throw new ApiError(422, `target_date must be at most 10 years ahead, got ${raw}`, "target_date");
  }
  return ms;
}

/**
 * The fields a reschedule changes (none when the input asks for none). A countdown's duration
 * changes while it is idle or stopped; an event's target_date until it completes or is stopped
 * (its due entry then moves; zone crossings count from now). Refusals say why: 422 for a field
 * of another type or a value out of its rules, 409 for a state that does not allow it.
 */
export function reschedule(t: Timer, input: RescheduleInput, now: number): Partial<Timer> {
  if (input.duration === undefined && input.target_date === undefined) return {};
  const state = effective(t, now).state;
  if (input.duration !== undefined) {
    if (t.type !== "countdown") {
      const instead = t.type === "event" ? "; change target_date instead" : "";
      throw new ApiError(
        422,
        `duration can change only on countdown timers; this one is ${t.type}${instead}`,
        "duration",
      );
    }
    if (state !== "idle" && state !== "stopped") {
      throw new ApiError(
        409,
        `duration can change only while the timer is idle or stopped; it is ${state}` +
          (state === "completed" ? " (reset it first)" : " (stop or reset it first)"),
        "duration",
      );
    }
    checkThresholds({ ...t, duration: input.duration }, input);
    return { duration: input.duration };
  }
  if (t.type !== "event") {
    const instead = t.type === "countdown" ? "; change duration instead" : "";
    throw new ApiError(
      422,
      `target_date can change only on event timers; this one is ${t.type}${instead}`,
      "target_date",
    );
  }
  if (state === "completed" || state === "stopped") {
    throw new ApiError(
      409,
      `target_date can change only until the event completes or is stopped; it is ${state} (reset it first)`,
      "target_date",
    );
  }
  if (t.ended) {
    throw new ApiError(
      409,
      "target_date can no longer change: the event reached it and counts on in overtime",
      "target_date",
    );
  }
  const target = parseTarget(input.target_date!, now);
  return {
    target_date: new Date(target).toISOString(),
    // As at creation: seconds from creation to the target.
    duration: Math.ceil((target - t.created_at) / 1000),
    // A zone the new date puts the event in already was not crossed.
    zones_from: Math.max(t.zones_from ?? t.created_at, position(t, now)),
  };
}

/** Thresholds kept or set must stay below a countdown's new duration (422 naming the field to change). */
function checkThresholds(t: Timer, input: RescheduleInput): void {
  const warn = input.warn_at !== undefined ? input.warn_at : t.warn_at ?? null;
  const danger = input.danger_at !== undefined ? input.danger_at : t.danger_at ?? null;
  const problem = thresholdProblem(t, warn, danger);
  if (!problem) return;
  if (input[problem.field as "warn_at" | "danger_at"] !== undefined || problem.message.includes("below warn_at")) {
    throw new ApiError(422, problem.message, problem.field);
  }
  const value = problem.field === "warn_at" ? warn : danger;
  throw new ApiError(
    422,
    `duration must be above ${problem.field} (${value} s), got ${t.duration}; lower or clear ${problem.field} ` +
      `in the same request`,
    "duration",
  );
}
