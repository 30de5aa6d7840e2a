/** GET /events for every country date-holidays knows, names in their language, and the next N events (clock pinned). */
import assert from "node:assert/strict";
import { setup } from "./helpers.ts";

type Ev = {
  name: string;
  slug: string;
  date: string;
  source: string;
  passed: boolean;
  remaining: { total_seconds: number };
};

Deno.test("region=DE: Germany's public holidays from date-holidays, marked so; curated regions say curated", async () => {
  const s = await setup();
  try {
    const de = await s.call("GET", "/api/v1/events?region=de&year=2026", { key: null });
    assert.equal(de.status, 200);
    assert.equal(de.body.region, "DE");
    const events = de.body.events as Ev[];
    assert.ok(events.every((e) => e.source === "date-holidays"));
    assert.deepEqual(
      events.filter((e) => ["2026-01-01", "2026-10-03", "2026-12-25"].includes(e.date)).map((e) => [e.date, e.name]),
      [["2026-01-01", "New Year's Day"], ["2026-10-03", "National Holiday"], ["2026-12-25", "Christmas Day"]],
    );
    assert.ok(!events.some((e) => e.date === "2026-11-01"), "public holidays only: All Saints' is regional in DE");
    assert.deepEqual(events.map((e) => e.date), events.map((e) => e.date).toSorted(), "date order");

    // In German when asked; slugs and dates stay.
    const deDe = await s.call("GET", "/api/v1/events?region=DE&year=2026&lang=de", { key: null });
    const german = deDe.body.events as Ev[];
    assert.equal(german.find((e) => e.date === "2026-10-03")!.name, "Tag der Deutschen Einheit");
    assert.equal(german.find((e) => e.date === "2026-01-01")!.name, "Neujahr");
    assert.deepEqual(german.map((e) => e.slug), events.map((e) => e.slug));
    // A language the calendar has no names in: English.
    const fr = await s.call("GET", "/api/v1/events?region=DE&year=2026&lang=fr", { key: null });
    assert.deepEqual((fr.body.events as Ev[]).map((e) => e.name), events.map((e) => e.name));

    // The six curated regions (and the international days) keep their lists, marked curated.
    for (const region of ["JP", "US", "UK", "AU", "CN", "TW"]) {
      const r = await s.call("GET", `/api/v1/events?region=${region}&year=2026`, { key: null });
      assert.ok((r.body.events as Ev[]).every((e) => e.source === "curated"), region);
    }
    assert.ok(
      ((await s.call("GET", "/api/v1/events?year=2026", { key: null })).body.events as Ev[]).every((e) =>
        e.source === "curated"
      ),
    );
    // GB is the ISO code of the UK: the curated England & Wales list.
    const gb = await s.call("GET", "/api/v1/events?region=gb&year=2026", { key: null });
    assert.equal(gb.body.region, "UK");
    // JP in Japanese, from the curated list.
    const ja = await s.call("GET", "/api/v1/events?region=JP&year=2026&lang=ja", { key: null });
    assert.equal((ja.body.events as Ev[]).find((e) => e.date === "2026-11-23")!.name, "勤労感謝の日");
    // Many more countries answer.
    for (const region of ["FR", "BR", "IN", "ZA", "NZ", "KR", "MX", "SE"]) {
      const r = await s.call("GET", `/api/v1/events?region=${region}&year=2026`, { key: null });
      assert.equal(r.status, 200, region);
      assert.ok(r.body.events.length > 3, region);
    }
  } finally {
    await s.close();
  }
});

Deno.test("upcoming=N: the next N events from today in tz, across the year boundary", async () => {
  const s = await setup();
  try {
    // Late November in Japan: one holiday left this year, the rest in January.
    s.clock.t = Date.parse("2026-11-22T12:00:00Z");
    const jp = await s.call("GET", "/api/v1/events?region=JP&upcoming=3&tz=Asia/Tokyo", { key: null });
    assert.equal(jp.status, 200);
    assert.deepEqual((jp.body.events as Ev[]).map((e) => [e.date, e.slug]), [
      ["2026-11-23", "labor-thanksgiving-day"],
      ["2027-01-01", "new-years-day"],
      ["2027-01-11", "coming-of-age-day"],
    ]);
    assert.ok((jp.body.events as Ev[]).every((e) => !e.passed && e.remaining.total_seconds > 0));

    // On the day itself (in tz) that day counts: all zeros, not passed.
    s.clock.t = Date.parse("2026-12-25T10:00:00+01:00");
    const de = await s.call("GET", "/api/v1/events?region=DE&upcoming=3&tz=Europe/Berlin&lang=de", { key: null });
    const [first, second, third] = de.body.events as Ev[];
    assert.deepEqual([first.date, first.name, first.passed, first.remaining.total_seconds], [
      "2026-12-25",
      "1. Weihnachtstag",
      false,
      0,
    ]);
    assert.deepEqual([second.date, third.date], ["2026-12-26", "2027-01-01"]);

    // The zone decides what "today" is: 25 Dec is over in Tokyo while it is still the 25th in Berlin.
    s.clock.t = Date.parse("2026-12-25T20:00:00+01:00");
    const tokyo = await s.call("GET", "/api/v1/events?region=DE&upcoming=1&tz=Asia/Tokyo", { key: null });
    assert.equal(tokyo.body.events[0].date, "2026-12-26");
    // At most 100.
    const many = await s.call("GET", "/api/v1/events?region=US&upcoming=100", { key: null });
    assert.equal(many.status, 200);
    assert.ok(many.body.events.length >= 30, "three years ahead at least");
  } finally {
    await s.close();
  }
});

Deno.test("the OpenAPI document describes region codes, lang, upcoming and source", async () => {
  const s = await setup();
  try {
    const doc = (await s.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const params = doc.paths["/events"].get.parameters as { name: string; schema: { enum?: string[] } }[];
    const names = params.map((p) => p.name);
    for (const n of ["year", "region", "tz", "lang", "upcoming"]) assert.ok(names.includes(n), n);
    const region = params.find((p) => p.name === "region")!.schema.enum!;
    for (const code of ["JP", "jp", "DE", "de", "GB", "FR"]) assert.ok(region.includes(code), code);
    const event = doc.components.schemas.PublicEvent;
    assert.ok(event.required.includes("source"));
    assert.deepEqual(event.properties.source.enum, ["curated", "date-holidays"]);
  } finally {
    await s.close();
  }
});
