/**
 * Display maths shared by the server render and the islands: what a timer face shows at an
 * instant, computed from a deadline-style snapshot (never by counting ticks). Pure and
 * browser-safe: it imports nothing, so islands can bundle it without server modules.
 */

export type TimerType = "countdown" | "event" | "interval";
export type TimerState = "idle" | "running" | "paused" | "completed" | "stopped";
export type Action = "start" | "pause" | "resume" | "reset" | "stop";
export type Phase = "work" | "rest";

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
    };
  }
  const total = src.total_ms;
  let elapsed = src.elapsed_ms + (ticking ? Math.max(0, serverNow - src.at) : 0);
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
  };
}

/** Whether two frames look the same on screen (re-render only when they differ). */
export function sameFace(a: Frame, b: Frame): boolean {
  return a.state === b.state && a.seconds === b.seconds && a.phase === b.phase && a.round === b.round;
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
    frozen_ms: t.type === "event" && t.state === "stopped" ? (t.remaining_seconds ?? 0) * 1000 : null,
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

/** Actions the control page offers in a state (DECISIONS.md's table; events cannot pause). */
export function validActions(type: TimerType, state: TimerState): Action[] {
  switch (state) {
    case "idle":
      return ["start", "reset"];
    case "running":
      return type === "event" ? ["stop", "reset"] : ["pause", "stop", "reset"];
    case "paused":
      return ["resume", "stop", "reset"];
    default:
      return ["reset"];
  }
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

/** Whether `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

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

/** Offset of `tz` from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
export function zoneOffset(ms: number, tz: string): number {
  const p = wallFields(ms, tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant of a wall-clock time in `tz` (a time skipped by a DST change moves forward). */
export function wallTimeToEpoch(
  wall: { y: number; mo: number; d: number; h: number; mi: number; s: number; ms?: number },
  tz: string,
): number {
  const guess = Date.UTC(wall.y, wall.mo - 1, wall.d, wall.h, wall.mi, wall.s, wall.ms ?? 0);
  const first = guess - zoneOffset(guess, tz);
  const second = guess - zoneOffset(first, tz);
  if (second === first) return first;
  // On a fall-back day east of UTC the guesses straddle the change and only one reads as the
  // wall time (00:00 in Adelaide on 2026-04-05); in a gap neither does, and the later moves forward.
  const reads = [first, second].filter((t) => t + zoneOffset(t, tz) === guess);
  return reads.length === 1 ? reads[0] : Math.max(first, second);
}

const TARGET = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 target date as an instant: with `Z` or an offset it is absolute; without one
 * (`2026-12-31`, `2026-12-31T18:00`) it is a wall-clock time in `tz`. Null when invalid.
 */
export function parseTargetDate(raw: string, tz: string): number | null {
  const m = TARGET.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", off] = m;
  const wall = {
    y: +y,
    mo: +mo,
    d: +d,
    h: +h,
    mi: +mi,
    s: +s,
    ms: Math.floor(Number(`0.${frac || "0"}`) * 1000),
  };
  if (wall.mo < 1 || wall.mo > 12 || wall.h > 23 || wall.mi > 59 || wall.s > 59) return null;
  const check = new Date(Date.UTC(wall.y, wall.mo - 1, wall.d));
  if (check.getUTCDate() !== wall.d || check.getUTCMonth() !== wall.mo - 1) return null;
  if (off) {
    const sign = off[0] === "-" ? -1 : 1;
    const digits = off.toUpperCase() === "Z" ? "0000" : off.slice(1).replace(":", "");
    const offMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    return Date.UTC(wall.y, wall.mo - 1, wall.d, wall.h, wall.mi, wall.s, wall.ms) - offMs;
  }
  return wallTimeToEpoch(wall, tz);
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

// ── colours and embedding ─────────────────────────────────────────────────────────────────

export const DEFAULT_COLOR = "6C63FF";
export const HEX_COLOR = /^[0-9a-f]{6}$/i;

function luminance(hex: string): number {
  const c = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/** Black or white, whichever reads better on the colour `hex` (6 digits, no `#`). */
export function textOn(hex: string): "#000000" | "#FFFFFF" {
  const l = luminance(HEX_COLOR.test(hex) ? hex : DEFAULT_COLOR);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#FFFFFF";
}

/** The embed size limits of SPEC.md: width 100…600 px, height 200…600 px. */
export const EMBED = { minW: 100, minH: 200, maxW: 600, maxH: 600, w: 320, h: 240 } as const;

/** Clamps an iframe size into the supported range (non-numbers take the default). */
export function clampEmbedSize(w: unknown, h: unknown): { width: number; height: number } {
  const fit = (v: unknown, min: number, max: number, def: number) => {
    const n = typeof v === "number" ? v : Number(v);
    return Number.isFinite(n) && String(v).trim() !== "" ? Math.min(max, Math.max(min, Math.round(n))) : def;
  };
  return { width: fit(w, EMBED.minW, EMBED.maxW, EMBED.w), height: fit(h, EMBED.minH, EMBED.maxH, EMBED.h) };
}

/** Escapes text for an HTML attribute or element. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** The iframe snippet of SPEC.md: widget URL as src, size in style, lazy loading, a title. */
export function embedSnippet(src: string, size: { width: number; height: number }, title: string): string {
  const { width, height } = clampEmbedSize(size.width, size.height);
  return `<iframe src="${escapeHtml(src)}" style="width:${width}px;height:${height}px;border:0" loading="lazy" title="${
    escapeHtml(title)
  }"></iframe>`;
}

/** Fills `{name}` placeholders of a text. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => k in values ? String(values[k]) : m);
}

// ── widget parameters ─────────────────────────────────────────────────────────────────────

/** The widget's parameter defaults (SPEC.md: they differ from the API's). */
export const WIDGET_DEFAULTS = {
  type: "countdown" as TimerType,
  timezone: "UTC",
  work: 20,
  rest: 10,
  rounds: 8,
  theme: "dark",
  primary_color: DEFAULT_COLOR,
  lang: "en",
  show_title: true,
  show_date: true,
  alarm: true,
  show_brand: true,
};

export interface WidgetOptions {
  id?: string | null;
  type: TimerType;
  title?: string;
  duration?: number;
  target_date?: string;
  timezone?: string;
  work?: number;
  rest?: number;
  rounds?: number;
  theme?: string;
  primary_color?: string;
  lang?: string;
  show_title?: boolean;
  show_date?: boolean;
  alarm?: boolean;
  show_brand?: boolean;
}

/** The /widget URL of some options, leaving out every value that is the default. */
export function widgetUrl(siteUrl: string, o: WidgetOptions): string {
  const d = WIDGET_DEFAULTS;
  const q = new URLSearchParams();
  const put = (k: string, v: unknown, def: unknown) => {
    if (v !== undefined && v !== null && v !== "" && v !== def) q.set(k, String(v));
  };
  if (o.id) {
    q.set("id", o.id);
  } else {
    put("type", o.type, d.type);
    if (o.type === "countdown") put("duration", o.duration, undefined);
    if (o.type === "event") {
      put("target_date", o.target_date, undefined);
      put("timezone", o.timezone, d.timezone);
    }
    if (o.type === "interval") {
      put("work", o.work, d.work);
      put("rest", o.rest, d.rest);
      put("rounds", o.rounds, d.rounds);
    }
  }
  put("title", o.title?.trim(), undefined);
  put("theme", o.theme, d.theme);
  put("primary_color", o.primary_color?.toUpperCase(), d.primary_color);
  put("lang", o.lang, d.lang);
  const flag = (k: string, v: boolean | undefined) => v === false && q.set(k, "0");
  flag("show_title", o.show_title);
  if (o.id || o.type === "event") flag("show_date", o.show_date);
  flag("alarm", o.alarm);
  flag("show_brand", o.show_brand);
  const qs = q.toString();
  return `${siteUrl}/widget${qs ? `?${qs}` : ""}`;
}
