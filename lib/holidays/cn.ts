/**
 * Mainland China: the seven statutory holidays of 全国年节及纪念日放假办法 (days off for all
 * citizens only; group half-days such as Women's Day are not listed). One entry per holiday on
 * its own date, with `days_off` = the whole break.
 */
import type { Holiday } from "./mod.ts";
import { type Arranged, buildBreaks, type Statutory } from "./breaks.ts";
import { addDays, dateRange, slugify, ymd } from "./dates.ts";
import { movableDates } from "./movable.ts";
import { CN_NOTICES } from "./official.ts";

// Eras of the 放假办法: 1999 revision (in force 2000), 2007 (2008), 2013 (2014), 2024 (2025).
function statutory(year: number): Statutory[] {
  const m = movableDates(year);
  const ny = m.lunarNewYear;
  const springDays = year >= 2025
    ? [addDays(ny, -1), ny, addDays(ny, 1), addDays(ny, 2)]
    : year >= 2008 && year < 2014
    ? [addDays(ny, -1), ny, addDays(ny, 1)]
    : [ny, addDays(ny, 1), addDays(ny, 2)];
  const labourDays = year >= 2025
    ? dateRange(ymd(year, 5, 1), ymd(year, 5, 2))
    : year >= 2000 && year < 2008
    ? dateRange(ymd(year, 5, 1), ymd(year, 5, 3))
    : [ymd(year, 5, 1)];
  const nationalDays = dateRange(ymd(year, 10, 1), ymd(year, 10, year >= 2000 ? 3 : 2));
  const day = (name: string, date: string, days: readonly string[] = [date]): Statutory => ({
    name,
    slug: slugify(name),
    date,
    days,
    makeUp: "after",
    observedEntries: false,
  });
  const list = [
    day("New Year's Day", ymd(year, 1, 1)),
    day("Spring Festival", ny, springDays),
    day("Labor Day", ymd(year, 5, 1), labourDays),
    day("National Day", ymd(year, 10, 1), nationalDays),
  ];
  // Traditional festivals became days off in 2008.
  if (year >= 2008) {
    list.push(
      day("Qingming Festival", m.qingming),
      day("Dragon Boat Festival", m.dragonBoat),
      day("Mid-Autumn Festival", m.midAutumn),
    );
  }
  return list;
}

/** CN entries of `year`, unsorted. */
export function cnHolidays(year: number): Holiday[] {
  const notice = CN_NOTICES[year];
  let arranged: Record<string, Arranged> | undefined;
  if (notice) {
    arranged = {};
    for (const [slug, b] of Object.entries(notice.breaks)) {
      arranged[slug] = { days: dateRange(b.from, b.to), workdays: b.workdays };
    }
  }
  return buildBreaks({
    year,
    holidays: [year - 1, year, year + 1].flatMap(statutory),
    arranged,
    official: notice !== undefined,
  });
}
