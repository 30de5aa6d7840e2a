/**
 * The widget's host-page API, pure part: what the widget tells its parent page
 * (`{source: "timer-widget", type, timer_id, …}`) when what it shows changes, and the commands a
 * parameter-only widget takes from it (`{source: "timer-host", command}`). See docs/guides/embed-api.md.
 */
import { frameAt, type Source } from "../lib/face.ts";

export type Zone = "normal" | "warning" | "danger" | "overtime";
export const ZONES: readonly string[] = ["normal", "warning", "danger", "overtime"];

/** What the widget reports, read after each render. */
export interface Reported {
  state: string;
  zone: Zone;
  /** Milliseconds left of the whole timer (null: an unlimited interval). */
  remaining_ms: number | null;
  /** When it reaches zero on the server's clock (running only), else null. */
  ends_at: number | null;
  round: number | null;
  rounds: number | null;
  type: string;
  server_now: number;
}

export type WidgetMessage =
  & { source: "timer-widget"; timer_id: string | null }
  & (
    | { type: "ready" }
    | { type: "state"; state: string; zone: Zone; remaining_ms: number | null; server_now: number }
    | { type: "zone"; zone: Zone }
    | { type: "completed"; server_now: number }
    | { type: "round_end"; round: number }
    | { type: "resize"; width: number; height: number }
  );

/** A move of the end by less than this is the clock estimate settling, not a change. */
const SLACK_MS = 250;
/** At most this many round ends are told at once (a tab woken after many rounds). */
const MAX_ROUND_ENDS = 10;

/** The messages that tell the parent how `prev` became `next` (none when nothing it cares about changed). */
export function hostMessages(prev: Reported | null, next: Reported, timerId: string | null): WidgetMessage[] {
  const base = { source: "timer-widget" as const, timer_id: timerId };
  const state = {
    ...base,
    type: "state" as const,
    state: next.state,
    zone: next.zone,
    remaining_ms: next.remaining_ms === null ? null : Math.round(next.remaining_ms),
    server_now: Math.round(next.server_now),
  };
  if (!prev) return [state];
  const out: WidgetMessage[] = [];
  const ran = prev.state === "running";
  if (ran && next.type === "interval" && prev.round !== null && next.round !== null) {
    // The last round ends with the timer; earlier ones when the next begins.
    const last = next.state === "completed" ? next.round + 1 : next.round;
    for (let r = Math.max(prev.round, last - MAX_ROUND_ENDS); r < last; r++) {
      out.push({ ...base, type: "round_end", round: r });
    }
  }
  const moved = next.ends_at !== null || prev.ends_at !== null
    ? next.ends_at === null || prev.ends_at === null || Math.abs(next.ends_at - prev.ends_at) > SLACK_MS
    : (prev.remaining_ms === null) !== (next.remaining_ms === null) ||
      (prev.remaining_ms !== null && Math.abs(prev.remaining_ms - next.remaining_ms!) > SLACK_MS);
  if (prev.state !== next.state || prev.zone !== next.zone || moved) out.push(state);
  if (prev.zone !== next.zone) out.push({ ...base, type: "zone", zone: next.zone });
  const ended = (ran && next.state === "completed") || (prev.zone !== "overtime" && next.zone === "overtime");
  if (ended) out.push({ ...base, type: "completed", server_now: state.server_now });
  return out;
}

export const COMMANDS = ["start", "pause", "resume", "reset"] as const;
export type HostCommand = typeof COMMANDS[number];

/** The command in a message from the host page, or null when it is none. */
export function commandOf(data: unknown): HostCommand | null {
  if (typeof data !== "object" || data === null) return null;
  const m = data as { source?: unknown; command?: unknown };
  return m.source === "timer-host" && (COMMANDS as readonly unknown[]).includes(m.command)
    ? m.command as HostCommand
    : null;
}

/**
 * A parameter-only timer after `command` at server instant `now`, as the API's state machine
 * allows (start from idle, pause while running, resume while paused, reset from any state), or
 * null when the command does not apply. An event counts to a fixed instant: nothing applies.
 */
export function applyCommand(src: Source, command: HostCommand, now: number): Source | null {
  if (src.type === "event") return null;
  const f = frameAt(src, now);
  const elapsed = src.total_ms !== null && f.remaining_ms !== null
    ? src.total_ms - f.remaining_ms
    : src.elapsed_ms + (src.state === "running" ? Math.max(0, now - src.at) : 0);
  switch (command) {
    case "start":
      return f.state === "idle" ? { ...src, state: "running", elapsed_ms: 0, at: now } : null;
    case "pause":
      return f.state === "running" ? { ...src, state: "paused", elapsed_ms: elapsed, at: now } : null;
    case "resume":
      return f.state === "paused" ? { ...src, state: "running", at: now } : null;
    case "reset":
      return { ...src, state: "idle", elapsed_ms: 0, at: now };
  }
}
