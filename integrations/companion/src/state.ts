/**
 * From a live snapshot (`GET /live/:id`, event `timer`) to what Companion shows at an instant:
 * the face is computed from the snapshot's instants and the server clock, never by counting
 * ticks, the same way the service's own pages compute theirs.
 */

export type TimerState =
  | "idle"
  | "running"
  | "paused"
  | "completed"
  | "stopped";
export type Zone = "normal" | "warning" | "danger" | "overtime";

/** The speaker's message as the timer object carries it. */
export interface Message {
  text: string;
  color: "white" | "green" | "yellow" | "red";
  flash: number;
  blackout: boolean;
}

/** The frame `GET /live/:id` sends as its `timer` event (the fields this module reads). */
export interface LiveSnapshot {
  timer: {
    timer_id: string;
    title: string | null;
    type: "countdown" | "event" | "interval";
    state: TimerState;
    duration: number | null;
    remaining_seconds: number | null;
    target_date?: string | null;
    work?: number | null;
    rest?: number | null;
    rounds?: number | null;
    warn_at?: number | null;
    danger_at?: number | null;
    overtime?: boolean;
    message?: Message | null;
  };
  /** Epoch ms of the server clock when the frame was sent. */
  server_now: number;
  /** Active milliseconds elapsed as of `server_now` (countdown and interval). */
  elapsed_ms: number;
}

/** What the timer shows at one server instant. */
export interface Face {
  state: TimerState;
  zone: Zone;
  /** Milliseconds the clock shows counting down: an interval's phase, otherwise the whole timer; 0 in overtime. */
  remaining_ms: number;
  /** Milliseconds past zero in overtime, else 0. */
  overtime_ms: number;
  /** Interval round (1-based), else null. */
  round: number | null;
}

function zoneOf(t: LiveSnapshot["timer"], leftMs: number): Zone {
  if (t.danger_at != null && leftMs <= t.danger_at * 1000) return "danger";
  if (t.warn_at != null && leftMs <= t.warn_at * 1000) return "warning";
  return "normal";
}

/** The face of `snap` at the server instant `serverNow`. */
export function faceAt(snap: LiveSnapshot, serverNow: number): Face {
  const t = snap.timer;
  let state = t.state;
  if (t.type === "event") {
    // An event counts to its target whether or not it was started.
    if (state === "idle") state = "running";
    const target = t.target_date ? Date.parse(t.target_date) : serverNow;
    const left = state === "completed"
      ? 0
      : state === "stopped"
      ? (t.remaining_seconds ?? 0) * 1000
      : target - serverNow;
    if (t.overtime && state === "running" && left <= 0) {
      return {
        state,
        zone: "overtime",
        remaining_ms: 0,
        overtime_ms: -left,
        round: null,
      };
    }
    if (state === "running" && left <= 0) state = "completed";
    const clamped = Math.max(0, left);
    return {
      state,
      zone: zoneOf(t, clamped),
      remaining_ms: clamped,
      overtime_ms: 0,
      round: null,
    };
  }
  const work = (t.work ?? 0) * 1000;
  const rest = (t.rest ?? 0) * 1000;
  const rounds = t.rounds ?? null;
  const total = t.type === "countdown" ? (t.duration ?? 0) * 1000 : rounds === null ? null : rounds * (work + rest);
  const ticking = state === "running";
  let elapsed = snap.elapsed_ms +
    (ticking ? Math.max(0, serverNow - snap.server_now) : 0);
  if (
    t.overtime && total !== null && elapsed >= total && state !== "completed" &&
    state !== "idle"
  ) {
    return {
      state,
      zone: "overtime",
      remaining_ms: 0,
      overtime_ms: elapsed - total,
      round: null,
    };
  }
  if (state === "completed" && total !== null) elapsed = total;
  if (total !== null && elapsed >= total) {
    elapsed = total;
    if (ticking) state = "completed";
  }
  if (t.type === "countdown") {
    const left = Math.max(0, (total ?? 0) - elapsed);
    return {
      state,
      zone: state === "idle" ? "normal" : zoneOf(t, left),
      remaining_ms: left,
      overtime_ms: 0,
      round: null,
    };
  }
  const cycle = Math.max(1, work + rest);
  if (state === "completed") {
    return {
      state,
      zone: "normal",
      remaining_ms: 0,
      overtime_ms: 0,
      round: rounds ?? Math.ceil(elapsed / cycle),
    };
  }
  const index = Math.floor(elapsed / cycle);
  const within = elapsed - index * cycle;
  const round = rounds === null ? index + 1 : Math.min(index + 1, rounds);
  const inWork = within < work;
  const left = inWork ? work - within : cycle - within;
  return {
    state,
    zone: inWork && state !== "idle" ? zoneOf(t, left) : "normal",
    remaining_ms: left,
    overtime_ms: 0,
    round,
  };
}

/** `05:07` under an hour, `1:05:07` under a day, `3d 02:05:07` from a day on. */
export function formatHms(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, "0");
  if (d > 0) return `${d}d ${two(h)}:${two(m)}:${two(s % 60)}`;
  if (h > 0) return `${h}:${two(m)}:${two(s % 60)}`;
  return `${two(m)}:${two(s % 60)}`;
}

/** The module's variables (ids as Companion shows them: `$(label:remaining_hms)`). */
export interface Variables {
  remaining_hms: string;
  remaining_seconds: number;
  zone: Zone | "";
  overtime_hms: string;
  title: string;
  round: number | "";
  [id: string]: string | number;
}

/** The module's boolean feedbacks. */
export interface Feedbacks {
  running: boolean;
  paused: boolean;
  warning: boolean;
  danger: boolean;
  overtime: boolean;
  message_shown: boolean;
  blackout: boolean;
  connected: boolean;
}

export const FEEDBACK_IDS = [
  "running",
  "paused",
  "warning",
  "danger",
  "overtime",
  "message_shown",
  "blackout",
  "connected",
] as const satisfies readonly (keyof Feedbacks)[];

/** Variables before any snapshot arrived. */
export const NO_VARIABLES: Variables = {
  remaining_hms: "--:--",
  remaining_seconds: 0,
  zone: "",
  overtime_hms: "00:00",
  title: "",
  round: "",
};

/** The variables of a face. Seconds count down rounded up (as the API's remaining_seconds), overtime up rounded down. */
export function variablesOf(snap: LiveSnapshot, face: Face): Variables {
  const left = Math.ceil(face.remaining_ms / 1000);
  return {
    remaining_hms: formatHms(left),
    remaining_seconds: left,
    zone: face.zone,
    overtime_hms: formatHms(Math.floor(face.overtime_ms / 1000)),
    title: snap.timer.title ?? "",
    round: face.round ?? "",
  };
}

/** The feedbacks of a face; `connected` is the stream's. */
export function feedbacksOf(
  snap: LiveSnapshot | null,
  face: Face | null,
  connected: boolean,
): Feedbacks {
  const message = snap?.timer.message ?? null;
  return {
    running: face?.state === "running",
    paused: face?.state === "paused",
    warning: face?.zone === "warning",
    danger: face?.zone === "danger",
    overtime: face?.zone === "overtime",
    message_shown: !!message && message.text.trim() !== "",
    blackout: !!message?.blackout,
    connected,
  };
}
