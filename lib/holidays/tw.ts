/**
 * Taiwan: national holidays for everyone (DGPA office calendar), per the 紀念日及節日實施條例
 * of 2025-05-28 and the earlier 實施辦法. One entry per holiday with `days_off` = the whole
 * break; single-day holidays also get `observed` entries for their make-up days.
 */
import type { Holiday } from "./mod.ts";
import { buildBreaks, type MakeUp, type Statutory } from "./breaks.ts";
import { addDays, slugify, weekday, ymd } from "./dates.ts";
import { movableDates } from "./movable.ts";
import { TW_CALENDARS_ON_FILE } from "./official.ts";

// Teachers' Day, Retrocession Day and Constitution Day were days off until 2000 and again
// from the 2025 law on.
const restored = (year: number) => year <= 2000 || year >= 2025;

function statutory(year: number): Statutory[] {
  const m = movableDates(year);
  const ny = m.lunarNewYear;
  // Weekend make-up for every holiday dates from the 2014 amendment (in force 2015).
  const makeUp: MakeUp = year >= 2015 ? "nearest" : "none";
  const day = (name: string, date: string, days: readonly string[] = [date]): Statutory => ({
    name,
    slug: slugify(name),
    date,
    days,
    makeUp,
    observedEntries: true,
  });
  const lunarDays = [addDays(ny, -1), ny, addDays(ny, 1), addDays(ny, 2)];
  // 小年夜 (the day before the eve) became a holiday with the 2025 law.
  if (year >= 2025) lunarDays.unshift(addDays(ny, -2));
  const list: Statutory[] = [
    day("New Year's Day", ymd(year, 1, 1)),
    { ...day("Lunar New Year", ny, lunarDays), makeUp: "after", observedEntries: false },
    day("Tomb Sweeping Day", m.qingming),
    day("Dragon Boat Festival", m.dragonBoat),
    day("Mid-Autumn Festival", m.midAutumn),
    day("National Day", ymd(year, 10, 10)),
  ];
  if (year >= 1997) list.push(day("Peace Memorial Day", ymd(year, 2, 28)));
  if (year >= 2011) {
    const children = ymd(year, 4, 4);
    // Same day as Qingming: the day before, or the day after when that day is a Thursday.
    const off = children !== m.qingming ? children : addDays(children, weekday(children) === 4 ? 1 : -1);
    list.push(day("Children's Day", children, [off]));
  }
  if (year >= 2025) list.push(day("Labor Day", ymd(year, 5, 1)));
  if (restored(year)) {
    list.push(
      day("Teachers' Day", ymd(year, 9, 28)),
      day("Retrocession Day", ymd(year, 10, 25)),
      day("Constitution Day", ymd(year, 12, 25)),
    );
  }
  return list;
}

/** TW entries of `year`, unsorted. */
export function twHolidays(year: number): Holiday[] {
  return buildBreaks({
    year,
    holidays: [year - 1, year, year + 1].flatMap(statutory),
    official: TW_CALENDARS_ON_FILE.includes(year),
  });
}
