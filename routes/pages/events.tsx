/**
 * GET /events: the public events page. Upcoming holidays of a region (or international days)
 * with countdowns to 00:00 in a time zone, rendered on the server at the request's instant and
 * hydrated as one island (islands/Events.tsx). The data is GET /api/v1/events's.
 */
import { SiteHeader } from "../../components/SiteHeader.tsx";
import Events, { coverage, covered, type EventItem, type EventsProps, zoneOf } from "../../islands/Events.tsx";
import { holidaysFor, MAX_YEAR, MIN_YEAR, type Region, REGIONS, renamedZones } from "../../lib/holidays/mod.ts";
import { localizeHolidays } from "../../lib/holidays/names.ts";
import { asLang, eventTexts, type Lang, LANG_NAMES, LANGS, negotiateLang } from "../../lib/i18n.ts";
import { island, renderPage } from "../../lib/islands.tsx";
import { displayable } from "../../lib/timers/validation.ts";

const EventsIsland = island("Events", Events);

export interface EventsQuery {
  region: Region;
  /** A canonical IANA zone; UTC when none or an invalid one was asked for. */
  tz: string;
  /** Whether the URL named a zone (else the browser's own replaces UTC once hydrated). */
  tzGiven: boolean;
  /** The `tz` asked for when it is not a zone (at most 64 characters), to say so. */
  badZone: string | null;
  lang: Lang;
}

/**
 * The page's query, never throwing: `region` in any case (anything else: GLOBAL), `tz` an IANA
 * zone (anything else: UTC), `lang` one of the seven (anything else: en; absent: Accept-Language).
 */
export function parseEventsQuery(q: URLSearchParams, acceptLanguage: string | undefined): EventsQuery {
  const code = (q.get("region") ?? "").trim().toUpperCase();
  const region = (REGIONS as readonly string[]).includes(code) ? code as Region : "GLOBAL";
  const raw = (q.get("tz") ?? "").trim();
  const zone = zoneOf(raw, renamedZones());
  return {
    region,
    tz: zone ?? "UTC",
    tzGiven: raw !== "",
    // Quoted back as text: without control characters and bidi overrides, which could turn the sentence around it.
    badZone: raw && !zone ? [...displayable(raw)].slice(0, 64).join("") : null,
    lang: q.has("lang") ? asLang(q.get("lang")) ?? "en" : negotiateLang(acceptLanguage),
  };
}

/** The events the page lists at `now`, named in `lang` where the region's calendar has names in it. */
export function eventItems(region: Region, now: number, lang: Lang): EventItem[] {
  const { from, years } = coverage(now);
  const observed = eventTexts(lang).ev_observed;
  return covered(
    years.map((y) =>
      y >= MIN_YEAR && y <= MAX_YEAR ? localizeHolidays(region, holidaysFor(region, y), lang, observed) : []
    ),
    from,
  );
}

/** Renders the page for `q` at the server instant `now`. */
export function eventsPage(siteUrl: string, now: number, q: EventsQuery, signedIn = false): string {
  const t = eventTexts(q.lang);
  const items = eventItems(q.region, now, q.lang);
  const names = new Intl.DisplayNames([q.lang], { type: "region" });
  const regions = (["GLOBAL", ...REGIONS] as const).map((code) => ({
    code,
    label: code === "GLOBAL" ? t.ev_global : code === "UK" ? t.ev_uk : names.of(code) ?? code,
  }));
  const props: EventsProps = {
    siteUrl,
    lang: q.lang,
    t,
    region: q.region,
    regions,
    languages: LANGS.map((code) => ({ code, name: LANG_NAMES[code] })),
    tz: q.tz,
    tzGiven: q.tzGiven,
    badZone: q.badZone,
    items,
    now,
    renamed: renamedZones(),
  };
  return renderPage(
    <>
      <SiteHeader lang={q.lang} signedIn={signedIn} current="holidays" />
      <header class="hero hero--events">
        <h1>{t.ev_title}</h1>
        <p class="hero-lede">{t.ev_lede}</p>
      </header>
      <main>
        <EventsIsland {...props} />
      </main>
      <footer class="site-footer">
        <p>
          <a href="/">Timer Service</a> · <a href="/docs">API</a>
        </p>
      </footer>
    </>,
    {
      lang: q.lang,
      title: `${t.ev_title} · ${regions.find((r) => r.code === q.region)!.label}`,
      description: t.ev_lede,
      css: ["site.css", "events.css"],
      bodyClass: "site",
    },
  );
}
