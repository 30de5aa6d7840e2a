/**
 * Movable feast dates (Chinese lunisolar calendar, Qingming solar term, Western Easter),
 * computed with date-holidays' rule engine and patched where it is known to be wrong.
 */
import Holidays from "date-holidays";
import { LUNAR_CORRECTIONS } from "./corrections.ts";

/** The movable dates of one Gregorian year, each `YYYY-MM-DD`. */
export interface MovableDates {
  /** 正月初一, first day of the lunar year. */
  lunarNewYear: string;
  /** 清明, the day of the Qingming solar term (China time). */
  qingming: string;
  /** 五月初五. */
  dragonBoat: string;
  /** 八月十五. */
  midAutumn: string;
  /** Western (Gregorian) Easter Sunday. */
  easter: string;
}

// The rule grammar is date-holidays'; the keys double as the result field names.
const RULES: Record<keyof MovableDates, string> = {
  lunarNewYear: "chinese 01-0-01",
  qingming: "chinese 5-01 solarterm",
  dragonBoat: "chinese 05-0-05",
  midAutumn: "chinese 08-0-15",
  easter: "easter",
};

let engine: Holidays | undefined;
const cache = new Map<number, MovableDates>();

function getEngine(): Holidays {
  if (engine) return engine;
  // No country: an empty calendar that only holds the rules set below.
  const hd = new Holidays();
  for (const [key, rule] of Object.entries(RULES)) {
    hd.setHoliday(rule, { name: { en: key }, type: "public" });
  }
  return (engine = hd);
}

/** Movable dates of `year`, computed once per year. */
export function movableDates(year: number): MovableDates {
  const hit = cache.get(year);
  if (hit) return hit;
  const found: Partial<Record<string, string>> = {};
  for (const h of getEngine().getHolidays(year, "en")) {
    found[h.name] = h.date.slice(0, 10);
  }
  const out = {} as MovableDates;
  for (const key of Object.keys(RULES) as (keyof MovableDates)[]) {
    const date = LUNAR_CORRECTIONS[`${year}:${key}`] ?? found[key];
    if (!date) throw new Error(`no ${key} date for ${year}`);
    out[key] = date;
  }
  cache.set(year, Object.freeze(out));
  return out;
}
