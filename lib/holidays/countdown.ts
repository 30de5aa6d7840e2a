/**
 * Time-zone arithmetic on IANA zone names via Intl: local dates of instants, the instant a
 * local date begins, and countdowns to it.
 */
import { isoToUtcMs } from "./dates.ts";

/** Whole-unit breakdown of a countdown; `total_seconds` equals the sum of the parts. */
export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  total_seconds: number;
}

const MAX_CACHED_ZONES = 512;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
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
    if (formatters.size >= MAX_CACHED_ZONES) formatters.clear();
    formatters.set(tz, f);
  }
  return f;
}

/** Wall-clock fields of instant `ms` in `tz`. */
function wallClock(tz: string, ms: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(ms)) {
    if (p.type !== "literal") out[p.type] = Number(p.value);
  }
  return out;
}

/** `YYYY-MM-DD` of instant `ms` in `tz`. */
export function localDate(tz: string, ms: number): string {
  const w = wallClock(tz, ms);
  return `${String(w.year).padStart(4, "0")}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/** Offset of `tz` from UTC at instant `ms` (wall clock minus UTC), in ms. */
function offsetMs(tz: string, ms: number): number {
  const w = wallClock(tz, ms);
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The first instant of local date `iso` in `tz` (00:00, or later if midnight is skipped). */
export function startOfDay(iso: string, tz: string): number {
  const wallMidnight = isoToUtcMs(iso);
  // Two passes settle on the offset in force at local midnight in all ordinary cases.
  let t = wallMidnight - offsetMs(tz, wallMidnight);
  t = wallMidnight - offsetMs(tz, t);
  if (localDate(tz, t) === iso && localDate(tz, t - 1000) < iso) {
    const w = wallClock(tz, t);
    if (w.hour === 0 && w.minute === 0 && w.second === 0) return t;
  }
  // A DST gap or repeat at midnight: search for the first second whose local date is `iso`.
  let lo = wallMidnight - 30 * 3_600_000;
  let hi = wallMidnight + 30 * 3_600_000;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (localDate(tz, mid) >= iso) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Splits a non-negative second count into days/hours/minutes/seconds. */
export function breakdown(totalSeconds: number): Remaining {
  const t = Math.max(0, totalSeconds);
  return {
    days: Math.floor(t / 86_400),
    hours: Math.floor((t % 86_400) / 3_600),
    minutes: Math.floor((t % 3_600) / 60),
    seconds: t % 60,
    total_seconds: t,
  };
}
