import assert from "node:assert/strict";
import { parseWidgetParams } from "./params.ts";

const parse = (qs: string) => parseWidgetParams(new URLSearchParams(qs));

Deno.test("widget parameters left out take their documented defaults", () => {
  const p = parse("duration=60");
  assert.equal(p.type, "countdown");
  assert.equal(p.duration, 60);
  assert.equal(p.timezone, "UTC");
  assert.deepEqual([p.work, p.rest, p.rounds], [20, 10, 8]);
  assert.equal(p.theme, "dark");
  assert.equal(p.color, "6C63FF");
  assert.equal(p.lang, "en");
  assert.deepEqual([p.showTitle, p.showDate, p.alarm, p.showBrand], [true, true, true, true]);
  assert.equal(p.problem, null);
  assert.equal(p.id, null);
});

Deno.test("invalid values fall back to their defaults", () => {
  const p = parse(
    "type=pomodoro&duration=60&timezone=Mars/Base&work=0&rest=-1&rounds=1e9&theme=neon&primary_color=red;}body{x&lang=pt&show_title=yes&alarm=2&show_brand=",
  );
  assert.equal(p.type, "countdown");
  assert.equal(p.timezone, "UTC");
  assert.deepEqual([p.work, p.rest, p.rounds], [20, 10, 8]);
  assert.equal(p.theme, "dark");
  assert.equal(p.themeGiven, false);
  assert.equal(p.color, "6C63FF", "only 6 hex digits reach CSS");
  assert.equal(p.colorGiven, false);
  assert.equal(p.lang, "en");
  assert.deepEqual([p.showTitle, p.alarm, p.showBrand], [true, true, true]);
});

Deno.test("valid values are taken", () => {
  const p = parse(
    "type=interval&work=45&rest=0&rounds=3&theme=auto&primary_color=%23e4572e&lang=ja&show_title=0&show_date=0&alarm=0&show_brand=0&title=++Leg+day++",
  );
  assert.deepEqual([p.type, p.work, p.rest, p.rounds], ["interval", 45, 0, 3]);
  assert.deepEqual([p.theme, p.color, p.lang], ["auto", "E4572E", "ja"]);
  assert.deepEqual([p.showTitle, p.showDate, p.alarm, p.showBrand], [false, false, false, false]);
  assert.equal(p.title, "Leg day");
  assert.equal(p.problem, null, "an interval has defaults for everything");
});

Deno.test("a missing or invalid required input is a problem, not an error", () => {
  assert.equal(parse("").problem, "missing_duration");
  assert.equal(parse("duration=abc").problem, "missing_duration");
  assert.equal(parse("duration=0").problem, "missing_duration");
  assert.equal(parse("duration=1.5").problem, "missing_duration");
  assert.equal(parse("type=event").problem, "missing_target");
  assert.equal(parse("type=event&target_date=soon").problem, "missing_target");
  assert.equal(parse("type=event&target_date=2030-01-01").problem, null);
  assert.equal(parse("id=tmr_abc").problem, null, "a live timer brings its own inputs");
});

Deno.test("event targets without an offset are read in the given time zone", () => {
  const p = parse("type=event&target_date=2027-01-01T00:00&timezone=Asia/Tokyo");
  assert.equal(p.target, Date.parse("2026-12-31T15:00:00Z"));
  assert.equal(
    parse("type=event&target_date=2027-01-01T00:00Z&timezone=Asia/Tokyo").target,
    Date.parse("2027-01-01T00:00:00Z"),
  );
});

Deno.test("titles are trimmed to 100 characters and ids must look like ids", () => {
  assert.equal([...parse(`title=${"ü".repeat(150)}`).title!].length, 100);
  assert.equal(parse("title=%20%20").title, null);
  assert.equal(parse("id=tmr_Abc-123").id, "tmr_Abc-123");
  assert.equal(parse("id=../../etc").id, null);
});

Deno.test("a long title is cut to 100 code points between graphemes, never inside a flag or an emoji", () => {
  const flagged = parse(`duration=1&title=${encodeURIComponent("a".repeat(99) + "🇯🇵")}`).title!;
  assert.equal(flagged, "a".repeat(99), "half a flag is a stray letter J");
  const family = parse(`duration=1&title=${encodeURIComponent("b".repeat(97) + "👩‍👩‍👧‍👦")}`).title!;
  assert.equal(family, "b".repeat(97));
  const accent = parse(`duration=1&title=${encodeURIComponent("c".repeat(99) + "e\u0301")}`).title!;
  assert.equal(accent, "c".repeat(99));
  const fits = "d".repeat(98) + "🇯🇵";
  assert.equal(parse(`duration=1&title=${encodeURIComponent(fits)}`).title, fits);
});

Deno.test("view parameters default to a plain face", () => {
  assert.deepEqual(parse("duration=60").view, {
    mirror: null,
    transparent: false,
    delay: 0,
    clock: false,
    clockZone: null,
    hide: [],
  });
});

Deno.test("view parameters are taken when valid", () => {
  const v = parse("id=tmr_x&mirror=both&transparent=1&delay=10&clock=1&timezone=Asia/Tokyo&hide=progress,zone").view;
  assert.deepEqual(v, {
    mirror: "both",
    transparent: true,
    delay: 10,
    clock: true,
    clockZone: "Asia/Tokyo",
    hide: ["progress", "zone"],
  });
  assert.equal(parse("mirror=h").view.mirror, "h");
  assert.equal(parse("mirror=v").view.mirror, "v");
  assert.equal(parse("delay=3600").view.delay, 3600);
  assert.equal(parse("delay=0").view.delay, 0);
  assert.equal(parse("delay=2.5").view.delay, 2.5, "a broadcast delay may be fractional");
});

Deno.test("invalid view values fall back silently", () => {
  const v = parse("mirror=x&transparent=yes&delay=3601&clock=true&timezone=Mars/Base").view;
  assert.deepEqual(v, { mirror: null, transparent: false, delay: 0, clock: false, clockZone: null, hide: [] });
  for (const d of ["-1", "abc", "1e3", "Infinity", " ", "0x10", "10s"]) {
    assert.equal(parse(`delay=${d}`).view.delay, 0, d);
  }
  assert.equal(parse("mirror=H").view.mirror, null, "values are lower case");
});

Deno.test("hide takes known parts once each, in a fixed order, from one or several hide=", () => {
  assert.deepEqual(parse("hide=brand,,Title,bogus,title, progress").view.hide, ["title", "progress", "brand"]);
  assert.deepEqual(parse("hide=message&hide=zone").view.hide, ["zone", "message"]);
  assert.deepEqual(parse("hide=").view.hide, []);
});

Deno.test("hide=title and hide=brand act as show_title=0 and show_brand=0; show_* keep working", () => {
  const hidden = parse("duration=60&hide=title,brand");
  assert.deepEqual([hidden.showTitle, hidden.showBrand], [false, false]);
  const shown = parse("duration=60&show_title=1&hide=progress");
  assert.deepEqual([shown.showTitle, shown.showBrand], [true, true]);
  const old = parse("duration=60&show_title=0&show_brand=0");
  assert.deepEqual([old.showTitle, old.showBrand, old.view.hide], [false, false, []]);
});
