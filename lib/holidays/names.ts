/**
 * Holiday names in a page's language where the region's calendar has them: date-holidays
 * carries native names (Japanese for JP, Chinese for CN and TW). A holiday takes the name of
 * date-holidays' entry on the same date (a stand-in day: its stand-in entry); anything without
 * a name in that language keeps its English name. Slugs and dates never change.
 */
import Holidays from "date-holidays";
import { UPSTREAM } from "./corrections.ts";
import type { Holiday, Region } from "./mod.ts";

/** date-holidays' country of a region; GLOBAL is our own list (English only). */
function countryOf(region: Region): string | null {
  if (region === "GLOBAL") return null;
  if (region === "CN" || region === "TW") return region;
  return (UPSTREAM as Record<string, { country: string }>)[region]?.country ?? region;
}

const engines = new Map<string, { hd: Holidays; langs: string[] }>();

function engine(country: string) {
  let e = engines.get(country);
  if (!e) {
    // Days off only: an observance on the same date is another day (a deity's birthday on 1 May).
    const hd = new Holidays(country, { types: ["public", "bank"] });
    // date-holidays calls Japanese "jp"; the page languages are BCP 47 ("ja").
    const langs = hd.getLanguages().map((l) => l === "jp" ? "ja" : l.split("-")[0]);
    engines.set(country, e = { hd, langs });
  }
  return e;
}

const cache = new Map<string, Map<string, string>>();

/** Native names of one year by `date|observed`, or null when the region has none in `lang`. */
function namesOf(region: Region, year: number, lang: string): Map<string, string> | null {
  const country = countryOf(region);
  if (!country || lang === "en") return null;
  const { hd, langs } = engine(country);
  if (!langs.includes(lang)) return null;
  const key = `${country}|${year}|${lang}`;
  let names = cache.get(key);
  if (!names) {
    names = new Map();
    for (const h of hd.getHolidays(year, lang === "ja" && hd.getLanguages().includes("jp") ? "jp" : lang)) {
      const k = `${h.date.slice(0, 10)}|${h.substitute ? 1 : 0}`;
      if (!names.has(k)) names.set(k, h.name);
    }
    if (cache.size > 64) cache.clear();
    cache.set(key, names);
  }
  return names;
}

/** The word for a stand-in day in a region's own script, where it differs from the page's: Taiwan writes Traditional. */
const OBSERVED_IN_REGION: Partial<Record<Region, Record<string, string>>> = { TW: { zh: "補假" } };

/**
 * The holidays with names in `lang` where the region's calendar has them. A stand-in day
 * without its own native entry is named after its holiday with `observed` (the page's word).
 */
export function localizeHolidays(
  region: Region,
  list: readonly Holiday[],
  lang: string,
  observed: string,
): readonly Holiday[] {
  const byYear = new Map<number, Map<string, string> | null>();
  const bySlug = new Map<string, string>();
  const native = (h: Holiday) => {
    const year = Number(h.date.slice(0, 4));
    if (!byYear.has(year)) byYear.set(year, namesOf(region, year, lang));
    return byYear.get(year)?.get(`${h.date}|${h.observed ? 1 : 0}`);
  };
  for (const h of list) {
    const name = h.observed ? undefined : native(h);
    if (name) bySlug.set(h.slug, name);
  }
  let changed = false;
  const out = list.map((h) => {
    let name = h.observed ? native(h) : bySlug.get(h.slug);
    if (!name && h.observed) {
      const base = bySlug.get(h.slug.replace(/-observed(-\d+)?$/, ""));
      if (base) name = `${base} (${OBSERVED_IN_REGION[region]?.[lang] ?? observed})`;
    }
    if (!name || name === h.name) return h;
    changed = true;
    return { ...h, name };
  });
  return changed ? out : list;
}
