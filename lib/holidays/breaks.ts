/**
 * Days-off engine for CN and TW, where the law grants statutory days, makes up those that fall
 * on a weekend (or on another holiday's day) with a workday, and holidays merge with weekends
 * into breaks.
 */
import type { Holiday } from "./mod.ts";
import { addDays, dateRange, isWeekend, weekday } from "./dates.ts";

/** How a statutory day lost to a weekend (or to another holiday) is made up. */
export type MakeUp =
  /** Not made up. */
  | "none"
  /** First free weekday after the holiday's last statutory day. */
  | "after"
  /** Saturday → previous free weekday, Sunday or a taken day → next free weekday. */
  | "nearest";

/** One holiday as the law defines it for a given year. */
export interface Statutory {
  name: string;
  slug: string;
  /** The date counted down to (e.g. 正月初一). */
  date: string;
  /** Statutory days off, in order (may differ from `date`, e.g. a moved Children's Day). */
  days: readonly string[];
  makeUp: MakeUp;
  /** Publish made-up days as `observed` entries (single-day holidays). */
  observedEntries: boolean;
}

/** Official arrangement for one holiday: exact days off and make-up workdays. */
export interface Arranged {
  days: readonly string[];
  workdays: readonly string[];
}

/** Inputs for one year's list. */
export interface BreakInput {
  year: number;
  /** Holidays whose statutory days touch `year` (neighbour years included by the caller). */
  holidays: readonly Statutory[];
  /** Official arrangements by slug for `year`, when a notice is on file. */
  arranged?: Readonly<Record<string, Arranged>>;
  /** True when `year` was checked against the government's published calendar. */
  official: boolean;
}

function freeWeekday(from: string, step: 1 | -1, taken: Set<string>): string {
  let d = from;
  while (isWeekend(d) || taken.has(d)) d = addDays(d, step);
  return d;
}

/** Actual days off per holiday after make-up. */
function assignDaysOff(holidays: readonly Statutory[]): Map<Statutory, string[]> {
  const ordered = [...holidays].sort((a, b) => a.days[0].localeCompare(b.days[0]));
  // First claim every statutory weekday, so make-up days never land on another holiday.
  const taken = new Set<string>();
  const plans = ordered.map((h) => {
    const off: string[] = [];
    const lost: { day: string; saturday: boolean }[] = [];
    for (const day of h.days) {
      if (isWeekend(day)) lost.push({ day, saturday: weekday(day) === 6 });
      else if (taken.has(day)) lost.push({ day, saturday: false });
      else {
        taken.add(day);
        off.push(day);
      }
    }
    return { h, off, lost };
  });
  const result = new Map<Statutory, string[]>();
  for (const { h, off, lost } of plans) {
    const last = h.days[h.days.length - 1];
    for (const { day, saturday } of lost) {
      if (h.makeUp === "none") continue;
      const sub = h.makeUp === "nearest" && saturday
        ? freeWeekday(addDays(day, -1), -1, taken)
        : freeWeekday(addDays(h.makeUp === "after" ? last : day, 1), 1, taken);
      taken.add(sub);
      off.push(sub);
    }
    result.set(h, off.sort());
  }
  return result;
}

/** The consecutive non-working days around each of `seeds`, in order. */
function breakAround(seeds: readonly string[], offDay: (d: string) => boolean): string[] {
  const all = new Set<string>();
  for (const seed of seeds) {
    if (!offDay(seed)) continue;
    let from = seed;
    let to = seed;
    while (offDay(addDays(from, -1))) from = addDays(from, -1);
    while (offDay(addDays(to, 1))) to = addDays(to, 1);
    for (const d of dateRange(from, to)) all.add(d);
  }
  return [...all].sort();
}

/** Entries of `input.year`: one per holiday with `days_off`, plus `observed` make-up days. */
export function buildBreaks(input: BreakInput): Holiday[] {
  const { year, arranged } = input;
  const prefix = `${year}-`;
  const daysOff = assignDaysOff(input.holidays);
  const planFor = (h: Statutory) => h.date.startsWith(prefix) ? arranged?.[h.slug] : undefined;
  const offSet = new Set<string>();
  for (const [h, days] of daysOff) {
    // An official arrangement replaces the computed days of that holiday.
    if (!planFor(h)) { for (const d of days) offSet.add(d); }
  }
  const workdays = new Set<string>();
  for (const a of Object.values(arranged ?? {})) {
    for (const d of a.days) offSet.add(d);
    for (const d of a.workdays) workdays.add(d);
  }
  const offDay = (d: string) => offSet.has(d) || (isWeekend(d) && !workdays.has(d));

  const out: Holiday[] = [];
  for (const h of input.holidays) {
    const mine = daysOff.get(h) ?? [];
    const plan = planFor(h);
    if (h.date.startsWith(prefix)) {
      const entry: Holiday = {
        name: h.name,
        slug: h.slug,
        date: h.date,
        days_off: plan ? [...plan.days] : breakAround([h.date, ...mine], offDay),
      };
      if (plan) entry.workdays = [...plan.workdays];
      if (!plan && !input.official) entry.provisional = true;
      out.push(entry);
    }
    if (!h.observedEntries || plan) continue;
    for (const d of mine) {
      if (d === h.date || !d.startsWith(prefix)) continue;
      const entry: Holiday = { name: `${h.name} (observed)`, slug: `${h.slug}-observed`, date: d, observed: true };
      // A stand-in day is computed from the law as the holiday's own days are.
      if (!input.official) entry.provisional = true;
      out.push(entry);
    }
  }
  return out;
}
