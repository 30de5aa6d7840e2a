/**
 * What depends on the date, run on the injected clock at awkward instants (a year's last second
 * on both sides of the date line, a leap day, DST changes, a midnight that does not exist, the day
 * after a holiday): every answer must hold on whatever day the suite runs. The expected values
 * come from Intl alone, not from the service's own zone arithmetic.
 */
import assert from "node:assert/strict";
import { REGIONS } from "../lib/holidays/mod.ts";
import { setup } from "./helpers.ts";

/** `at` is the instant; `tz` the zone it is awkward in. */
export const AWKWARD: { name: string; at: string; tz: string }[] = [
  { name: "31 Dec 23:59:59 in Kiritimati (UTC+14)", at: "2026-12-31T09:59:59Z", tz: "Pacific/Kiritimati" },
  { name: "31 Dec 23:59:59 in Pago Pago (UTC−11)", at: "2027-01-01T10:59:59Z", tz: "Pacific/Pago_Pago" },
  { name: "29 Feb 2028, noon UTC", at: "2028-02-29T12:00:00Z", tz: "UTC" },
  { name: "London's clocks go forward (2027-03-28 01:00 GMT)", at: "2027-03-28T00:59:59Z", tz: "Europe/London" },
  { name: "London's clocks go back (2026-10-25 01:00 UTC)", at: "2026-10-25T01:30:00Z", tz: "Europe/London" },
  {
    name: "São Paulo's last DST start: 2018-11-04 had no midnight",
    at: "2018-11-03T23:30:00Z",
    tz: "America/Sao_Paulo",
  },
  { name: "the day after US Thanksgiving 2026", at: "2026-11-27T12:00:00Z", tz: "America/New_York" },
  { name: "US Thanksgiving 2026 in Tokyo, the hour it begins", at: "2026-11-25T15:00:00Z", tz: "Asia/Tokyo" },
];

const ZONES = ["UTC", "Asia/Tokyo", "America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/London"];

const formats = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD` of instant `ms` in `tz`, by Intl. */
function dateIn(tz: string, ms: number): string {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(tz, f);
  }
  return f.format(ms);
}

/** The first second whose date in `tz` is `iso` (its midnight, or the first second after a skipped one). */
function firstSecondOf(iso: string, tz: string): number {
  let lo = Date.parse(`${iso}T00:00:00Z`) - 15 * 3_600_000; // before the day begins anywhere
  let hi = lo + 30 * 3_600_000; // after it has begun everywhere
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (dateIn(tz, mid) >= iso) hi = mid;
    else lo = mid;
  }
  return hi;
}

const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

type Ev = {
  date: string;
  passed: boolean;
  remaining: { days: number; hours: number; minutes: number; seconds: number; total_seconds: number };
};

Deno.test("GET /events counts to each date's midnight in the zone at every awkward instant", async () => {
  const s = await setup();
  for (const { name, at, tz } of AWKWARD) {
    const now = Date.parse(at);
    s.clock.t = now;
    for (const zone of [tz, ...ZONES.filter((z) => z !== tz)]) {
      const today = dateIn(zone, now);
      for (const region of ["GLOBAL", ...REGIONS]) {
        const q = `${region === "GLOBAL" ? "" : `region=${region}&`}tz=${encodeURIComponent(zone)}`;
        const r = await s.call("GET", `/api/v1/events?${q}`);
        const where = `${name}: ${q}`;
        assert.equal(r.status, 200, where);
        const events: Ev[] = r.body.events;
        assert.ok(events.length > 0, where);
        const dates = events.map((e) => e.date);
        assert.deepEqual([...dates].sort(), dates, `${where}: in date order`);
        assert.ok(dates.every((d) => d.slice(0, 4) === today.slice(0, 4)), `${where}: the year of ${today}`);
        for (const e of events) {
          const begins = firstSecondOf(e.date, zone);
          const ends = firstSecondOf(nextDay(e.date), zone);
          const total = now < begins ? Math.ceil((begins - now) / 1000) : 0;
          const { days, hours, minutes, seconds, total_seconds } = e.remaining;
          assert.equal(total_seconds, total, `${where}: ${e.date} remaining`);
          assert.equal(days * 86400 + hours * 3600 + minutes * 60 + seconds, total, `${where}: ${e.date} parts`);
          assert.ok(hours < 24 && minutes < 60 && seconds < 60, `${where}: ${e.date} parts in range`);
          assert.equal(e.passed, now >= ends, `${where}: ${e.date} passed`);
          if (e.date === today) assert.deepEqual([total, e.passed], [0, false], `${where}: today is not passed`);
        }
        // The page lists what is still ahead (today included), then next year's first ones.
        const page = await s.app.app.request(`http://timers.test/events?${q}`);
        const shown = [...(await page.text()).matchAll(/<li class="ev[^"]*" data-date="([^"]+)"/g)].map((m) => m[1]);
        const ahead = dates.filter((_, n) => !events[n].passed);
        assert.deepEqual(shown.slice(0, ahead.length), ahead, `${where}: the page's cards`);
        assert.ok(shown.length >= Math.min(5, ahead.length), where);
      }
    }
  }
  await s.close();
});

Deno.test("timers created at every awkward instant count, complete and expire by the clock", async () => {
  const s = await setup();
  s.app.scheduler.start();
  try {
    for (const { name, at } of AWKWARD) {
      s.clock.t = Date.parse(at);
      const created = s.clock.now();
      const c = await s.create({ type: "countdown", duration: 90 });
      assert.equal(Date.parse(c.expires_at), created + 30 * 86_400_000, `${name}: 30 days`);
      await s.act(c.timer_id, "start");
      const target = new Date(created + 86_400_000).toISOString();
      const e = await s.create({ type: "event", target_date: target });
      assert.equal(e.remaining_seconds, 86_400, name);
      s.clock.advance(89_001);
      assert.equal((await s.call("GET", `/api/v1/timers/${c.timer_id}`)).body.remaining_seconds, 1, name);
      s.clock.advance(999);
      await s.app.scheduler.sweep();
      await s.app.scheduler.settled();
      const done = (await s.call("GET", `/api/v1/timers/${c.timer_id}`)).body;
      assert.equal(done.state, "completed", name);
      assert.equal(done.completed_at, new Date(created + 90_000).toISOString(), name);
      assert.equal((await s.call("GET", `/api/v1/timers/${e.timer_id}`)).body.remaining_seconds, 86_400 - 90, name);
    }
  } finally {
    await s.close();
  }
});
