/**
 * What a timer face shows: the display maths and formatting shared by the server render and
 * the widget and viewer islands — the face of a snapshot at an instant (never by counting
 * ticks), the clock text, zone offsets and the event date. Pure and browser-safe: it imports
 * nothing. Kept apart from display.ts so the widget's bundle carries only this.
 */

export type TimerType = "countdown" | "event" | "interval";
export type TimerState = "idle" | "running" | "paused" | "completed" | "stopped";
export type Phase = "work" | "rest";
/** How close to its end the count is (the API's `zone`); overtime counts on past zero. */
export type Zone = "normal" | "warning" | "danger" | "overtime";
/** The cue played at warning, danger and zero (the API's timer `sound`). */
export type Sound = "none" | "beep" | "chime";

/** A message to the speaker (the API's timer `message`). */
export interface FaceMessage {
  text: string;
  color: "white" | "green" | "yellow" | "red";
  flash: number;
  blackout: boolean;
  set_at: string;
}

/** What a display computes from. JSON-only, so it travels as island props and over SSE. */
export interface Source {
  type: TimerType;
  state: TimerState;
  /** Active milliseconds a countdown or a finite interval runs; null when unbounded. */
  total_ms: number | null;
  /** Event: the target instant, epoch ms. */
  target: number | null;
  work_ms: number;
  rest_ms: number;
  /** Interval rounds; null means unlimited. */
  rounds: number | null;
  /** Active milliseconds elapsed as of `at` (countdown and interval). */
  elapsed_ms: number;
  /** The server instant (epoch ms) this snapshot describes. */
  at: number;
  /** Milliseconds left of an event timer that was stopped (it stops counting). */
  frozen_ms: number | null;
  /** Zone thresholds, milliseconds before the end (an interval's: of each work phase). */
  warn_ms?: number | null;
  danger_ms?: number | null;
  /** Counts on past zero (countdown and event). */
  overtime?: boolean;
  /** What the speaker's screen shows beside the timer. */
  message?: FaceMessage | null;
  sound?: Sound;
}

/** What a face shows at one instant. */
export interface Frame {
  state: TimerState;
  /** Milliseconds left of the whole timer; null for an unlimited interval. */
  remaining_ms: number | null;
  /** Milliseconds the big clock shows: an interval's phase, otherwise the whole timer. */
  shown_ms: number;
  /** Whole seconds the big clock shows (rounded up, as the API's remaining_seconds). */
  seconds: number;
  phase: Phase | null;
  round: number | null;
  rounds: number | null;
  /** Share of the countdown or interval phase done, 0…1; null for events. */
  progress: number | null;
  /** Milliseconds until what is shown changes by itself; null when it is frozen. */
  next_ms: number | null;
  zone: Zone;
}

/** The zone of `left` milliseconds before an end, by the source's thresholds. */
function zoneOf(src: Source, left: number): Zone {
  if (src.danger_ms != null && left <= src.danger_ms) return "danger";
  if (src.warn_ms != null && left <= src.warn_ms) return "warning";
  return "normal";
}

/** A frame past zero in overtime: the clock shows the seconds over, counting up. */
function overtimeFrame(state: TimerState, over: number, live: boolean): Frame {
  return {
    state,
    remaining_ms: 0,
    shown_ms: over,
    seconds: Math.floor(over / 1000),
    phase: null,
    round: null,
    rounds: null,
    progress: 1,
    next_ms: live ? 1000 - (over % 1000) : null,
    zone: "overtime",
  };
}

const secondsUp = (ms: number) => Math.max(0, Math.ceil(ms / 1000));
/** Milliseconds until ceil(ms / 1000) next changes. */
const untilNextSecond = (ms: number) => ms <= 0 ? null : ((Math.ceil(ms) - 1) % 1000) + 1;

/** The face of `src` at the server instant `serverNow`. */
export function frameAt(src: Source, serverNow: number): Frame {
  let state = src.state;
  const ticking = state === "running";
  if (src.type === "event") {
    // An event counts to its target whether or not it was started (start only records when):
    // a face never shows "not started" over a running count.
    if (state === "idle") state = "running";
    let left = state === "completed" ? 0 : state === "stopped" ? src.frozen_ms ?? 0 : (src.target ?? 0) - serverNow;
    if (src.overtime && (state === "running" || state === "stopped") && left <= 0) {
      return overtimeFrame(state, -left, state === "running");
    }
    if (state === "running" && left <= 0) state = "completed";
    left = Math.max(0, left);
    const counts = state !== "completed" && state !== "stopped";
    return {
      state,
      remaining_ms: left,
      shown_ms: left,
      seconds: secondsUp(left),
      phase: null,
      round: null,
      rounds: null,
      progress: null,
      next_ms: counts ? untilNextSecond(left) : null,
      zone: zoneOf(src, left),
    };
  }
  const total = src.total_ms;
  let elapsed = src.elapsed_ms + (ticking ? Math.max(0, serverNow - src.at) : 0);
  if (src.overtime && total !== null && elapsed >= total && state !== "completed" && state !== "idle") {
    return overtimeFrame(state, elapsed - total, ticking);
  }
  if (state === "completed" && total !== null) elapsed = total;
  if (total !== null && elapsed >= total) {
    elapsed = total;
    if (ticking) state = "completed";
  }
  const remaining = total === null ? null : Math.max(0, total - elapsed);
  const live = state === "running";
  if (src.type === "countdown") {
    const left = remaining ?? 0;
    return {
      state,
      remaining_ms: left,
      shown_ms: left,
      seconds: secondsUp(left),
      phase: null,
      round: null,
      rounds: null,
      progress: total ? elapsed / total : 1,
      next_ms: live ? untilNextSecond(left) : null,
      zone: state === "idle" ? "normal" : zoneOf(src, left),
    };
  }
  const work = src.work_ms;
  const cycle = Math.max(1, work + src.rest_ms);
  if (state === "completed") {
    return {
      state,
      remaining_ms: 0,
      shown_ms: 0,
      seconds: 0,
      phase: src.rest_ms > 0 ? "rest" : "work",
      round: src.rounds ?? Math.max(1, Math.ceil(elapsed / cycle)),
      rounds: src.rounds,
      progress: 1,
      next_ms: null,
      zone: "normal",
    };
  }
  const index = Math.floor(elapsed / cycle);
  const within = elapsed - index * cycle;
  const round = src.rounds === null ? index + 1 : Math.min(index + 1, src.rounds);
  const inWork = within < work;
  const phaseLen = inWork ? work : cycle - work;
  const left = inWork ? work - within : cycle - within;
  return {
    state,
    remaining_ms: remaining,
    shown_ms: left,
    seconds: secondsUp(left),
    phase: inWork ? "work" : "rest",
    round,
    rounds: src.rounds,
    progress: phaseLen > 0 ? 1 - left / phaseLen : 1,
    next_ms: live ? untilNextSecond(left) : null,
    zone: inWork && state !== "idle" ? zoneOf(src, left) : "normal",
  };
}

/** Whether two frames look the same on screen (re-render only when they differ). */
export function sameFace(a: Frame, b: Frame): boolean {
  return a.state === b.state && a.seconds === b.seconds && a.phase === b.phase && a.round === b.round &&
    a.zone === b.zone;
}

/** The snapshot `GET /live/:id` sends (see routes/live.ts publicSnapshot). */
export interface LiveSnapshot {
  timer: {
    timer_id: string;
    title: string | null;
    type: TimerType;
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
    overtime_seconds?: number;
    message?: FaceMessage | null;
    sound?: Sound;
  };
  server_now: number;
  ends_at: number | null;
  elapsed_ms: number;
  next_at: number | null;
}

/** A display source from a live snapshot. */
export function sourceFromSnapshot(s: LiveSnapshot): Source {
  const t = s.timer;
  const work = (t.work ?? 0) * 1000;
  const rest = (t.rest ?? 0) * 1000;
  const rounds = t.rounds ?? null;
  return {
    type: t.type,
    state: t.state,
    total_ms: t.type === "countdown"
      ? (t.duration ?? 0) * 1000
      : t.type === "interval" && rounds !== null
      ? rounds * (work + rest)
      : null,
    target: t.type === "event" && t.target_date ? Date.parse(t.target_date) : null,
    work_ms: work,
    rest_ms: rest,
    rounds,
    elapsed_ms: s.elapsed_ms,
    at: s.server_now,
    // A stopped event in overtime froze past zero: negative, as far past as it was.
    frozen_ms: t.type === "event" && t.state === "stopped"
      ? ((t.remaining_seconds ?? 0) || -(t.overtime_seconds ?? 0)) * 1000
      : null,
    warn_ms: t.warn_at == null ? null : t.warn_at * 1000,
    danger_ms: t.danger_at == null ? null : t.danger_at * 1000,
    overtime: t.overtime ?? false,
    message: t.message ?? null,
    sound: t.sound ?? "none",
  };
}

/** The client instant at which `src` ends, given the clock offset (server − client); null if not running to an end. */
export function localDeadline(src: Source, offset: number): number | null {
  if (src.type === "event") {
    return (src.state === "running" || src.state === "idle") && src.target !== null ? src.target - offset : null;
  }
  if (src.state !== "running") return null;
  if (src.total_ms === null) return null;
  return src.at - offset + (src.total_ms - src.elapsed_ms);
}

// ── formatting ────────────────────────────────────────────────────────────────────────────

/** Whole days, hours, minutes and seconds of a number of seconds. */
export function splitSeconds(total: number): { d: number; h: number; m: number; s: number } {
  const t = Math.max(0, Math.floor(total));
  return { d: Math.floor(t / 86400), h: Math.floor((t % 86400) / 3600), m: Math.floor((t % 3600) / 60), s: t % 60 };
}

const nfCache = new Map<string, Intl.NumberFormat>();
function nf(lang: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = lang + JSON.stringify(opts);
  let f = nfCache.get(k);
  if (!f) nfCache.set(k, f = new Intl.NumberFormat(lang, opts));
  return f;
}

/**
 * The clock as fits the value: `05:07` under an hour, `1:05:07` under a day, and from a day
 * on a separate days part (`3 days` in English, `3天` in Chinese) with `02:05:07`.
 */
export function clockParts(totalSeconds: number, lang: string): { days: string | null; hms: string } {
  const { d, h, m, s } = splitSeconds(totalSeconds);
  const two = nf(lang, { minimumIntegerDigits: 2, useGrouping: false });
  const one = nf(lang, { useGrouping: false });
  if (d > 0) {
    const days = nf(lang, { style: "unit", unit: "day", unitDisplay: "short" }).format(d);
    return { days, hms: `${two.format(h)}:${two.format(m)}:${two.format(s)}` };
  }
  if (h > 0) return { days: null, hms: `${one.format(h)}:${two.format(m)}:${two.format(s)}` };
  return { days: null, hms: `${two.format(m)}:${two.format(s)}` };
}

/**
 * The width of a clock text in em of a bold system font with tabular digits, a little
 * generous: the CSS sizes the clock from it, so the server's first render already fits.
 */
export function textEm(text: string): number {
  let em = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    em += /[0-9]/.test(ch) ? 0.7 : ch === ":" ? 0.4 : /\s/.test(ch) ? 0.32 : c >= 0x1100 ? 1.02 : 0.72;
  }
  return Math.round(em * 100) / 100;
}

/** The clock as one string (`3 days 02:05:07`). */
export function formatClock(totalSeconds: number, lang: string): string {
  const { days, hms } = clockParts(totalSeconds, lang);
  return days ? `${days} ${hms}` : hms;
}

/** A duration in words for screen readers: "1 hour, 5 minutes", "30 seconds". */
export function spokenDuration(totalSeconds: number, lang: string): string {
  const { d, h, m, s } = splitSeconds(totalSeconds);
  const parts: string[] = [];
  const unit = (n: number, u: string) => nf(lang, { style: "unit", unit: u, unitDisplay: "long" }).format(n);
  if (d) parts.push(unit(d, "day"));
  if (h) parts.push(unit(h, "hour"));
  if (m) parts.push(unit(m, "minute"));
  if (s || parts.length === 0) parts.push(unit(s, "second"));
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "unit" }).format(parts);
  } catch {
    return parts.join(" ");
  }
}

const MARKS = [10, 30, 60, 120, 300, 600, 900, 1800, 3600];

/**
 * The milestone bucket of a remaining time: it changes only at 10 s, 30 s, 1, 2, 5, 10, 15,
 * 30 min, each whole hour within a day and each whole day, so announcements stay sparse.
 * At the instant a bucket is entered, the remaining time equals the bucket's value.
 */
export function milestone(seconds: number): number {
  if (seconds <= 0) return 0;
  for (const m of MARKS) if (seconds <= m) return m;
  if (seconds <= 86400) return Math.ceil(seconds / 3600) * 3600;
  return Math.ceil(seconds / 86400) * 86400;
}

// ── time zones ────────────────────────────────────────────────────────────────────────────

const zoneFmt = new Map<string, Intl.DateTimeFormat>();
/** Wall-clock fields (year, month, day, hour, minute, second) of instant `ms` in `tz`. */
export function wallFields(ms: number, tz: string): Record<string, number> {
  let f = zoneFmt.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    // Case variants of a name are all valid, so bound the cache rather than trust input.
    if (zoneFmt.size >= 512) zoneFmt.clear();
    zoneFmt.set(tz, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  p.hour %= 24;
  return p;
}

/** Date.UTC for every year: Date.UTC reads years 0–99 as 1900–1999. */
export function utc(y: number, mo0: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo0, d);
  return t.setUTCHours(h, mi, s, ms);
}

/** Offset of `tz` from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
export function zoneOffset(ms: number, tz: string): number {
  const p = wallFields(ms, tz);
  const asUtc = utc(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** An event's target as people in its zone read it; the time is left out when it is midnight there. */
export function formatTargetDate(ms: number, tz: string, lang: string): string {
  const local = new Date(ms + zoneOffset(ms, tz));
  const midnight = local.getUTCHours() === 0 && local.getUTCMinutes() === 0 && local.getUTCSeconds() === 0;
  const opts: Intl.DateTimeFormatOptions = midnight
    ? { timeZone: tz, year: "numeric", month: "long", day: "numeric", weekday: "short" }
    : {
      timeZone: tz,
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short",
    };
  const text = new Intl.DateTimeFormat(lang, opts).format(ms);
  return midnight && tz !== "UTC" ? `${text} (${tz.replaceAll("_", " ")})` : midnight ? `${text} (UTC)` : text;
}

/** Fills `{name}` placeholders of a text. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => k in values ? String(values[k]) : m);
}
