import assert from "node:assert/strict";
import { countdownTo, type Holiday, holidaysFor, isValidTimeZone, type Region, REGIONS, yearIn } from "./mod.ts";
import { LUNAR_CORRECTIONS } from "./corrections.ts";
import { movableDates } from "./movable.ts";
import { CN_NOTICES, SOURCES } from "./official.ts";

// "date slug", with " *" for observed (substitute) days.
const pin = (list: readonly Holiday[]) => list.map((h) => `${h.date} ${h.slug}${h.observed ? " *" : ""}`);
// "slug first..last" of each days_off break.
const breaks = (list: readonly Holiday[]) =>
  list.filter((h) => h.days_off).map((h) =>
    `${h.slug} ${h.days_off![0]}..${h.days_off!.at(-1)}${h.provisional ? " provisional" : ""}`
  );

// Checked against the sources in lib/holidays/official.ts (SOURCES).
const EXPECTED: Record<Region, Record<number, string[]>> = {
  US: {
    2026: [
      "2026-01-01 new-years-day",
      "2026-01-19 martin-luther-king-jr-day",
      "2026-02-16 washingtons-birthday",
      "2026-05-25 memorial-day",
      "2026-06-19 juneteenth",
      "2026-07-03 independence-day-observed *",
      "2026-07-04 independence-day",
      "2026-09-07 labor-day",
      "2026-10-12 columbus-day",
      "2026-11-11 veterans-day",
      "2026-11-26 thanksgiving-day",
      "2026-12-25 christmas-day",
    ],
    2027: [
      "2027-01-01 new-years-day",
      "2027-01-18 martin-luther-king-jr-day",
      "2027-02-15 washingtons-birthday",
      "2027-05-31 memorial-day",
      "2027-06-18 juneteenth-observed *",
      "2027-06-19 juneteenth",
      "2027-07-04 independence-day",
      "2027-07-05 independence-day-observed *",
      "2027-09-06 labor-day",
      "2027-10-11 columbus-day",
      "2027-11-11 veterans-day",
      "2027-11-25 thanksgiving-day",
      "2027-12-24 christmas-day-observed *",
      "2027-12-25 christmas-day",
      // New Year's Day 2028 is a Saturday: observed on Friday 31 Dec 2027.
      "2027-12-31 new-years-day-observed *",
    ],
  },
  CN: {
    2026: [
      "2026-01-01 new-years-day",
      "2026-02-17 spring-festival",
      "2026-04-05 qingming-festival",
      "2026-05-01 labor-day",
      "2026-06-19 dragon-boat-festival",
      "2026-09-25 mid-autumn-festival",
      "2026-10-01 national-day",
    ],
    2027: [
      "2027-01-01 new-years-day",
      "2027-02-06 spring-festival",
      "2027-04-05 qingming-festival",
      "2027-05-01 labor-day",
      "2027-06-09 dragon-boat-festival",
      "2027-09-15 mid-autumn-festival",
      "2027-10-01 national-day",
    ],
  },
  TW: {
    2026: [
      "2026-01-01 new-years-day",
      "2026-02-17 lunar-new-year",
      "2026-02-27 peace-memorial-day-observed *",
      "2026-02-28 peace-memorial-day",
      "2026-04-03 childrens-day-observed *",
      "2026-04-04 childrens-day",
      "2026-04-05 tomb-sweeping-day",
      "2026-04-06 tomb-sweeping-day-observed *",
      "2026-05-01 labor-day",
      "2026-06-19 dragon-boat-festival",
      "2026-09-25 mid-autumn-festival",
      "2026-09-28 teachers-day",
      "2026-10-09 national-day-observed *",
      "2026-10-10 national-day",
      "2026-10-25 retrocession-day",
      "2026-10-26 retrocession-day-observed *",
      "2026-12-25 constitution-day",
    ],
    2027: [
      "2027-01-01 new-years-day",
      "2027-02-06 lunar-new-year",
      "2027-02-28 peace-memorial-day",
      "2027-03-01 peace-memorial-day-observed *",
      "2027-04-04 childrens-day",
      "2027-04-05 tomb-sweeping-day",
      // Children's Day (Sunday) is made up on the next workday after Tomb Sweeping Day.
      "2027-04-06 childrens-day-observed *",
      "2027-04-30 labor-day-observed *",
      "2027-05-01 labor-day",
      "2027-06-09 dragon-boat-festival",
      "2027-09-15 mid-autumn-festival",
      "2027-09-28 teachers-day",
      "2027-10-10 national-day",
      "2027-10-11 national-day-observed *",
      "2027-10-25 retrocession-day",
      "2027-12-24 constitution-day-observed *",
      "2027-12-25 constitution-day",
      "2027-12-31 new-years-day-observed *",
    ],
  },
  UK: {
    2026: [
      "2026-01-01 new-years-day",
      "2026-04-03 good-friday",
      "2026-04-06 easter-monday",
      "2026-05-04 early-may-bank-holiday",
      "2026-05-25 spring-bank-holiday",
      "2026-08-31 summer-bank-holiday",
      "2026-12-25 christmas-day",
      "2026-12-26 boxing-day",
      "2026-12-28 boxing-day-observed *",
    ],
    2027: [
      "2027-01-01 new-years-day",
      "2027-03-26 good-friday",
      "2027-03-29 easter-monday",
      "2027-05-03 early-may-bank-holiday",
      "2027-05-31 spring-bank-holiday",
      "2027-08-30 summer-bank-holiday",
      "2027-12-25 christmas-day",
      "2027-12-26 boxing-day",
      "2027-12-27 christmas-day-observed *",
      "2027-12-28 boxing-day-observed *",
    ],
  },
  JP: {
    2026: [
      "2026-01-01 new-years-day",
      "2026-01-12 coming-of-age-day",
      "2026-02-11 national-foundation-day",
      "2026-02-23 emperors-birthday",
      "2026-03-20 vernal-equinox-day",
      "2026-04-29 showa-day",
      "2026-05-03 constitution-memorial-day",
      "2026-05-04 greenery-day",
      "2026-05-05 childrens-day",
      "2026-05-06 constitution-memorial-day-observed *",
      "2026-07-20 marine-day",
      "2026-08-11 mountain-day",
      "2026-09-21 respect-for-the-aged-day",
      "2026-09-22 citizens-holiday",
      "2026-09-23 autumnal-equinox-day",
      "2026-10-12 sports-day",
      "2026-11-03 culture-day",
      "2026-11-23 labor-thanksgiving-day",
    ],
    2027: [
      "2027-01-01 new-years-day",
      "2027-01-11 coming-of-age-day",
      "2027-02-11 national-foundation-day",
      "2027-02-23 emperors-birthday",
      "2027-03-21 vernal-equinox-day",
      "2027-03-22 vernal-equinox-day-observed *",
      "2027-04-29 showa-day",
      "2027-05-03 constitution-memorial-day",
      "2027-05-04 greenery-day",
      "2027-05-05 childrens-day",
      "2027-07-19 marine-day",
      "2027-08-11 mountain-day",
      "2027-09-20 respect-for-the-aged-day",
      "2027-09-23 autumnal-equinox-day",
      "2027-10-11 sports-day",
      "2027-11-03 culture-day",
      "2027-11-23 labor-thanksgiving-day",
    ],
  },
  AU: {
    2026: [
      "2026-01-01 new-years-day",
      "2026-01-26 australia-day",
      "2026-04-03 good-friday",
      "2026-04-06 easter-monday",
      "2026-04-25 anzac-day",
      "2026-12-25 christmas-day",
      "2026-12-26 boxing-day",
      "2026-12-28 boxing-day-observed *",
    ],
    2027: [
      "2027-01-01 new-years-day",
      "2027-01-26 australia-day",
      "2027-03-26 good-friday",
      "2027-03-29 easter-monday",
      "2027-04-25 anzac-day",
      "2027-12-25 christmas-day",
      "2027-12-26 boxing-day",
      "2027-12-27 christmas-day-observed *",
      "2027-12-28 boxing-day-observed *",
    ],
  },
  GLOBAL: {
    2026: [
      "2026-01-01 new-years-day",
      "2026-02-14 valentines-day",
      "2026-02-17 lunar-new-year",
      "2026-03-08 international-womens-day",
      "2026-04-05 easter-sunday",
      "2026-04-22 earth-day",
      "2026-05-01 international-workers-day",
      "2026-10-31 halloween",
      "2026-12-24 christmas-eve",
      "2026-12-25 christmas-day",
      "2026-12-31 new-years-eve",
    ],
    2027: [
      "2027-01-01 new-years-day",
      "2027-02-06 lunar-new-year",
      "2027-02-14 valentines-day",
      "2027-03-08 international-womens-day",
      "2027-03-28 easter-sunday",
      "2027-04-22 earth-day",
      "2027-05-01 international-workers-day",
      "2027-10-31 halloween",
      "2027-12-24 christmas-eve",
      "2027-12-25 christmas-day",
      "2027-12-31 new-years-eve",
    ],
  },
};

for (const region of [...REGIONS, "GLOBAL"] as const) {
  for (const year of [2026, 2027]) {
    Deno.test(`holidaysFor ${region} ${year}: full official list (date + slug)`, () => {
      assert.deepEqual(pin(holidaysFor(region, year)), EXPECTED[region][year]);
    });
  }
  Deno.test(`holidaysFor ${region}: well-formed for every year 1970-2100`, () => {
    for (let year = 1970; year <= 2100; year += region === "CN" ? 13 : 1) {
      const list = holidaysFor(region, year);
      assert.ok(list.length >= 4, `${region} ${year} too short`);
      assert.equal(new Set(list.map((h) => h.slug)).size, list.length, `${region} ${year}`);
      for (const [i, h] of list.entries()) {
        assert.match(h.slug, /^[a-z0-9]+(-[a-z0-9]+)*$/);
        assert.match(h.name, /^[A-Z][\x20-\x7e]*$/, "English name");
        assert.ok(h.date.startsWith(`${year}-`), `${h.slug} ${h.date} in ${year}`);
        if (i > 0) assert.ok(list[i - 1].date <= h.date, "date order");
      }
    }
  });
}

Deno.test("CN 2026: days off and make-up workdays follow the State Council notice", () => {
  const list = holidaysFor("CN", 2026);
  assert.deepEqual(breaks(list), [
    "new-years-day 2026-01-01..2026-01-03",
    "spring-festival 2026-02-15..2026-02-23",
    "qingming-festival 2026-04-04..2026-04-06",
    "labor-day 2026-05-01..2026-05-05",
    "dragon-boat-festival 2026-06-19..2026-06-21",
    "mid-autumn-festival 2026-09-25..2026-09-27",
    "national-day 2026-10-01..2026-10-07",
  ]);
  const spring = list.find((h) => h.slug === "spring-festival")!;
  assert.equal(spring.days_off!.length, 9);
  assert.deepEqual(spring.workdays, ["2026-02-14", "2026-02-28"]);
  assert.deepEqual(list.find((h) => h.slug === "national-day")!.workdays, [
    "2026-09-20",
    "2026-10-10",
  ]);
  assert.equal(CN_NOTICES[2026].checked, SOURCES.CN.checked);
});

Deno.test("CN 2027: no notice yet, so breaks are computed from the law and provisional", () => {
  const list = holidaysFor("CN", 2027);
  assert.deepEqual(breaks(list), [
    "new-years-day 2027-01-01..2027-01-03 provisional",
    // Eve (Fri) + days 1-3; Sat 6 and Sun 7 are made up on Tue 9 and Wed 10.
    "spring-festival 2027-02-05..2027-02-10 provisional",
    "qingming-festival 2027-04-03..2027-04-05 provisional",
    "labor-day 2027-05-01..2027-05-04 provisional",
    "dragon-boat-festival 2027-06-09..2027-06-09 provisional",
    "mid-autumn-festival 2027-09-15..2027-09-15 provisional",
    "national-day 2027-10-01..2027-10-05 provisional",
  ]);
  assert.ok(list.every((h) => h.workdays === undefined));
});

Deno.test("TW 2026: breaks match the DGPA calendar (120 days off)", () => {
  const list = holidaysFor("TW", 2026);
  assert.deepEqual(breaks(list), [
    "new-years-day 2026-01-01..2026-01-01",
    // 小年夜 (Sun 15) is made up on Fri 20: nine days, 14-22 February.
    "lunar-new-year 2026-02-14..2026-02-22",
    "peace-memorial-day 2026-02-27..2026-03-01",
    "childrens-day 2026-04-03..2026-04-06",
    "tomb-sweeping-day 2026-04-03..2026-04-06",
    "labor-day 2026-05-01..2026-05-03",
    "dragon-boat-festival 2026-06-19..2026-06-21",
    "mid-autumn-festival 2026-09-25..2026-09-28",
    "teachers-day 2026-09-25..2026-09-28",
    "national-day 2026-10-09..2026-10-11",
    "retrocession-day 2026-10-24..2026-10-26",
    "constitution-day 2026-12-25..2026-12-27",
  ]);
  // 104 weekend days plus every weekday off = the DGPA's 120.
  const weekdaysOff = new Set<string>();
  for (const h of list) {
    for (const d of h.days_off ?? []) {
      const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
      if (wd !== 0 && wd !== 6 && d.startsWith("2026")) weekdaysOff.add(d);
    }
  }
  assert.equal(104 + weekdaysOff.size, 120);
});

Deno.test("TW 2027: computed from the 2025 law and marked provisional", () => {
  const list = holidaysFor("TW", 2027);
  const lny = list.find((h) => h.slug === "lunar-new-year")!;
  // 小年夜 Thu 4 … 初三 Mon 8; the Saturday and Sunday are made up on Tue 9 and Wed 10.
  assert.deepEqual(lny.days_off, [
    "2027-02-04",
    "2027-02-05",
    "2027-02-06",
    "2027-02-07",
    "2027-02-08",
    "2027-02-09",
    "2027-02-10",
  ]);
  assert.ok(list.every((h) => h.provisional === true), "observed (stand-in) days are computed from the law too");
  assert.deepEqual(list.filter((h) => h.observed).map((h) => h.date), [
    "2027-03-01",
    "2027-04-06",
    "2027-04-30",
    "2027-10-11",
    "2027-12-24",
    "2027-12-31",
  ]);
  assert.ok(holidaysFor("TW", 2026).every((h) => h.provisional === undefined), "2026 is the DGPA's calendar");
});

Deno.test("holidaysFor caches per (region, year) and returns frozen data", () => {
  const a = holidaysFor("JP", 2026);
  assert.equal(holidaysFor("JP", 2026), a);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a[0]));
  assert.ok(Object.isFrozen(holidaysFor("CN", 2026)[1].days_off));
  assert.throws(() => (a as Holiday[]).push(a[0]), TypeError);
});

Deno.test("holidaysFor rejects years outside 1970-2100 and unknown regions", () => {
  for (const year of [1969, 2101, 2026.5, NaN]) {
    assert.throws(() => holidaysFor("US", year), RangeError);
  }
  assert.throws(() => holidaysFor("XX" as Region, 2026), RangeError);
  assert.throws(() => holidaysFor("fr" as Region, 2026), RangeError, "upper case only");
});

Deno.test("movable dates apply the reviewed lunar corrections", () => {
  assert.equal(movableDates(2033).midAutumn, "2033-09-08");
  for (const [key, date] of Object.entries(LUNAR_CORRECTIONS)) {
    const [year, field] = key.split(":");
    assert.equal(movableDates(Number(year))[field as "midAutumn"], date);
  }
  assert.deepEqual(movableDates(2026), {
    lunarNewYear: "2026-02-17",
    qingming: "2026-04-05",
    dragonBoat: "2026-06-19",
    midAutumn: "2026-09-25",
    easter: "2026-04-05",
  });
});

Deno.test("US Veterans Day gets its Friday/Monday observed day (date-holidays fix)", () => {
  assert.ok(pin(holidaysFor("US", 2023)).includes("2023-11-10 veterans-day-observed *"));
  assert.ok(pin(holidaysFor("US", 2029)).includes("2029-11-12 veterans-day-observed *"));
});

Deno.test("AU keeps 26 January and adds the Monday when Australia Day is on a weekend", () => {
  const list = pin(holidaysFor("AU", 2025));
  assert.ok(list.includes("2025-01-26 australia-day"));
  assert.ok(list.includes("2025-01-27 australia-day-observed *"));
  assert.ok(!list.some((l) => l.includes("easter-saturday") || l.includes("easter-sunday")));
});

const utc = (iso: string) => Date.parse(iso);
const zero = { days: 0, hours: 0, minutes: 0, seconds: 0, total_seconds: 0 };

Deno.test("countdownTo: already the day in Asia/Tokyo, still the eve in Los Angeles", () => {
  const now = utc("2026-12-24T16:00:00Z"); // Tokyo 25 Dec 01:00, LA 24 Dec 08:00
  assert.deepEqual(countdownTo("2026-12-25", "Asia/Tokyo", now), {
    remaining: zero,
    passed: false,
  });
  assert.deepEqual(countdownTo("2026-12-25", "America/Los_Angeles", now), {
    remaining: { days: 0, hours: 16, minutes: 0, seconds: 0, total_seconds: 57_600 },
    passed: false,
  });
  assert.equal(countdownTo("2026-12-24", "Asia/Tokyo", now).passed, true);
  assert.equal(countdownTo("2026-12-24", "America/Los_Angeles", now).passed, false);
});

Deno.test("countdownTo: passed flag and rounding at the day boundary", () => {
  const midnight = utc("2026-07-04T00:00:00Z");
  assert.deepEqual(countdownTo("2026-07-04", "UTC", midnight - 500), {
    remaining: { days: 0, hours: 0, minutes: 0, seconds: 1, total_seconds: 1 },
    passed: false,
  });
  assert.deepEqual(countdownTo("2026-07-04", "UTC", midnight), { remaining: zero, passed: false });
  const lastSecond = midnight + 86_400_000 - 1;
  assert.deepEqual(countdownTo("2026-07-04", "UTC", lastSecond), {
    remaining: zero,
    passed: false,
  });
  assert.deepEqual(countdownTo("2026-07-04", "UTC", lastSecond + 1), {
    remaining: zero,
    passed: true,
  });
  assert.deepEqual(countdownTo("2027-07-05", "UTC", midnight + 3_723_000).remaining, {
    days: 365,
    hours: 22,
    minutes: 57,
    seconds: 57,
    total_seconds: 31_618_677,
  });
});

// [zone, from (UTC instant of local midnight), target date, expected seconds]
const DST_CASES: [string, string, string, number][] = [
  // New York springs forward on 8 Mar 2026: that day has 23 hours.
  ["America/New_York", "2026-03-08T05:00:00Z", "2026-03-09", 23 * 3600],
  ["America/New_York", "2026-03-07T05:00:00Z", "2026-03-09", 47 * 3600],
  ["America/New_York", "2026-11-01T04:00:00Z", "2026-11-02", 25 * 3600],
  // London: BST starts 29 Mar 2026 and ends 25 Oct 2026.
  ["Europe/London", "2026-03-29T00:00:00Z", "2026-03-30", 23 * 3600],
  ["Europe/London", "2026-10-24T23:00:00Z", "2026-10-26", 25 * 3600],
  // Sydney: daylight time ends 5 Apr 2026 and starts 4 Oct 2026.
  ["Australia/Sydney", "2026-04-04T13:00:00Z", "2026-04-06", 25 * 3600],
  ["Australia/Sydney", "2026-10-03T14:00:00Z", "2026-10-05", 23 * 3600],
];

for (const [tz, from, date, seconds] of DST_CASES) {
  Deno.test(`countdownTo across DST: ${tz} → ${date}`, () => {
    const { remaining, passed } = countdownTo(date, tz, utc(from));
    assert.equal(passed, false);
    assert.equal(remaining.total_seconds, seconds);
    assert.equal(
      remaining.days * 86_400 + remaining.hours * 3600 + remaining.minutes * 60 +
        remaining.seconds,
      seconds,
    );
  });
}

Deno.test("countdownTo: a day whose midnight is skipped starts at 01:00 (Santiago)", () => {
  // Chile springs forward at 24:00 on Sat 5 Sep 2026: 6 Sep begins at 01:00 -03 = 04:00Z.
  const now = utc("2026-09-05T16:00:00Z");
  assert.equal(countdownTo("2026-09-06", "America/Santiago", now).remaining.total_seconds, 43_200);
  assert.equal(
    countdownTo("2026-09-06", "America/Santiago", utc("2026-09-06T04:00:00Z")).passed,
    false,
  );
});

Deno.test("countdownTo rejects a malformed date", () => {
  assert.throws(() => countdownTo("2026-7-4", "UTC", 0), RangeError);
});

Deno.test("isValidTimeZone", () => {
  for (const tz of ["UTC", "Asia/Tokyo", "America/Los_Angeles", "Etc/GMT+5", "Europe/London"]) {
    assert.equal(isValidTimeZone(tz), true, tz);
  }
  for (const tz of ["Mars/Olympus", "", "+01:00", "-05:00", "Not a zone"]) {
    assert.equal(isValidTimeZone(tz), false, tz);
  }
});

Deno.test("yearIn", () => {
  const now = utc("2026-12-31T20:00:00Z");
  assert.equal(yearIn("Asia/Tokyo", now), 2027);
  assert.equal(yearIn("UTC", now), 2026);
  assert.equal(yearIn("America/Los_Angeles", now), 2026);
  const later = utc("2027-01-01T05:00:00Z");
  assert.equal(yearIn("Pacific/Kiritimati", later), 2027);
  assert.equal(yearIn("Pacific/Pago_Pago", later), 2026);
});
