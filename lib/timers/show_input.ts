/** Rules of the show inputs beyond their schemas: thresholds against what they count down, adjust, messages. */
import { ApiError } from "../errors.ts";
import type { Message, Timer } from "./model.ts";
import { position } from "./show.ts";
import { LIMITS, ruleMessage, thresholdProblem } from "./validation.ts";

interface ShowInput {
  warn_at?: number | null;
  danger_at?: number | null;
  overtime?: boolean;
  sound?: Timer["sound"];
}

function check(t: Pick<Timer, "type" | "duration" | "work">, warn: number | null, danger: number | null): void {
  const problem = thresholdProblem(t, warn, danger);
  if (problem) throw new ApiError(422, problem.message, problem.field);
}

/** The stored show fields of a new timer (none when it uses none, so it is stored as before). */
export function showFields(input: ShowInput, t: Pick<Timer, "type" | "duration" | "work">): Partial<Timer> {
  const warn = input.warn_at ?? null;
  const danger = input.danger_at ?? null;
  check(t, warn, danger);
  return {
    ...(warn !== null && { warn_at: warn }),
    ...(danger !== null && { danger_at: danger }),
    ...(input.overtime && { overtime: true }),
    ...(input.sound && input.sound !== "none" && { sound: input.sound }),
  };
}

/**
 * The show fields a PATCH changes. New thresholds count from where the timer is now: one already
 * behind it was not crossed.
 */
export function showUpdate(t: Timer, input: ShowInput, now: number): Partial<Timer> {
  const out: Partial<Timer> = input.sound === undefined ? {} : { sound: input.sound };
  if (input.warn_at === undefined && input.danger_at === undefined && input.overtime === undefined) return out;
  const warn = input.warn_at !== undefined ? input.warn_at : t.warn_at ?? null;
  const danger = input.danger_at !== undefined ? input.danger_at : t.danger_at ?? null;
  check(t, warn, danger);
  Object.assign(out, { warn_at: warn, danger_at: danger });
  if (input.overtime !== undefined) {
    if (t.type === "interval") {
      throw new ApiError(422, "overtime applies only to countdown and event timers, not to interval", "overtime");
    }
    if (t.ended && !input.overtime && t.state !== "completed" && t.state !== "idle") {
      throw new ApiError(
        409,
        "cannot turn overtime off while the timer counts past zero; stop or reset it first",
        "overtime",
      );
    }
    out.overtime = input.overtime;
  }
  if (warn !== (t.warn_at ?? null) || danger !== (t.danger_at ?? null)) out.zones_from = position(t, now);
  return out;
}

/** 422 unless `seconds` is a non-zero whole number within the adjust limits. */
export function checkAdjust(seconds: unknown): void {
  const ok = Number.isInteger(seconds) && seconds !== 0 && (seconds as number) >= LIMITS.adjust.min &&
    (seconds as number) <= LIMITS.adjust.max;
  if (!ok) throw new ApiError(422, ruleMessage("seconds", seconds), "seconds");
}

/** The message to store; text may be left out only for a blackout. */
export function newMessage(
  input: { text?: string; color?: Message["color"]; flash?: number; blackout?: boolean },
  now: number,
): Message {
  const text = input.text ?? "";
  const blackout = input.blackout ?? false;
  if (!text.trim() && !blackout) {
    throw new ApiError(422, "text is required unless blackout is true: a string of 1 to 200 characters", "text");
  }
  return {
    text,
    color: input.color ?? "white",
    flash: input.flash ?? 0,
    blackout,
    set_at: new Date(now).toISOString(),
  };
}
