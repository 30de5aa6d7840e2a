/**
 * Reviewed corrections to date-holidays@3.37.0. Every entry names the official source it was
 * checked against and when. The code applies these tables as they stand, so a change here is a
 * reviewed data change, and the pinned lists in lib/holidays/holidays_test.ts must move with it.
 */

/** Date on which the sources below were last read. */
export const CHECKED = "2026-11-22";

/** One change to an upstream calendar, with its justification. */
export interface Fix {
  /** Upstream rule string (date-holidays grammar) being removed, or the rule being added. */
  rule: string;
  /** English name for an added rule. */
  name?: string;
  /** Added rule yields weekday stand-ins that are flagged as substitutes. */
  substitute?: boolean;
  why: string;
  source: string;
  checked: string;
}

/** How one region is read from date-holidays. */
export interface UpstreamConfig {
  country: string;
  state?: string;
  /** Upstream public rules that are wrong for this region. */
  unset: readonly Fix[];
  /** Rules added in their place. */
  set: readonly Fix[];
  /** Upstream English name → the name we publish (official English usage). */
  rename: Readonly<Record<string, string>>;
  /** Appended to a holiday's name on its weekday stand-in. */
  observedSuffix: string;
}

const OPM = "https://www.opm.gov/policy-data-oversight/pay-leave/federal-holidays/";
const FAIR_WORK =
  "https://fairwork.gov.au/how-we-will-help/templates-and-guides/fact-sheets/minimum-workplace-entitlements/public-holidays";
const FW_ACT = "http://classic.austlii.edu.au/au/legis/cth/consol_act/fwa2009114/s115.html";

/** US, UK, JP and AU come from date-holidays, filtered to type "public", with these fixes. */
export const UPSTREAM: Readonly<Record<"US" | "UK" | "JP" | "AU", UpstreamConfig>> = {
  US: {
    country: "US",
    unset: [{
      rule: "11-11",
      why: "Veterans Day had no Friday/Monday observed day for federal employees (upstream only as a 'bank' rule)",
      source: `${OPM} (5 U.S.C. 6103(b), E.O. 11582; e.g. Fri 2023-11-10)`,
      checked: CHECKED,
    }],
    set: [{
      rule: "11-11 and if sunday then next monday if saturday then previous friday",
      name: "Veterans Day",
      substitute: true,
      why: "same in-lieu rule OPM applies to every fixed-date federal holiday",
      source: OPM,
      checked: CHECKED,
    }],
    rename: { "Labour Day": "Labor Day" },
    observedSuffix: " (observed)",
  },
  UK: {
    country: "GB",
    state: "ENG",
    unset: [],
    set: [],
    rename: {},
    observedSuffix: " (substitute day)",
  },
  JP: {
    country: "JP",
    unset: [],
    set: [],
    // Cabinet Office English names (https://www8.cao.go.jp/chosei/shukujitsu/gaiyou.html).
    rename: {
      "Foundation Day": "National Foundation Day",
      "Spring Equinox Day": "Vernal Equinox Day",
      "Constitution Day": "Constitution Memorial Day",
      "Respect-for-the-Aged Day": "Respect for the Aged Day",
      "Coronation Day": "Enthronement Day",
    },
    observedSuffix: " (substitute holiday)",
  },
  AU: {
    country: "AU",
    unset: [
      {
        rule: "easter -1",
        why: "Easter Saturday is a state holiday (not in TAS), not a national one",
        source: FW_ACT,
        checked: CHECKED,
      },
      {
        rule: "easter",
        why: "Easter Sunday is a state holiday in some states only",
        source: FW_ACT,
        checked: CHECKED,
      },
      {
        rule: "01-01 and if saturday,sunday then next monday",
        why: "the Monday stand-in was not flagged as a substitute",
        source: FAIR_WORK,
        checked: CHECKED,
      },
      {
        rule: "01-26 if saturday,sunday then next monday",
        why: "moved Australia Day itself to the Monday instead of keeping 26 January",
        source: FAIR_WORK,
        checked: CHECKED,
      },
    ],
    set: [
      {
        rule: "01-01 and if saturday,sunday then next monday",
        name: "New Year's Day",
        substitute: true,
        why: "every state adds the following Monday",
        source: FAIR_WORK,
        checked: CHECKED,
      },
      {
        rule: "01-26 and if saturday,sunday then next monday",
        name: "Australia Day",
        substitute: true,
        why: "26 January stays the day; every state adds the following Monday (uniform since " +
          "1994; applied to earlier years too)",
        source: FAIR_WORK,
        checked: CHECKED,
      },
    ],
    rename: {},
    observedSuffix: " (observed)",
  },
};

/**
 * Lunar dates where date-chinese (used by date-holidays) disagrees with the npm package
 * lunar-javascript@1.7.7 over 1970–2100 (compared on CHECKED for lunar new year, Qingming,
 * Dragon Boat and Mid-Autumn): one-day slips when the new moon falls near Beijing midnight,
 * and 2033, whose leap month is the 11th, not the 7th, so Mid-Autumn is 8 September
 * (http://blog.chinaunix.net/uid-384521-id-2411627.html). Only 2033 is confirmed by a
 * published explanation; the others rest on the second library. None touches 2026/2027.
 * Key: `year:field` of MovableDates.
 */
export const LUNAR_CORRECTIONS: Readonly<Record<string, string>> = {
  "1972:midAutumn": "1972-09-22",
  "1982:dragonBoat": "1982-06-25",
  "2033:midAutumn": "2033-09-08",
  "2039:midAutumn": "2039-10-02",
  "2053:dragonBoat": "2053-06-20",
  "2059:midAutumn": "2059-09-21",
  "2077:midAutumn": "2077-10-01",
  "2080:dragonBoat": "2080-06-22",
  "2093:dragonBoat": "2093-05-29",
};
