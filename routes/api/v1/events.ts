/** GET /api/v1/events: public holidays and events of a region with countdowns in a time zone. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ApiError } from "../../../lib/errors.ts";
import {
  canonicalZone,
  countdownTo,
  holidaysFor,
  isValidTimeZone,
  MAX_YEAR,
  MIN_YEAR,
  type Region,
  REGIONS,
  yearIn,
} from "../../../lib/holidays/mod.ts";
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
}).openapi("PublicEvent");

const EventQuery = z.strictObject({
  year: queryInteger(MIN_YEAR, MAX_YEAR).optional().openapi({
    description: `${MIN_YEAR}–${MAX_YEAR}; default: this year in tz`,
    example: 2027,
  }),
  region: z.string().optional().openapi({
    // Any case is accepted; the document lists the upper- and lower-case spellings.
    enum: [...REGIONS, ...REGIONS.map((r) => r.toLowerCase())],
    description: `One of ${REGIONS.join(", ")} (any case; UK is England & Wales, AU national holidays); ` +
      "none: widely observed international days",
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
      "All events of the year in date order",
    ),
    ...errors([400, 401], {
      400: "year, region or tz is invalid (error.field names it)",
      401: "An Authorization header was sent with an invalid key (omit it or send a valid one)",
    }),
  },
});

export function eventRoutes(api: OpenAPIHono<AppEnv>, now: () => number) {
  api.openapi(listEvents, (c) => {
    const q = c.req.valid("query");
    if (q.tz !== undefined && !isValidTimeZone(q.tz)) {
      throw new ApiError(400, `tz must be an IANA time zone such as Europe/London, got ${JSON.stringify(q.tz)}`, "tz");
    }
    // Answered as the zone database spells it (utc → UTC, asia/calcutta → Asia/Kolkata).
    const tz = q.tz === undefined ? "UTC" : canonicalZone(q.tz);
    const region = (q.region ?? "GLOBAL").toUpperCase();
    if (q.region !== undefined && !(REGIONS as readonly string[]).includes(region)) {
      throw new ApiError(400, `region must be one of ${REGIONS.join(", ")}, got ${JSON.stringify(q.region)}`, "region");
    }
    const t = now();
    const year = q.year ?? yearIn(tz, t);
    const events = holidaysFor(region as Region, year).map((h) => ({ ...h, ...countdownTo(h.date, tz, t) }));
    // Countdowns change every second; rate-limit headers are per client.
    c.header("Cache-Control", "private, max-age=1");
    return c.json({ events, timezone: tz, region }, 200);
  });
}
