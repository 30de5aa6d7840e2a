import assert from "node:assert/strict";
import { DEFAULT_PLANS } from "../config.ts";
import { setup } from "./helpers.ts";

type Ev = { slug: string; date: string; passed: boolean; remaining: Record<string, number> };

Deno.test("GET /events needs no key and lists a region's year in date order with countdowns", async () => {
  const s = await setup();
  const r = await s.call("GET", "/api/v1/events?region=jp&year=2026&tz=Asia/Tokyo", { key: null });
  assert.equal(r.status, 200);
  assert.equal(r.body.region, "JP");
  assert.equal(r.body.timezone, "Asia/Tokyo");
  for (
    const [asked, answered] of [
      ["utc", "UTC"],
      ["Etc/UTC", "UTC"],
      ["asia/tokyo", "Asia/Tokyo"],
      ["US/Eastern", "America/New_York"],
      ["Asia/Kolkata", "Asia/Kolkata"],
      ["asia/calcutta", "Asia/Kolkata"],
      ["Europe/Kyiv", "Europe/Kyiv"],
      ["Asia/Ho_Chi_Minh", "Asia/Ho_Chi_Minh"],
      ["America/Nuuk", "America/Nuuk"],
      ["Etc/GMT+5", "Etc/GMT+5"],
      // Links to another country's zone are zones of their own (the database merged them in 2022).
      ["Europe/Stockholm", "Europe/Stockholm"],
      ["europe/amsterdam", "Europe/Amsterdam"],
      ["Africa/Accra", "Africa/Accra"],
      ["Asia/Kuala_Lumpur", "Asia/Kuala_Lumpur"],
      ["America/Buenos_Aires", "America/Argentina/Buenos_Aires"],
    ]
  ) {
    const z = await s.call("GET", `/api/v1/events?tz=${encodeURIComponent(asked)}`, { key: null });
    assert.equal(z.body.timezone, answered, `${asked}: answered as the zone database spells it`);
  }
  const dates = r.body.events.map((e: Ev) => e.date);
  assert.deepEqual([...dates].sort(), dates);
  assert.equal(dates.length, 18);
  // Now is 2026-11-22T12:00Z = 21:00 in Tokyo; Labor Thanksgiving Day is tomorrow there.
  const thanks = r.body.events.find((e: Ev) => e.slug === "labor-thanksgiving-day");
  assert.deepEqual(thanks.remaining, { days: 0, hours: 3, minutes: 0, seconds: 0, total_seconds: 10800 });
  assert.equal(thanks.passed, false);
  const culture = r.body.events.find((e: Ev) => e.slug === "culture-day");
  assert.equal(culture.passed, true);
  assert.equal(culture.remaining.total_seconds, 0);
  assert.equal(r.headers.get("cache-control"), "private, max-age=1");
  assert.ok(r.headers.get("x-ratelimit-limit"));
  await s.close();
});

Deno.test("the same date is today in Tokyo but still ahead in Los Angeles", async () => {
  const s = await setup();
  s.clock.t = Date.parse("2026-11-23T03:00:00Z"); // 12:00 on the 23rd in Tokyo, 19:00 on the 22nd in LA
  const tokyo = await s.call("GET", "/api/v1/events?region=JP&tz=Asia/Tokyo", { key: null });
  const la = await s.call("GET", "/api/v1/events?region=JP&tz=America/Los_Angeles", { key: null });
  const pick = (r: { body: { events: Ev[] } }) => r.body.events.find((e) => e.slug === "labor-thanksgiving-day")!;
  assert.deepEqual(pick(tokyo).remaining, { days: 0, hours: 0, minutes: 0, seconds: 0, total_seconds: 0 });
  assert.equal(pick(tokyo).passed, false);
  assert.equal(pick(la).remaining.total_seconds, 5 * 3600);
  assert.equal(pick(la).passed, false);
  await s.close();
});

Deno.test("no region gives the GLOBAL list; the year defaults to the current year in tz", async () => {
  const s = await setup();
  s.clock.t = Date.parse("2026-12-31T20:00:00Z");
  const utc = await s.call("GET", "/api/v1/events", { key: null });
  assert.equal(utc.body.region, "GLOBAL");
  assert.equal(utc.body.timezone, "UTC");
  assert.ok(utc.body.events.every((e: Ev) => e.date.startsWith("2026-")));
  const tokyo = await s.call("GET", "/api/v1/events?tz=Asia/Tokyo", { key: null });
  assert.ok(tokyo.body.events.every((e: Ev) => e.date.startsWith("2027-")));
  await s.close();
});

Deno.test("bad year, region or tz answer 400 naming the parameter", async () => {
  const s = await setup();
  for (
    const [q, field] of [
      ["year=1969", "year"],
      ["year=2101", "year"],
      ["year=2026.5", "year"],
      ["year=2026.0", "year"],
      ["year=0x7EA", "year"],
      ["year=2.027e3", "year"],
      ["year=%202027", "year"],
      ["year=abc", "year"],
      ["region=XX", "region"],
      ["region=DEU", "region"],
      ["lang=deu", "lang"],
      ["upcoming=0", "upcoming"],
      ["upcoming=101", "upcoming"],
      ["upcoming=3&year=2027", "upcoming"],
      ["region=", "region"],
      ["tz=Mars/Olympus", "tz"],
      ["tz=%2B01:00", "tz"],
      ["colour=1", "colour"],
    ]
  ) {
    const r = await s.call("GET", `/api/v1/events?${q}`, { key: null });
    assert.equal(r.status, 400, q);
    assert.equal(r.body.error.field, field, q);
  }
  await s.close();
});

Deno.test("anonymous callers of /events are limited per IP to 30 a minute", async () => {
  const s = await setup({ config: { plans: structuredClone(DEFAULT_PLANS) } });
  for (let i = 0; i < 30; i++) assert.equal((await s.call("GET", "/api/v1/events", { key: null })).status, 200);
  const r = await s.call("GET", "/api/v1/events", { key: null });
  assert.equal(r.status, 429);
  assert.ok(Number(r.headers.get("retry-after")) > 0);
  // A key holder counts against its own plan instead.
  assert.equal((await s.call("GET", "/api/v1/events", { key: s.free.apiKey })).status, 200);
  await s.close();
});
