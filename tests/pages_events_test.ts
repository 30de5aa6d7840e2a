/** GET /events over HTTP (no browser): the first HTML's countdowns, fallbacks, languages, links and escaping. */
import assert from "node:assert/strict";
import { EMBED, embedSnippet, formatClock, widgetUrl } from "../lib/display.ts";
import { REGIONS } from "../lib/holidays/mod.ts";
import { setup } from "./helpers.ts";

type Served = Awaited<ReturnType<typeof setup>>;

const EVIL_SCRIPT = "</script><script>alert(1)</script>";
const EVIL_ATTR = '"><img src=x onerror=alert(1)>';

const decode = (s: string) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
/** Visible text, roughly: tags dropped, entities decoded, spaces collapsed. */
const visible = (html: string) => decode(html.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim();

async function get(s: Served, path: string, headers: Record<string, string> = {}) {
  const res = await s.app.app.request(`http://timers.test${path}`, { headers });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

interface Card {
  date: string;
  name: string;
  clock: string;
  today: boolean;
  tags: string[];
  off: string | null;
  href: string;
  snippet: string;
}

/** The event cards of a page, in order. */
function cards(html: string): Card[] {
  return [...html.matchAll(/<li class="(ev[^"]*)" data-date="([^"]+)">([\s\S]*?)<\/li>/g)].map(
    ([, cls, date, body]) => {
      const pick = (re: RegExp) => body.match(re)?.[1] ?? null;
      return {
        date,
        name: decode(pick(/<h3 class="ev-name">([\s\S]*?)<\/h3>/)!),
        clock: visible(pick(/<p class="ev-clock[^"]*"[^>]*>([\s\S]*?)<\/p>/)!),
        today: cls.includes("ev--today"),
        tags: [...body.matchAll(/class="ev-tag"[^>]*>([^<]*)</g)].map((m) => decode(m[1])),
        off: pick(/<p class="ev-off">([^<]*)<\/p>/),
        href: decode(pick(/<a class="button" href="([^"]+)"/)!),
        snippet: decode(pick(/<textarea[^>]*>([\s\S]*?)<\/textarea>/)!),
      };
    },
  );
}

const brief = (cs: Card[]) => cs.map((c) => `${c.date} ${c.name}: ${c.clock}`);

Deno.test("the first HTML lists the upcoming events with countdowns at the server's instant", async () => {
  const s = await setup(); // 2026-11-22T12:00Z: 07:00 in New York
  const r = await get(s, "/events?region=US&tz=America/New_York");
  assert.equal(r.status, 200);
  assert.deepEqual(brief(cards(r.html)), [
    "2026-11-26 Thanksgiving Day: 3 days 17:00:00",
    "2026-12-25 Christmas Day: 32 days 17:00:00",
    "2027-01-01 New Year's Day: 39 days 17:00:00",
    "2027-01-18 Martin Luther King Jr. Day: 56 days 17:00:00",
    "2027-02-15 Washington's Birthday: 84 days 17:00:00",
  ]);
  assert.match(r.html, /<h2 class="ev-year" id="ev-year-2026">2026<\/h2>/);
  assert.match(r.html, /<h2 class="ev-year" id="ev-year-2027">2027<\/h2>/, "next year's first ones fill a short list");
  assert.match(visible(r.html), /Counting to midnight in America\/New York\./);
  assert.match(r.html, /<title>Holiday countdowns · United States<\/title>/);
  assert.match(r.html, /data-island="Events"/);
  assert.equal((r.html.match(/<script\b/g) ?? []).length, 1, "only the boot module");
  s.clock.advance(3 * 86400_000 + 16 * 3600_000 + 59 * 60_000 + 58_500);
  assert.equal(cards((await get(s, "/events?region=US&tz=America/New_York")).html)[0].clock, "00:02");
  await s.close();
});

Deno.test("every region in every zone agrees with GET /api/v1/events, across DST and the new year", async () => {
  const s = await setup();
  const zones = ["UTC", "America/New_York", "Asia/Tokyo", "Australia/Adelaide", "Pacific/Kiritimati", "Etc/GMT+12"];
  // The middle one is 23:30 in Adelaide before its clocks go back, on Easter Sunday's eve.
  for (const at of ["2026-11-22T12:00:00Z", "2026-04-04T13:00:00Z", "2026-12-31T11:30:00Z"]) {
    s.clock.t = Date.parse(at);
    for (const region of ["GLOBAL", ...REGIONS]) {
      for (const tz of zones) {
        const q = `${region === "GLOBAL" ? "" : `region=${region}&`}tz=${encodeURIComponent(tz)}`;
        const api = (await s.call("GET", `/api/v1/events?${q}`, { key: null })).body;
        const year = Number(api.events[0].date.slice(0, 4));
        const next = (await s.call("GET", `/api/v1/events?${q}&year=${year + 1}`, { key: null })).body;
        type Ev = { date: string; name: string; passed: boolean; remaining: { total_seconds: number } };
        const left = api.events.filter((e: Ev) => !e.passed);
        const expected = [...left, ...next.events].slice(0, Math.max(5, left.length)).map((e: Ev) =>
          `${e.date} ${e.name}: ${
            e.remaining.total_seconds === 0 ? "★ Today" : formatClock(e.remaining.total_seconds, "en")
          }`
        );
        assert.deepEqual(brief(cards((await get(s, `/events?${q}`)).html)), expected, `${at} ${q}`);
      }
    }
  }
  await s.close();
});

Deno.test("today's events say Today, and observed days say so in words", async () => {
  const s = await setup();
  s.clock.t = Date.parse("2026-11-23T03:00:00Z"); // noon on the 23rd in Tokyo, 19:00 on the 22nd in LA
  const tokyo = cards((await get(s, "/events?region=JP&tz=Asia/Tokyo")).html)[0];
  assert.equal(tokyo.name, "Labor Thanksgiving Day");
  assert.ok(tokyo.today);
  assert.equal(tokyo.clock, "★ Today");
  const la = cards((await get(s, "/events?region=JP&tz=America/Los_Angeles")).html)[0];
  assert.deepEqual([la.name, la.today, la.clock], ["Labor Thanksgiving Day", false, "5:00:00"]);

  s.clock.t = Date.parse("2026-06-20T12:00:00Z");
  const us = cards((await get(s, "/events?region=US&tz=America/New_York")).html);
  assert.deepEqual(us.slice(0, 2).map((c) => [c.date, c.name, c.tags]), [
    ["2026-07-03", "Independence Day (observed)", ["Observed"]],
    ["2026-07-04", "Independence Day", []],
  ]);
  const ja = cards((await get(s, "/events?region=US&tz=America/New_York&lang=ja")).html);
  assert.deepEqual(ja[0].tags, ["振替休日"]);
  await s.close();
});

Deno.test("CN and TW breaks show their days off as a short range; provisional ones are marked", async () => {
  const s = await setup();
  const r = await get(s, "/events?region=CN&tz=Asia/Shanghai");
  const cn = cards(r.html);
  assert.deepEqual(cn.slice(0, 2).map((c) => [c.name, c.off, c.tags]), [
    ["New Year's Day", "Jan 1 – 3, 3 days off", ["Provisional"]],
    ["Spring Festival", "Feb 5 – 10, 6 days off", ["Provisional"]],
  ]);
  assert.match(visible(r.html), /Provisional: days off computed from the law; the official calendar is not out yet\./);
  assert.match(r.html, /<a class="ev-tag" href="#ev-provisional">/, "the mark leads to its note");

  s.clock.t = Date.parse("2026-02-01T00:00:00Z");
  const tw = await get(s, "/events?region=tw&tz=Asia/Taipei&lang=zh");
  const lunar = cards(tw.html).find((c) => c.date === "2026-02-17")!;
  assert.equal(lunar.name, "農曆年初一", "the region's own name where it has one in the page's language");
  assert.equal(lunar.off, "2/14 – 2/22，放假 9 天", "Intl's range in Chinese");
  assert.deepEqual(lunar.tags, [], "2026 is on the official calendar");
  assert.doesNotMatch(tw.html, /id="ev-provisional"/);
  // The name is in Taiwan's Traditional script throughout; the tag is the page's (Simplified) word.
  const observed = cards(tw.html).find((c) => c.name === "228和平紀念日 (補假)")!;
  assert.deepEqual([observed.tags, observed.off], [["补假"], null]);
  await s.close();
});

Deno.test("a year's last events are filled up with the next year's first; early in a year, the rest of it", async () => {
  const s = await setup();
  s.clock.t = Date.parse("2026-12-30T12:00:00Z");
  assert.deepEqual(cards((await get(s, "/events")).html).map((c) => `${c.date} ${c.name}`), [
    "2026-12-31 New Year's Eve",
    "2027-01-01 New Year's Day",
    "2027-02-06 Lunar New Year",
    "2027-02-14 Valentine's Day",
    "2027-03-08 International Women's Day",
  ]);
  s.clock.t = Date.parse("2026-01-10T12:00:00Z");
  const early = cards((await get(s, "/events")).html);
  assert.equal(early.length, 10);
  assert.ok(early.every((c) => c.date.startsWith("2026-")));
  await s.close();
});

Deno.test("region, tz and lang fall back without breaking: GLOBAL, UTC, English", async () => {
  const s = await setup();
  const unknown = await get(s, "/events?region=xx");
  assert.equal(unknown.status, 200);
  assert.match(unknown.html, /<option selected value="GLOBAL">International days<\/option>/);
  assert.equal(cards(unknown.html)[0].name, "Christmas Eve");
  assert.match((await get(s, "/events?region=jp")).html, /<option selected value="JP">Japan<\/option>/);
  assert.match((await get(s, "/events?region=GLOBAL")).html, /<option selected value="GLOBAL">/);

  for (const tz of ["Mars/Olympus", "+01:00", "../../etc/passwd"]) {
    const r = await get(s, `/events?tz=${encodeURIComponent(tz)}`);
    assert.equal(r.status, 200, tz);
    assert.match(visible(r.html), /Counting to midnight in UTC\./, tz);
    assert.ok(visible(r.html).includes(`“${tz}” is not a time zone, so UTC is used.`), tz);
    assert.match(r.html, /<input name="tz" value="UTC"/, tz);
  }
  // A bad zone is quoted as plain text: bidi overrides and control characters are left out, so a
  // crafted link cannot turn the sentence around it (U+202E reversed "is not a time zone…").
  const spoof = await get(s, `/events?tz=${encodeURIComponent("\u202Eenoz\u2066\nx\u0007")}`);
  assert.ok(visible(spoof.html).includes("“enozx” is not a time zone, so UTC is used."), visible(spoof.html));
  assert.doesNotMatch(spoof.html, /[\u202A-\u202E\u2066-\u2069]enoz/);
  assert.ok(!spoof.html.includes("\u0007"), "no control character");
  const none = await get(s, "/events");
  assert.match(none.html, /<input name="tz" value="UTC"/, "UTC on the server; the browser's zone once hydrated");
  assert.doesNotMatch(none.html, /class="ev-warn"/);
  assert.match(none.html, /&quot;tzGiven&quot;:false/);
  assert.match((await get(s, "/events?tz=asia/tokyo")).html, /<input name="tz" value="Asia\/Tokyo"/, "canonical name");
  // Named as the API names them: the zone database's current name, never another country's zone.
  for (
    const [asked, shown] of [["Asia/Kolkata", "Asia/Kolkata"], ["Europe/Kiev", "Europe/Kyiv"], [
      "Europe/Stockholm",
      "Europe/Stockholm",
    ]]
  ) {
    const page = (await get(s, `/events?tz=${encodeURIComponent(asked)}`)).html;
    assert.ok(page.includes(`<input name="tz" value="${shown}"`), asked);
    const api = await s.call("GET", `/api/v1/events?tz=${encodeURIComponent(asked)}`, { key: null });
    assert.equal(api.body.timezone, shown, asked);
  }

  const ko = { "accept-language": "ko-KR,ko;q=0.9" };
  assert.match((await get(s, "/events", ko)).html, /<html lang="ko">/);
  assert.match((await get(s, "/events?lang=fr", ko)).html, /<html lang="fr">/);
  assert.match((await get(s, "/events?lang=xx", ko)).html, /<html lang="en">/, "an unsupported lang is English");
  assert.match((await get(s, "/events?lang=zh-TW")).html, /<html lang="zh">/);
  await s.close();
});

Deno.test("texts come in the page's language; numbers and dates through Intl", async () => {
  const s = await setup();
  const ja = await get(s, "/events?region=JP&tz=Asia/Tokyo&lang=ja");
  const t = visible(ja.html);
  assert.match(ja.html, /<title>祝日カウントダウン · 日本<\/title>/);
  for (
    const s of [
      "祝日カウントダウン",
      "地域",
      "タイムゾーン",
      "国際デー",
      "埋め込みコード",
      "Asia/Tokyo の午前0時までを数えます。",
    ]
  ) {
    assert.ok(t.includes(s), s);
  }
  const first = cards(ja.html)[0];
  assert.equal(first.name, "勤労感謝の日", "Japan's own names on the Japanese page");
  const us = cards((await get(s, "/events?region=US&tz=America/New_York&lang=ja")).html);
  assert.ok(us.some((c) => c.name === "Thanksgiving Day"), "English where the region has no Japanese names");
  const ko = cards((await get(s, "/events?region=JP&tz=Asia/Tokyo&lang=ko")).html);
  assert.equal(ko[0].name, "Labor Thanksgiving Day", "no Korean names for Japan's days: English");
  // The list the page fetches when another region is picked is named the same way.
  const res = await s.app.app.request("http://timers.test/events/items?region=CN&lang=zh");
  const items = (await res.json()).items as { name: string; slug: string }[];
  assert.ok(items.some((i) => i.name === "春节" && i.slug === "spring-festival"), JSON.stringify(items.slice(0, 3)));
  assert.equal(first.clock, "3:00:00");
  assert.match(ja.html, /<time datetime="2026-11-23">2026年11月23日\(月\)<\/time>/);
  assert.match(ja.html, /<h2 class="ev-year" id="ev-year-2027">2027年<\/h2>/);
  assert.equal(cards(ja.html)[1].clock, "39 日 03:00:00");

  const de = await get(s, "/events?region=UK&tz=Europe/London&lang=de");
  assert.match(de.html, /<option selected value="UK">England und Wales<\/option>/);
  assert.match(de.html, /<option value="US">Vereinigte Staaten<\/option>/);
  assert.match(de.html, /<time datetime="2026-12-25">Fr\., 25\. Dez\. 2026<\/time>/);
  for (const lang of ["zh", "es", "fr", "ko"]) {
    const r = await get(s, `/events?lang=${lang}`);
    assert.match(r.html, new RegExp(`<html lang="${lang}">`));
    assert.doesNotMatch(visible(r.html), /Holiday countdowns|Time zone|Embed code/, lang);
  }
  await s.close();
});

Deno.test("each event opens as the widget counting to the same instant, with the embed builder's snippet", async () => {
  const s = await setup();
  const r = await get(s, "/events?region=JP&tz=Asia/Tokyo&lang=ko");
  for (const c of cards(r.html)) {
    const url = widgetUrl("http://timers.test", {
      type: "event",
      title: c.name,
      target_date: `${c.date}T00:00:00`,
      timezone: "Asia/Tokyo",
      lang: "ko",
    });
    assert.equal(c.href, url);
    assert.equal(c.snippet, embedSnippet(url, { width: EMBED.w, height: EMBED.h }, c.name));
    const widget = await get(s, url.replace("http://timers.test", ""));
    const clock = visible(widget.html.match(/<div class="face-time[^"]*"[\s\S]*?<\/div>/)![0]);
    assert.equal(clock, c.clock, `${c.name}: the widget shows what the list shows`);
  }
  await s.close();
});

Deno.test("the picker is a plain GET form, so it works without JavaScript", async () => {
  const s = await setup();
  const r = await get(s, "/events");
  const form = r.html.match(/<form class="ev-form" method="get" action="\/events">[\s\S]*?<\/form>/)?.[0];
  assert.ok(form, "a GET form to /events");
  for (const re of [/<select name="region">/, /<input name="tz"/, /<select name="lang">/, /<button type="submit"/]) {
    assert.match(form, re);
  }
  assert.equal((form.match(/<option /g) ?? []).length, 7 + 7, "seven lists, seven languages");
  const sent = await get(s, "/events?region=AU&tz=Australia%2FSydney&lang=en");
  assert.match(sent.html, /<option selected value="AU">Australia<\/option>/);
  assert.equal(cards(sent.html)[0].name, "Christmas Day");
  await s.close();
});

Deno.test("hostile parameters render as text and never break out", async () => {
  const s = await setup();
  for (const evil of [EVIL_SCRIPT, EVIL_ATTR]) {
    for (const name of ["region", "tz", "lang"]) {
      const r = await get(s, `/events?${name}=${encodeURIComponent(evil)}`, { "accept-language": evil });
      assert.equal(r.status, 200, name);
      assert.doesNotMatch(r.html, /<script>alert|<img src=x/, name);
      assert.equal((r.html.match(/<script\b/g) ?? []).length, 1, name);
      if (name === "tz") assert.ok(visible(r.html).includes(`“${evil}” is not a time zone`), "shown as text");
    }
  }
  await s.close();
});

Deno.test("odd input and the ends of the calendar never crash the page", async () => {
  const s = await setup();
  for (
    const q of [
      "",
      "region=",
      "region=%00",
      "region=us&region=jp",
      `tz=${"A".repeat(5000)}`,
      "tz=%E0%A4%A",
      "tz=Etc/GMT%2B12",
      "lang=%FF",
      "lang=",
      "year=abc",
    ]
  ) {
    const r = await get(s, `/events?${q}`);
    assert.equal(r.status, 200, q);
    assert.ok(cards(r.html).length >= 5, q);
  }
  assert.ok(visible((await get(s, `/events?tz=${"A".repeat(5000)}`)).html).length < 5000, "long input is cut");
  for (const at of ["1970-01-01T05:00:00Z", "2100-12-31T12:00:00Z"]) {
    s.clock.t = Date.parse(at);
    const r = await get(s, "/events?tz=Pacific/Kiritimati");
    assert.equal(r.status, 200, at);
  }
  await s.close();
});

Deno.test("the page sends the site's security headers and is linked from the home page", async () => {
  const s = await setup();
  const r = await get(s, "/events");
  const csp = r.headers.get("content-security-policy")!;
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /connect-src 'self'/);
  assert.match(csp, /frame-ancestors 'self'/);
  assert.equal(r.headers.get("cache-control"), "no-store");
  assert.match(r.headers.get("content-type")!, /text\/html; charset=utf-8/);
  assert.match((await get(s, "/")).html, /<a class="button button--quiet" href="\/events">Holiday countdowns<\/a>/);
  const api = await s.call("GET", "/api/v1/events", { key: null });
  assert.equal(api.status, 200, "the JSON API stays where it was");
  await s.close();
});
