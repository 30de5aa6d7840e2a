/**
 * The events page's island (/events): a region's upcoming holidays with live countdowns to
 * 00:00 of each date in a time zone, a picker that is also a plain GET form, and per event a
 * shareable widget link and its embed snippet. Countdowns are computed from the clock and the
 * server clock offset at every tick, never by counting ticks.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { pageOffset } from "../components/page_clock.ts";
import {
  clockParts,
  EMBED,
  embedSnippet,
  fill,
  isTimeZone,
  milestone,
  parseTargetDate,
  spokenDuration,
  widgetUrl,
  zoneOffset,
} from "../lib/display.ts";
import type { EventTexts } from "../lib/i18n.ts";

/** One event as GET /api/v1/events lists it: the fields this page uses. */
export interface EventItem {
  name: string;
  slug: string;
  /** `YYYY-MM-DD` */
  date: string;
  observed?: boolean;
  days_off?: readonly string[];
  provisional?: boolean;
}

export interface EventsProps {
  siteUrl: string;
  lang: string;
  t: EventTexts;
  /** A region code or "GLOBAL". */
  region: string;
  regions: { code: string; label: string }[];
  languages: { code: string; name: string }[];
  tz: string;
  /** Whether `tz` came from the URL; otherwise the browser's zone replaces UTC once hydrated. */
  tzGiven: boolean;
  /** A `tz` parameter that is not a zone (UTC is used), to say so. */
  badZone: string | null;
  /** The region's events that some zone still awaits (see `coverage`). */
  items: EventItem[];
  /** The server's instant of this render, epoch ms. */
  now: number;
  /** Zones ICU calls by an old name, by that name (Asia/Calcutta → Asia/Kolkata): the API's names. */
  renamed: Record<string, string>;
}

/** At least this many events are listed: next year's first ones fill a year's last weeks. */
export const MIN_LISTED = 5;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * What a list must hold at `now` for every zone from UTC−12 to UTC+14: the dates from `from`
 * of `years`, the last of which only fills up short lists.
 */
export function coverage(now: number): { from: string; years: number[] } {
  const from = isoDay(now - 12 * 3600_000);
  const years = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(isoDay(now + 14 * 3600_000).slice(0, 4)) + 1; y++) years.push(y);
  return { from, years };
}

/** The events of one list per year of `coverage` that some zone still awaits, slimmed to EventItem. */
export function covered(lists: readonly (readonly EventItem[])[], from: string): EventItem[] {
  return lists.flatMap((list, i) => i === lists.length - 1 ? list.slice(0, MIN_LISTED) : list)
    .filter((e) => e.date >= from)
    .map(({ name, slug, date, observed, days_off, provisional }) => ({
      name,
      slug,
      date,
      observed,
      days_off,
      provisional,
    }));
}

/**
 * The canonical name of an IANA zone as the API spells it (ICU's, with `renamed` applied), or
 * null (UTC offsets such as "+01:00" are not zones).
 */
export function zoneOf(raw: string | null | undefined, renamed: Record<string, string>): string | null {
  const s = raw?.trim() ?? "";
  if (!/^[A-Za-z]/.test(s) || !isTimeZone(s)) return null;
  const icu = new Intl.DateTimeFormat("en", { timeZone: s }).resolvedOptions().timeZone;
  return renamed[icu] ?? icu;
}

/** The events still ahead in `tz` at `now`, today's included: the rest of this year, at least MIN_LISTED. */
export function upcoming(items: readonly EventItem[], tz: string, now: number): { today: string; list: EventItem[] } {
  const today = isoDay(now + zoneOffset(now, tz));
  const left = items.filter((e) => e.date >= today);
  const thisYear = left.filter((e) => e.date.slice(0, 4) === today.slice(0, 4)).length;
  return { today, list: left.slice(0, Math.max(MIN_LISTED, thisYear)) };
}

/** Whole seconds (rounded up) from `now` to 00:00 of `date` in `tz`: the widget's own reading of the date. */
export const secondsTo = (date: string, tz: string, now: number) =>
  Math.max(0, Math.ceil((parseTargetDate(date, tz)! - now) / 1000));

let offset: number | null = null;
/** The server's clock: this device's, corrected once by when the page arrived (`at`: its render instant). */
const serverNow = (at: number) => Date.now() + (offset ??= pageOffset(at));

const dtfs = new Map<string, Intl.DateTimeFormat>();
function dtf(lang: string, o: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const k = lang + JSON.stringify(o);
  let f = dtfs.get(k);
  if (!f) dtfs.set(k, f = new Intl.DateTimeFormat(lang, { ...o, timeZone: "UTC" }));
  return f;
}

export default function Events(p: EventsProps) {
  const { t } = p;
  // What is listed, and the years it covers (a page left open into a new year fetches again).
  const [shown, setShown] = useState({ region: p.region, items: p.items, years: coverage(p.now).years.join() });
  const [choice, setChoice] = useState(p.region);
  const [tz, setTz] = useState(p.tz);
  const [badZone, setBadZone] = useState(p.badZone);
  const [status, setStatus] = useState("");
  const [ready, setReady] = useState(false);
  const [zones, setZones] = useState<string[]>([]);
  const given = useRef(p.tzGiven);
  const request = useRef(0);
  const zoneInput = useRef<HTMLInputElement>(null);
  const label = (code: string) => p.regions.find((r) => r.code === code)?.label ?? code;

  useEffect(() => {
    const own = zoneOf(Intl.DateTimeFormat().resolvedOptions().timeZone, p.renamed);
    if (!p.tzGiven && own) setTz(zoneInput.current!.value = own);
    try {
      setZones([...new Set(Intl.supportedValuesOf("timeZone").map((z) => p.renamed[z] ?? z))].sort());
    } catch { /* older browsers: free text */ }
    setReady(true);
  }, []);

  useEffect(() => {
    if (!status) return;
    const h = setTimeout(() => setStatus(""), 6000);
    return () => clearTimeout(h);
  }, [status]);

  /** Puts the shown region and an explicitly chosen zone in the address, for sharing and reloads. */
  function remember(region: string, zone: string) {
    const u = new URL(location.href);
    if (region === "GLOBAL") u.searchParams.delete("region");
    else u.searchParams.set("region", region);
    if (given.current) u.searchParams.set("tz", zone);
    history.replaceState(null, "", u);
    document.title = `${t.ev_title} · ${label(region)}`;
  }

  async function showRegion(code: string, zone = tz, quiet = false) {
    setChoice(code);
    const n = ++request.current;
    const now = serverNow(p.now);
    const { years } = coverage(now);
    try {
      // The page's own list: the years it covers, names in the page's language.
      const res = await fetch(`/events/items?region=${code}&lang=${p.lang}&at=${now}`);
      if (!res.ok) throw new Error(`GET /events/items answered ${res.status}`);
      const items = (await res.json()).items as EventItem[];
      if (n !== request.current) return;
      setShown({ region: code, items, years: years.join() });
      if (quiet) return;
      remember(code, zone);
      setStatus(fill(t.ev_showing, { region: label(code), n: upcoming(items, zone, now).list.length }));
    } catch {
      // Offline or rate-limited: the server renders the region instead.
      location.assign(`/events?region=${code}${given.current ? `&tz=${encodeURIComponent(zone)}` : ""}&lang=${p.lang}`);
    }
  }

  /** Shows the countdowns in a typed zone (UTC when it is not one, as the server does). */
  function applyZone(raw: string): string {
    const found = zoneOf(raw, p.renamed);
    const zone = found ?? "UTC";
    given.current = true;
    setTz(zoneInput.current!.value = zone);
    setBadZone(found ? null : raw);
    remember(shown.region, zone);
    return zone;
  }

  function submit(e: Event) {
    const form = new FormData(e.currentTarget as HTMLFormElement);
    // Another language loads the page in it; region and zone change in place.
    if (form.get("lang") !== p.lang) return;
    e.preventDefault();
    const zone = form.get("tz") === tz ? tz : applyZone(String(form.get("tz")));
    const region = String(form.get("region"));
    if (region !== shown.region) showRegion(region, zone);
  }

  async function copy(e: Event, name: string) {
    const card = (e.currentTarget as HTMLElement).closest("li")!;
    const area = card.querySelector("textarea")!;
    try {
      await navigator.clipboard.writeText(area.value);
      setStatus(fill(t.ev_copied, { name }));
    } catch {
      card.querySelector("details")!.open = true;
      area.select();
      setStatus(t.ev_copy_failed);
    }
  }

  // The zone list is long: build it once, so ticks and typing do not diff it.
  const zoneList = useMemo(() => (
    <datalist id="ev-zones">
      {zones.map((z) => <option key={z} value={z} />)}
    </datalist>
  ), [zones]);

  const q = `${shown.region === "GLOBAL" ? "" : `region=${shown.region}&`}tz=${encodeURIComponent(tz)}`;
  return (
    <>
      <form class="ev-form" method="get" action="/events" onSubmit={submit}>
        <label>
          {t.ev_region}
          <select name="region" value={choice} onChange={(e) => showRegion(e.currentTarget.value)}>
            {p.regions.map((r) => <option key={r.code} value={r.code}>{r.label}</option>)}
          </select>
        </label>
        <label>
          {t.ev_zone}
          <input
            ref={zoneInput}
            name="tz"
            defaultValue={p.tz}
            list="ev-zones"
            autocomplete="off"
            spellcheck={false}
            onChange={(e) => applyZone(e.currentTarget.value)}
          />
        </label>
        {zoneList}
        <label>
          {t.ev_language}
          <select name="lang">
            {p.languages.map((l) => <option key={l.code} value={l.code} selected={l.code === p.lang}>{l.name}</option>)}
          </select>
        </label>
        <button type="submit" class="button">{t.ev_show}</button>
      </form>
      <p class="ev-zone">{fill(t.ev_zone_line, { zone: tz.replaceAll("_", " ") })}</p>
      {badZone && (
        <p class="ev-warn" role="alert">
          <span aria-hidden="true">⚠</span> {fill(t.ev_zone_bad, { zone: badZone })}
        </p>
      )}
      <Upcoming
        {...p}
        items={shown.items}
        years={shown.years}
        refresh={() => showRegion(shown.region, tz, true)}
        tz={tz}
        ready={ready}
        busy={choice !== shown.region}
        copy={copy}
      />
      <p class="ev-json">
        <a href={`/api/v1/events?${q}`}>{t.ev_json}</a>
      </p>
      <div class="ev-toast-region" role="status">{status && <p class="ev-toast">{status}</p>}</div>
    </>
  );
}

interface UpcomingProps extends EventsProps {
  /** The years `items` covers, joined: when `coverage` moves on, `refresh` fetches them again. */
  years: string;
  refresh: () => void;
  ready: boolean;
  busy: boolean;
  copy: (e: Event, name: string) => void;
}

/** The ticking list, grouped by year, and its polite milestone announcements. */
function Upcoming(p: UpcomingProps) {
  const { t, tz, lang } = p;
  const [now, setNow] = useState(p.now);
  const [said, setSaid] = useState("");
  const last = useRef<{ items: EventItem[]; tz: string; next?: string; mark: number; today: string } | null>(null);
  const asked = useRef(p.years);

  useEffect(() => {
    let handle = 0;
    const tick = () => {
      clearTimeout(handle);
      const at = serverNow(p.now);
      // Targets are whole seconds, so the shown seconds change only on whole server seconds.
      setNow(at - (at % 1000));
      handle = setTimeout(tick, 1000 - (at % 1000) + 2) as unknown as number;
    };
    tick();
    const wake = () => document.visibilityState === "visible" && tick();
    document.addEventListener("visibilitychange", wake);
    addEventListener("pageshow", tick);
    return () => {
      clearTimeout(handle);
      document.removeEventListener("visibilitychange", wake);
      removeEventListener("pageshow", tick);
    };
  }, []);

  const { today, list } = upcoming(p.items, tz, now);
  const next = list.find((e) => e.date > today);
  const nextIn = next ? secondsTo(next.date, tz, now) : 0;
  const todays = list.filter((e) => e.date === today).map((e) => e.name).join(", ");

  useEffect(() => {
    const before = last.current;
    const mark = milestone(nextIn);
    last.current = { items: p.items, tz, next: next?.slug, mark, today: todays };
    if (!before || before.items !== p.items || before.tz !== tz) return;
    if (todays && todays !== before.today) setSaid(fill(t.ev_is_today, { name: todays }));
    else if (next && next.slug === before.next && mark !== before.mark) {
      setSaid(fill(t.ev_in, { name: next.name, time: spokenDuration(mark, lang) }));
    }
  }, [now, p.items, tz]);

  useEffect(() => {
    const need = coverage(now).years.join();
    if (need !== p.years && need !== asked.current) p.refresh();
    asked.current = need;
  }, [now]);

  const years: [string, EventItem[]][] = [];
  for (const e of list) {
    const y = e.date.slice(0, 4);
    if (years.at(-1)?.[0] !== y) years.push([y, []]);
    years.at(-1)![1].push(e);
  }
  return (
    <div class="ev-lists" aria-busy={p.busy ? "true" : undefined}>
      {years.map(([y, events]) => (
        <section key={y} aria-labelledby={`ev-year-${y}`}>
          <h2 class="ev-year" id={`ev-year-${y}`}>{dtf(lang, { year: "numeric" }).format(Date.UTC(+y, 6))}</h2>
          <ol class="ev-list">
            {events.map((e) => (
              <Card
                key={`${e.date}-${e.slug}`}
                {...p}
                e={e}
                seconds={e.date === today ? null : secondsTo(e.date, tz, now)}
              />
            ))}
          </ol>
        </section>
      ))}
      {list.length === 0 && <p>{t.ev_none}</p>}
      {list.some((e) => e.provisional) && <p class="ev-foot" id="ev-provisional">{t.ev_provisional_note}</p>}
      <p class="sr-only" aria-live="polite" aria-atomic="true">{said}</p>
    </div>
  );
}

/** One event: name, date, labels, the countdown (null seconds: it is today) and how to share it. */
function Card(p: UpcomingProps & { e: EventItem; seconds: number | null }) {
  const { e, t, lang } = p;
  const url = widgetUrl(p.siteUrl, {
    type: "event",
    title: e.name,
    target_date: `${e.date}T00:00:00`,
    timezone: p.tz,
    lang,
  });
  const { days, hms } = clockParts(p.seconds ?? 0, lang);
  const off = e.days_off && e.days_off.length > 1 ? e.days_off : null;
  const dayMs = (d: string) => Date.parse(`${d}T00:00:00Z`);
  return (
    <li class={p.seconds === null ? "ev ev--today" : "ev"} data-date={e.date}>
      <h3 class="ev-name">{e.name}</h3>
      <p class="ev-date">
        <time dateTime={e.date}>
          {dtf(lang, { weekday: "short", year: "numeric", month: "short", day: "numeric" }).format(dayMs(e.date))}
        </time>
      </p>
      {(e.observed || e.provisional) && (
        <p class="ev-tags">
          {e.observed && <span class="ev-tag">{t.ev_observed}</span>}
          {e.provisional && <a class="ev-tag" href="#ev-provisional">{t.ev_provisional}</a>}
        </p>
      )}
      {off && (
        <p class="ev-off">
          {fill(t.ev_days_off, {
            range: dtf(lang, { month: "short", day: "numeric" }).formatRange(dayMs(off[0]), dayMs(off.at(-1)!)),
            n: new Intl.NumberFormat(lang).format(off.length),
          })}
        </p>
      )}
      {p.seconds === null
        ? (
          <p class="ev-clock ev-clock--today">
            <span aria-hidden="true">★</span> {t.ev_today}
          </p>
        )
        : (
          <p class="ev-clock" role="timer">
            {days && <span class="ev-days">{days}</span>} <span class="ev-hms">{hms}</span>
          </p>
        )}
      <p class="ev-actions">
        <a class="button" href={url} aria-label={`${t.ev_open}: ${e.name}`}>{t.ev_open}</a>
        {p.ready && (
          <button
            type="button"
            class="button button--quiet"
            aria-label={`${t.ev_copy}: ${e.name}`}
            onClick={(ev) => p.copy(ev, e.name)}
          >
            {t.ev_copy}
          </button>
        )}
      </p>
      <details class="ev-embed">
        <summary aria-label={`${t.ev_embed}: ${e.name}`}>{t.ev_embed}</summary>
        <textarea
          readOnly
          rows={3}
          aria-label={`${t.ev_embed}: ${e.name}`}
          value={embedSnippet(url, { width: EMBED.w, height: EMBED.h }, e.name)}
        />
      </details>
    </li>
  );
}
