/**
 * A timer as stored and what it emits: the record, its enumerations and its events. Types and
 * constants only, importing nothing: the store (lib/kv) and the pages read them without the model.
 */
export const TIMER_TYPES = ["countdown", "event", "interval"] as const;
export type TimerType = typeof TIMER_TYPES[number];
export const TIMER_STATES = ["idle", "running", "paused", "completed", "stopped"] as const;
export type TimerState = typeof TIMER_STATES[number];
export const ACTIONS = ["start", "pause", "resume", "reset", "stop"] as const;
/** The five state actions, and `adjust` (show.ts), which moves a running deadline. */
export type Action = typeof ACTIONS[number] | "adjust";
export const THEMES = ["light", "dark", "auto"] as const;
/** The theme of a timer created without one, and of a widget without the parameter: they look alike. */
export const DEFAULT_THEME = "dark";
export type Theme = typeof THEMES[number];

export type EventType =
  | "timer.started"
  | "timer.paused"
  | "timer.resumed"
  | "timer.reset"
  | "timer.stopped"
  | "timer.completed"
  | "interval.round_end"
  | "interval.completed"
  | "timer.warning"
  | "timer.danger"
  | "timer.adjusted";

/** A timer as stored. Instants are epoch milliseconds. */
export interface Timer {
  id: string;
  account_id: string;
  type: TimerType;
  title: string | null;
  theme: Theme;
  color: string;
  webhook_url: string | null;
  /** Seconds: countdown as given; event from creation to target; interval rounds × cycle (null if unlimited). */
  duration: number | null;
  target_date: string | null;
  work: number | null;
  rest: number | null;
  rounds: number | null;
  control_token_hash: string;
  state: TimerState;
  /** First start since creation or the last reset. */
  started_at: number | null;
  /** Start of the current running stretch (null unless running). */
  resumed_at: number | null;
  /** Active milliseconds accumulated before `resumed_at`. */
  elapsed_ms: number;
  /** When a stopped event timer stopped counting. */
  stopped_at: number | null;
  completed_at: number | null;
  /** Interval rounds whose `interval.round_end` has been emitted. */
  rounds_done: number;
  created_at: number;
  expires_at: number;
  /** Bumped by every change of state; queue messages carry it to detect staleness. */
  version: number;
  /**
   * The API's writes that last changed the record, newest last (random, at most WRITE_IDS_KEPT of
   * lib/ids.ts; the clock's changes keep them): a commit refused that landed all the same (its
   * answer lost, the call made again) is told by its own, even after another write built on it.
   */
  write_ids?: string[];
  /** The due-index instant the store wrote for this timer (kept by the store). */
  due_at: number | null;
  /** When the store last committed a change (kept by the store; for measuring lateness). */
  changed_at?: number;
  /** Show features (show.ts); absent on timers stored before them, which behave as without them. */
  warn_at?: number | null;
  danger_at?: number | null;
  overtime?: boolean;
  /** Net milliseconds added by adjust since the last start or reset. */
  added_ms?: number;
  /** Position (active ms; an event's epoch ms) up to which zone crossings are done: none at or before it is sent. */
  zones_from?: number;
  /** An overtime timer past zero has sent its completion. */
  ended?: boolean;
  message?: Message | null;
  /** The cue the pages play at warning, danger and zero (absent: none). */
  sound?: "none" | "beep" | "chime";
  /** The rundown this timer is an item of (a hint: the rundown's item list decides). */
  rundown_id?: string | null;
  /** The id of its latest delivery: the next one born waits for it (Delivery.after). */
  last_delivery?: string;
}

/** A message to the speaker, shown on the viewer (display state: no deadline, no webhook). */
export interface Message {
  text: string;
  color: "white" | "green" | "yellow" | "red";
  flash: number;
  blackout: boolean;
  /** When it was set, ISO 8601 (pages flash and announce a message once, from then). */
  set_at: string;
}

/** What defines a timer; everything else of a new one is at rest. */
export type TimerFields =
  & Pick<Timer, "id" | "account_id" | "type" | "created_at" | "expires_at" | "control_token_hash">
  & Partial<Timer>;

/** An event a change emits, before it becomes a webhook payload. */
export interface TimerEvent {
  type: EventType;
  /** When it happened (for clock events: the deadline, not when it was noticed). */
  at: number;
  data: Record<string, unknown>;
}
