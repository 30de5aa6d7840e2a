/**
 * Time-zone arithmetic on IANA zone names via Intl: local dates of instants, the instant a
 * local date begins, and countdowns to it.
 */
import { wallFields, zoneOffset } from "../display.ts";
import { isoToUtcMs } from "./dates.ts";

/** Whole-unit breakdown of a countdown; `total_seconds` equals the sum of the parts. */
export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  total_seconds: number;
}

/** `YYYY-MM-DD` of instant `ms` in `tz`. */
export function localDate(tz: string, ms: number): string {
  const w = wallFields(ms, tz);
  return `${String(w.year).padStart(4, "0")}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/** The first instant of local date `iso` in `tz` (00:00, or later if midnight is skipped). */
export function startOfDay(iso: string, tz: string): number {
  const wallMidnight = isoToUtcMs(iso);
  // Two passes settle on the offset in force at local midnight in all ordinary cases.
  let t = wallMidnight - zoneOffset(wallMidnight, tz);
  t = wallMidnight - zoneOffset(t, tz);
  if (localDate(tz, t) === iso && localDate(tz, t - 1000) < iso) {
    const w = wallFields(t, tz);
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
