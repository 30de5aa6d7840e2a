/** GET /api/v1/events: public holidays and events of a region with countdowns in a time zone. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ApiError } from "../../../lib/errors.ts";
import {
  canonicalZone,
  countdownTo,
  type Holiday,
  holidaysFor,
  isValidTimeZone,
  MAX_YEAR,
  MIN_YEAR,
  type Region,
  regionOf,
  REGIONS,
  sourceOf,
  yearIn,
} from "../../../lib/holidays/mod.ts";
import { libraryCountries } from "../../../lib/holidays/countries.ts";
import { localDate } from "../../../lib/holidays/countdown.ts";
import { localizeHolidays } from "../../../lib/holidays/names.ts";
import { asLang, eventTexts } from "../../../lib/i18n.ts";
import type { AppEnv } from "../../../lib/http.ts";
import { errors, ok } from "./openapi.ts";
import { queryInteger } from "./schemas.ts";

const Remaining = z.strictObject({
  days: z.int(),
  hours: z.int(),
  minutes: z.int(),
  seconds: z.int(),
  total_seconds: z.int(),
});

const PublicEvent = z.strictObject({
  name: z.string(),
  slug: z.string(),
  date: z.string().openapi({ format: "date" }),
  remaining: Remaining,
  passed: z.boolean(),
  observed: z.boolean().optional().openapi({ description: "A weekday given off in place of a weekend holiday" }),
  days_off: z.array(z.string()).readonly().optional().openapi({
    description: "CN, TW: every date of the holiday's break",
  }),
  workdays: z.array(z.string()).readonly().optional().openapi({ description: "CN: weekend days made working days" }),
  provisional: z.boolean().optional().openapi({
    description: "Days off computed from the law; the official calendar is not published yet",
  }),
  source: z.enum(["curated", "date-holidays"]).openapi({
    description: "curated: the six regions and the international days, checked by hand against official " +
      "calendars; date-holidays: every other country, as the date-holidays library has it",
  }),
}).openapi("PublicEvent");

/** Most events `upcoming` may ask for. */
export const MAX_UPCOMING = 100;
/** How many years ahead `upcoming` looks (a country with few holidays still answers quickly). */
const UPCOMING_YEARS = 3;

const EventQuery = z.strictObject({
  year: queryInteger(MIN_YEAR, MAX_YEAR).optional().openapi({
    description: `${MIN_YEAR}–${MAX_YEAR}; default: this year in tz`,
    example: 2027,
  }),
  region: z.string().max(6).optional().openapi({
    // Any case is accepted; the document lists the upper- and lower-case spellings.
    enum: [...REGIONS, "GB", ...libraryCountries()].flatMap((r) => [r, r.toLowerCase()]),
    description: `Curated against official calendars: ${REGIONS.join(", ")} (UK is England & Wales, GB the same ` +
      `list; AU national holidays). Any other ISO 3166-1 alpha-2 code date-holidays knows: public holidays ` +
      `only, as the library has them (events say source "date-holidays"). Any case; none: widely ` +
      "observed international days",
    example: "DE",
  }),
  lang: z.string().regex(/^[A-Za-z]{2}$/).optional().openapi({
    description: "Names in this language (ISO 639-1, e.g. de, ja) where the region's calendar has them " +
      "(JP, CN, TW and most date-holidays countries have their own language); otherwise English. Slugs never change",
    example: "de",
  }),
  upcoming: queryInteger(1, MAX_UPCOMING).optional().openapi({
    description: `1–${MAX_UPCOMING}: the next N events from today in tz (today's included), across the year ` +
      `boundary (up to ${UPCOMING_YEARS} years ahead), instead of one year's list; not with year`,
    example: 5,
  }),
  tz: z.string().max(64).optional().openapi({
    // No enum: the runtime's zone list spells some zones by their old names (Asia/Calcutta, not
    // Asia/Kolkata) and changes with its ICU version, while every IANA name and alias is accepted.
    description: "Any IANA time zone name or alias (Asia/Kolkata, Europe/Kyiv, US/Eastern, Etc/GMT+5, utc), " +
      "default UTC; answered as `timezone` in the zone database's spelling",
    example: "Asia/Tokyo",
  }),
});

const listEvents = createRoute({
  method: "get",
  path: "/events",
  operationId: "listEvents",
  tags: ["Public events"],
  summary: "Public holidays of a region (or international days) with countdowns; no key needed",
  security: [],
  request: { query: EventQuery },
  responses: {
    200: ok(
      z.strictObject({ events: z.array(PublicEvent), timezone: z.string(), region: z.string() }).openapi("EventList"),
      "All events of the year in date order (with upcoming: the next N from today)",
    ),
    ...errors([400, 401], {
      400: "year, region, lang, upcoming or tz is invalid, or year and upcoming are both given (error.field names it)",
      401: "An Authorization header was sent with an invalid key (omit it or send a valid one)",
    }),
  },
});

/** The word a stand-in day is named with in `lang` (the site's own languages), else English. */
function observedWord(lang: string): string {
  const site = asLang(lang);
  return site ? eventTexts(site).ev_observed : "observed";
}

/**
 * The next `n` events from today in `tz` (today's included), across year ends, as per-year lists
 * (each named as a whole: native names are matched within their year).
 */
function upcoming(region: Region, tz: string, t: number, n: number): (readonly Holiday[])[] {
  const today = localDate(tz, t);
  const first = yearIn(tz, t);
  const out: (readonly Holiday[])[] = [];
  let left = n;
  for (let year = first; year <= Math.min(MAX_YEAR, first + UPCOMING_YEARS) && left > 0; year++) {
    const next = holidaysFor(region, year).filter((h) => h.date >= today).slice(0, left);
    left -= next.length;
    out.push(next);
  }
  return out;
}

export function eventRoutes(api: OpenAPIHono<AppEnv>, now: () => number) {
  api.openapi(listEvents, (c) => {
    const q = c.req.valid("query");
    if (q.tz !== undefined && !isValidTimeZone(q.tz)) {
      throw new ApiError(400, `tz must be an IANA time zone such as Europe/London, got ${JSON.stringify(q.tz)}`, "tz");
    }
    // Answered as the zone database spells it (utc → UTC, asia/calcutta → Asia/Kolkata).
    const tz = q.tz === undefined ? "UTC" : canonicalZone(q.tz);
    const region = q.region === undefined ? "GLOBAL" : regionOf(q.region);
    if (!region) {
      throw new ApiError(
        400,
        `region must be one of ${REGIONS.join(", ")} or another ISO 3166 country code such as DE, got ` +
          JSON.stringify(q.region),
        "region",
      );
    }
    if (q.year !== undefined && q.upcoming !== undefined) {
      throw new ApiError(400, "upcoming lists the next events from today: send it without year", "upcoming");
    }
    const t = now();
    const lang = q.lang?.toLowerCase();
    const source = sourceOf(region);
    const named = (list: readonly Holiday[]) =>
      lang && lang !== "en" ? localizeHolidays(region, list, lang, observedWord(lang)) : list;
    const list = q.upcoming === undefined
      ? named(holidaysFor(region, q.year ?? yearIn(tz, t)))
      : upcoming(region, tz, t, q.upcoming).flatMap((year) => named(year));
    const events = list.map((h) => ({ ...h, source, ...countdownTo(h.date, tz, t) }));
    // Countdowns change every second; rate-limit headers are per client.
    c.header("Cache-Control", "private, max-age=1");
    return c.json({ events, timezone: tz, region }, 200);
  });
}
