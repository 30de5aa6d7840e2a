/** GET /api/v1/events: public holidays and events of a region with countdowns in a time zone. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ApiError } from "../../../lib/errors.ts";
import {
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
import { errors } from "./schemas.ts";

const Remaining = z.object({
  days: z.int(),
  hours: z.int(),
  minutes: z.int(),
  seconds: z.int(),
  total_seconds: z.int(),
});

const PublicEvent = z.object({
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

const listEvents = createRoute({
  method: "get",
  path: "/events",
  tags: ["Public events"],
  summary: "Public holidays of a region (or international days) with countdowns; no key needed",
  request: {
    query: z.strictObject({
      year: z.string().optional().openapi({
        type: "integer",
        description: `${MIN_YEAR}–${MAX_YEAR}; default: this year in tz`,
      }),
      region: z.string().optional().openapi({
        description: `One of ${REGIONS.join(", ")} (any case); none: international days`,
      }),
      tz: z.string().optional().openapi({ description: "IANA time zone, default UTC", example: "Asia/Tokyo" }),
    }),
  },
  responses: {
    200: {
      description: "All events of the year in date order",
      content: {
        "application/json": {
          schema: z.object({ events: z.array(PublicEvent), timezone: z.string(), region: z.string() }).openapi(
            "EventList",
          ),
        },
      },
    },
    ...errors(400, 401, 429),
  },
});

export function eventRoutes(api: OpenAPIHono<AppEnv>, now: () => number) {
  api.openapi(listEvents, (c) => {
    const q = c.req.valid("query");
    const tz = q.tz ?? "UTC";
    if (!isValidTimeZone(tz)) {
      throw new ApiError(400, `tz must be an IANA time zone such as Europe/London, got ${JSON.stringify(tz)}`, "tz");
    }
    const region = (q.region ?? "GLOBAL").toUpperCase();
    if (q.region !== undefined && !(REGIONS as readonly string[]).includes(region)) {
      throw new ApiError(400, `region must be one of ${REGIONS.join(", ")}, got ${JSON.stringify(q.region)}`, "region");
    }
    const t = now();
    let year = yearIn(tz, t);
    if (q.year !== undefined) {
      year = /^\d{4}$/.test(q.year) ? Number(q.year) : NaN;
      if (!(year >= MIN_YEAR && year <= MAX_YEAR)) {
        throw new ApiError(
          400,
          `year must be an integer from ${MIN_YEAR} to ${MAX_YEAR}, got ${JSON.stringify(q.year)}`,
          "year",
        );
      }
    }
    const events = holidaysFor(region as Region, year).map((h) => ({ ...h, ...countdownTo(h.date, tz, t) }));
    // Countdowns change every second; rate-limit headers are per client.
    c.header("Cache-Control", "private, max-age=1");
    return c.json({ events, timezone: tz, region }, 200);
  });
}
