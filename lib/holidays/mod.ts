/**
 * Public holidays and events by region, with countdowns in any IANA time zone.
 *
 * Lists (one per region and year, 1970–2100, in date order, computed once and cached):
 * - Every entry is one holiday on its own calendar date, with an English `name` and a
 *   kebab-case `slug` that is stable and unique within the list.
 * - Weekday stand-ins: when a holiday falls on a weekend (or on another holiday) and a
 *   weekday is given off instead, that day is a separate entry with `observed: true`, named
 *   "<holiday> (observed)" ("(substitute day)" in the UK, "(substitute holiday)" in Japan) and
 *   slugged `<holiday-slug>-observed`. The holiday's own date stays in the list too, so
 *   countdowns to the day itself work. A stand-in belongs to the year it falls in (US and TW
 *   31 Dec stand-ins for a Saturday 1 Jan appear in the earlier year).
 * - Multi-day breaks (CN, TW): one entry per holiday on its official date (Spring Festival /
 *   Lunar New Year on 正月初一, National Day on 1 Oct…), never one entry per day off. The
 *   days off are in `days_off`: every date of the consecutive break, weekends included. CN
 *   entries carry the State Council's make-up working days in `workdays` when its notice is on
 *   file; `provisional: true` marks days off computed from the law because the official
 *   calendar for that year is not on file yet. TW single-day holidays also get `observed`
 *   entries for their make-up days; CN and TW Lunar New Year make-up days are only in
 *   `days_off`.
 * - If two entries would share a slug, the later one gets `-2`, `-3`… (none do in 2026/2027).
 *
 * Regions: US federal holidays (OPM); UK = England & Wales bank holidays (gov.uk); JP national
 * holidays incl. substitute and citizens' holidays (Cabinet Office); AU the seven national
 * holidays (New Year's Day, Australia Day, Good Friday, Easter Monday, Anzac Day, Christmas,
 * Boxing Day; Easter Saturday/Sunday and the King's Birthday vary by state, and Anzac Day
 * stand-ins too, so they are left out); CN the seven statutory holidays of all citizens; TW the
 * national holidays of the DGPA calendar; GLOBAL a short list of international days (see
 * lib/holidays/global.ts). Sources and corrections to date-holidays: lib/holidays/official.ts
 * and lib/holidays/corrections.ts. Every other country date-holidays knows is served as the
 * library has it (lib/holidays/countries.ts, `sourceOf` "date-holidays").
 */
import zones from "countries-and-timezones";
import { cnHolidays } from "./cn.ts";
import { countryHolidays, isLibraryCountry } from "./countries.ts";
import { breakdown, localDate, type Remaining, startOfDay } from "./countdown.ts";
import { globalHolidays } from "./global.ts";
import { twHolidays } from "./tw.ts";
import { upstreamHolidays } from "./upstream.ts";

/** The regions curated against their official calendars. */
export const REGIONS = ["US", "CN", "TW", "UK", "JP", "AU"] as const;

/** A curated region, "GLOBAL" for the international list, or another country's ISO 3166 code (date-holidays). */
export type Region = typeof REGIONS[number] | "GLOBAL" | (string & Record<never, never>);

/** Where a region's list comes from: checked by hand ("curated") or as date-holidays has it. */
export type Source = "curated" | "date-holidays";

/** The list a region code names (upper case; GB is UK's), or null when none. */
export function regionOf(code: string): Region | null {
  const up = code.toUpperCase();
  if (up === "GB") return "UK";
  if (up === "GLOBAL" || (REGIONS as readonly string[]).includes(up) || isLibraryCountry(up)) return up;
  return null;
}

export function sourceOf(region: Region): Source {
  return region === "GLOBAL" || (REGIONS as readonly string[]).includes(region) ? "curated" : "date-holidays";
}

/** One public holiday or event. Optional fields are absent rather than false/empty. */
export interface Holiday {
  /** English display name. */
  name: string;
  /** URL-safe kebab-case id, stable across years and unique within one list. */
  slug: string;
  /** Calendar date, `YYYY-MM-DD`. */
  date: string;
  /** A weekday given off in place of a holiday that fell on a weekend or another holiday. */
  observed?: boolean;
  /** CN and TW: every date of the consecutive break this holiday belongs to, in order. */
  days_off?: readonly string[];
  /** CN: weekend days made working days for this break (from the State Council notice). */
  workdays?: readonly string[];
  /** CN and TW: `days_off` computed from the law; the official calendar is not on file. */
  provisional?: boolean;
}

/** Countdown to a date. */
export interface Countdown {
  remaining: Remaining;
  passed: boolean;
}

/** First and last year served. */
export const MIN_YEAR = 1970;
export const MAX_YEAR = 2100;

const cache = new Map<string, readonly Holiday[]>();

function compute(region: Region, year: number): Holiday[] {
  switch (region) {
    case "CN":
      return cnHolidays(year);
    case "TW":
      return twHolidays(year);
    case "GLOBAL":
      return globalHolidays(year);
    case "US":
    case "UK":
    case "JP":
    case "AU":
      return upstreamHolidays(region as "US" | "UK" | "JP" | "AU", year);
    default:
      return countryHolidays(region, year);
  }
}

function finish(list: Holiday[]): readonly Holiday[] {
  // Stable sort keeps each module's order for entries on the same day.
  list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const seen = new Map<string, number>();
  for (const h of list) {
    const n = (seen.get(h.slug) ?? 0) + 1;
    seen.set(h.slug, n);
    if (n > 1) h.slug = `${h.slug}-${n}`;
    Object.freeze(h.days_off);
    Object.freeze(h.workdays);
    Object.freeze(h);
  }
  return Object.freeze(list);
}

/**
 * All events of `year` for `region` (already upper-cased; "GLOBAL" = widely observed
 * international days), in date order. Cached per (region, year): computed once. The result
 * and its entries are frozen. Throws RangeError for an unknown region or a year outside
 * 1970–2100.
 */
export function holidaysFor(region: Region, year: number): readonly Holiday[] {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) {
    throw new RangeError(`year must be an integer in ${MIN_YEAR}..${MAX_YEAR}`);
  }
  if (regionOf(region) !== region) throw new RangeError(`unknown region: ${region}`);
  const key = `${region}:${year}`;
  let list = cache.get(key);
  if (!list) {
    list = finish(compute(region, year));
    cache.set(key, list);
  }
  return list;
}

/**
 * Countdown to 00:00 of `date` (`YYYY-MM-DD`) in IANA zone `tz`, seen at instant `nowMs`.
 * On the day itself (in tz) remaining is all zeros and passed=false; passed=true once the
 * date is over in tz. Correct across DST changes: `total_seconds` is real elapsed time (a
 * 23-hour day counts 82 800 s) and days/hours/minutes/seconds split it in 86 400 s days.
 * Seconds round up, so the countdown reaches zero exactly when the day begins.
 */
export function countdownTo(date: string, tz: string, nowMs: number): Countdown {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const today = localDate(tz, nowMs);
  if (date <= today) return { remaining: breakdown(0), passed: date < today };
  const ms = startOfDay(date, tz) - nowMs;
  return { remaining: breakdown(Math.ceil(ms / 1000)), passed: false };
}

/**
 * The zone database's own name of a valid zone or alias: asia/tokyo → Asia/Tokyo, US/Eastern →
 * America/New_York, and Asia/Kolkata stays Asia/Kolkata (the runtime's ICU names it by its old
 * name, Asia/Calcutta, as Europe/Kyiv Europe/Kiev). A link to another country's zone is a zone
 * of its own (as in CLDR and ECMA-402): Europe/Stockholm stays Europe/Stockholm, although the
 * database now links it to Europe/Berlin. UTC and its aliases answer UTC.
 */
export function canonicalZone(tz: string): string {
  const icu = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  if (icu === "UTC") return icu;
  const link = zones.getTimezone(icu);
  const target = link?.aliasOf ? zones.getTimezone(link.aliasOf) : null;
  if (!link || !target) return icu;
  // A rename keeps the country (Asia/Calcutta → Asia/Kolkata); a merge names another one's zone.
  const renamed = link.countries.length === 0 || link.countries[0] === target.countries[0];
  return renamed ? target.name : icu;
}

let icuRenames: Record<string, string> | null = null;
/** The zones this runtime's ICU calls by an old name, by that name: {"Asia/Calcutta": "Asia/Kolkata", …}. */
export function renamedZones(): Record<string, string> {
  if (icuRenames) return icuRenames;
  const out: Record<string, string> = {};
  for (const z of Intl.supportedValuesOf("timeZone")) {
    const c = canonicalZone(z);
    if (c !== z) out[z] = c;
  }
  return icuRenames = out;
}

/** True when tz is a valid IANA zone name (use Intl; accept "UTC"). */
export function isValidTimeZone(tz: string): boolean {
  // Intl also takes UTC offsets such as "+01:00", which are not zone names.
  if (typeof tz !== "string" || !/^[A-Za-z]/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The calendar year of instant nowMs in zone tz. */
export function yearIn(tz: string, nowMs: number): number {
  return Number(localDate(tz, nowMs).slice(0, 4));
}
