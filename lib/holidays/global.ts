/**
 * GLOBAL: a short editorial list of internationally observed days (not days off anywhere in
 * particular), for requests without a region.
 */
import type { Holiday } from "./mod.ts";
import { slugify, ymd } from "./dates.ts";
import { movableDates } from "./movable.ts";

// [month, day, name]: fixed-date days, in calendar order.
const FIXED: readonly (readonly [number, number, string])[] = [
  [1, 1, "New Year's Day"],
  [2, 14, "Valentine's Day"],
  [3, 8, "International Women's Day"],
  [4, 22, "Earth Day"],
  [5, 1, "International Workers' Day"],
  [10, 31, "Halloween"],
  [12, 24, "Christmas Eve"],
  [12, 25, "Christmas Day"],
  [12, 31, "New Year's Eve"],
];

/** GLOBAL entries of `year`, unsorted. */
export function globalHolidays(year: number): Holiday[] {
  const m = movableDates(year);
  const out: Holiday[] = FIXED.map(([month, day, name]) => ({
    name,
    slug: slugify(name),
    date: ymd(year, month, day),
  }));
  out.push(
    { name: "Lunar New Year", slug: "lunar-new-year", date: m.lunarNewYear },
    { name: "Easter Sunday", slug: "easter-sunday", date: m.easter },
  );
  return out;
}
