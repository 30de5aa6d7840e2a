/**
 * Display helpers shared by the server and the islands: everything of face.ts (re-exported),
 * plus the control page's actions, time-zone checks and parsing, colours, embed snippets and
 * widget URLs. Pure and browser-safe: it imports only face.ts, so islands can bundle it.
 */
import { type TimerState, type TimerType, utc, zoneOffset } from "./face.ts";

export * from "./face.ts";

export type Action = "start" | "pause" | "resume" | "reset" | "stop";

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

/** The instant of a wall-clock time in `tz` (a time skipped by a DST change moves forward). */
export function wallTimeToEpoch(
  wall: { y: number; mo: number; d: number; h: number; mi: number; s: number; ms?: number },
  tz: string,
): number {
  const guess = utc(wall.y, wall.mo - 1, wall.d, wall.h, wall.mi, wall.s, wall.ms ?? 0);
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
  const check = new Date(utc(wall.y, wall.mo - 1, wall.d));
  if (check.getUTCDate() !== wall.d || check.getUTCMonth() !== wall.mo - 1) return null;
  if (off) {
    const sign = off[0] === "-" ? -1 : 1;
    const digits = off.toUpperCase() === "Z" ? "0000" : off.slice(1).replace(":", "");
    const offMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    return utc(wall.y, wall.mo - 1, wall.d, wall.h, wall.mi, wall.s, wall.ms) - offMs;
  }
  return wallTimeToEpoch(wall, tz);
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
/** Embed sizes the widget lays out (a badge from 80×40 up to 600×600) and the builder's default. */
export const EMBED = { minW: 80, minH: 40, maxW: 600, maxH: 600, w: 320, h: 240 } as const;

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

// ── widget parameters ─────────────────────────────────────────────────────────────────────

/** The widget's parameter defaults; its theme is the API's default too (a widget of parameters and a timer look alike). */
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
