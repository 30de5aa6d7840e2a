/**
 * US, UK, JP and AU lists read from date-holidays (public holidays only), with the reviewed
 * fixes of ./corrections.ts applied.
 */
import Holidays from "date-holidays";
import type { Holiday } from "./mod.ts";
import { UPSTREAM } from "./corrections.ts";
import { slugify } from "./dates.ts";

/** Regions served by date-holidays. */
export type UpstreamRegion = keyof typeof UPSTREAM;

const engines = new Map<UpstreamRegion, Holidays>();
const SUBSTITUTE_SUFFIX = / \(substitute day\)$/;

function engineFor(region: UpstreamRegion): Holidays {
  const hit = engines.get(region);
  if (hit) return hit;
  const cfg = UPSTREAM[region];
  const hd = new Holidays({ country: cfg.country, state: cfg.state }, {
    languages: ["en"],
    types: ["public"],
  });
  for (const fix of cfg.unset) {
    // A rule that no longer exists upstream means the fix needs a fresh review.
    if (!hd.unsetRule(fix.rule)) throw new Error(`${region}: upstream rule gone: ${fix.rule}`);
  }
  for (const fix of cfg.set) {
    const ok = hd.setHoliday(fix.rule, {
      name: { en: fix.name ?? fix.rule },
      type: "public",
      substitute: fix.substitute,
    });
    if (!ok) throw new Error(`${region}: rule not accepted: ${fix.rule}`);
  }
  engines.set(region, hd);
  return hd;
}

/** Public holidays of `year` in date order, substitutes flagged `observed`. */
export function upstreamHolidays(region: UpstreamRegion, year: number): Holiday[] {
  const cfg = UPSTREAM[region];
  const out: Holiday[] = [];
  for (const h of engineFor(region).getHolidays(year, "en")) {
    const date = h.date.slice(0, 10);
    // Substitutes of the previous or next year's holiday stay with the year they fall in.
    if (!date.startsWith(`${year}-`)) continue;
    // Typographic apostrophes (e.g. "Queen’s Platinum Jubilee") become ASCII, as in our names.
    const raw = h.name.replace(SUBSTITUTE_SUFFIX, "").replace(/’/g, "'");
    const base = cfg.rename[raw] ?? raw;
    if (h.substitute) {
      out.push({
        name: base + cfg.observedSuffix,
        slug: `${slugify(base)}-observed`,
        date,
        observed: true,
      });
    } else {
      out.push({ name: base, slug: slugify(base), date });
    }
  }
  return out;
}
