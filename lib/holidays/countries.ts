/**
 * Every other country date-holidays knows (ISO 3166-1 alpha-2 codes), public holidays only, as
 * the library has them: not checked by hand against official calendars as the six curated
 * regions are, so their events say `source: "date-holidays"`. Names are English (native ones by
 * lib/holidays/names.ts when asked); a stand-in day is flagged `observed`.
 */
import Holidays from "date-holidays";
import type { Holiday } from "./mod.ts";
import { slugify } from "./dates.ts";

/** Countries served by a curated list instead (GB by UK, England & Wales). */
const CURATED_COUNTRIES = new Set(["US", "CN", "TW", "JP", "AU", "GB"]);

let codes: readonly string[] | null = null;

/** The countries served from date-holidays, upper case, sorted. */
export function libraryCountries(): readonly string[] {
  codes ??= Object.freeze(
    Object.keys(new Holidays().getCountries("en")).filter((c) => /^[A-Z]{2}$/.test(c) && !CURATED_COUNTRIES.has(c))
      .sort(),
  );
  return codes;
}

export function isLibraryCountry(code: string): boolean {
  return libraryCountries().includes(code);
}

const engines = new Map<string, Holidays>();

/** Public holidays of `country` in `year`, date order as the library gives it (finish() sorts). */
export function countryHolidays(country: string, year: number): Holiday[] {
  let hd = engines.get(country);
  if (!hd) engines.set(country, hd = new Holidays(country, { types: ["public"] }));
  const out: Holiday[] = [];
  for (const h of hd.getHolidays(year, "en")) {
    const date = h.date.slice(0, 10);
    if (!date.startsWith(`${year}-`)) continue;
    const name = h.name.replace(/’/g, "'");
    // A name without Latin letters (the library has no English one) still gets a stable slug.
    const slug = slugify(name.replace(/ \((substitute|observed)[^)]*\)$/i, "")) || `holiday-${date.slice(5)}`;
    out.push(h.substitute ? { name, slug: `${slug}-observed`, date, observed: true } : { name, slug, date });
  }
  return out;
}
