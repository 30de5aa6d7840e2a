/**
 * The product's pages: `/` (home and embed builder), `/events` (holiday countdowns), `/widget`,
 * `/v/:id` (viewer), `/c/:id` (control) and `/static/*`. Handlers are thin: they read the timer,
 * pick language and look, and hand JSON props to the server renders in timer_pages.tsx and
 * events.tsx.
 */
import type { Context, Hono } from "hono";
import { islandView } from "../../components/view_params.ts";
import type { Config } from "../../config.ts";
import { holdsSession } from "../../components/SiteHeader.tsx";
import { contentSecurityPolicy } from "../../lib/csp.ts";
import { isTimeZone, type LiveSnapshot, type Source, sourceFromSnapshot } from "../../lib/display.ts";
import type { AppEnv } from "../../lib/http.ts";
import { asLang, type Lang, negotiateLang, texts } from "../../lib/i18n.ts";
import { faceScreenTexts } from "../../lib/i18n_screens.ts";
import type { Store } from "../../lib/kv/store.ts";
import type { Timer } from "../../lib/timers/model.ts";
import type { Sound } from "../../lib/face.ts";
import { publicSnapshot } from "../live.ts";
import { eventItems, eventsPage, parseEventsQuery } from "./events.tsx";
import { homePage } from "./home.tsx";
import { missingPage } from "./missing.tsx";
import { parseViewParams, parseWidgetParams, type ThemeName } from "./params.ts";
import { serveStatic } from "./static.ts";
import { RUNDOWN_ID, stageHtml, stageRoutes } from "./stage.tsx";
import { rundownPages } from "./rundown_pages.tsx";
import type { OpenStreams } from "../../lib/streams.ts";
import { controlPage, eventDate, notFoundPage, problemPage, timerPage } from "./timer_pages.tsx";

export interface PageDeps {
  store: Store;
  config: Config;
  now: () => number;
  /** The open push streams (the rundown stage's stream holds one); without it no stage routes. */
  streams?: OpenStreams;
}

interface HtmlOptions {
  status?: number;
  /**
   * Who may frame the page; null for embeddable pages: no `frame-ancestors` at all, since even
   * `*` refuses embedders with opaque origins (a local file:// page, a sandboxed iframe).
   */
  frameAncestors: string | null;
  frameSrc?: string;
  referrer?: string;
}

/** An HTML response with the page security headers (no X-Frame-Options: framing is CSP's job). */
function html(body: string, o: HtmlOptions): Response {
  return new Response(body, {
    status: o.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": contentSecurityPolicy({
        inlineStyles: true, // the validated primary colour and the clock's length
        frameSrc: o.frameSrc,
        frameAncestors: o.frameAncestors,
      }),
      // The HTML carries the time of its rendering; a cached copy would start from a stale instant.
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": o.referrer ?? "strict-origin-when-cross-origin",
    },
  });
}

const THEMES: readonly string[] = ["light", "dark", "auto"];

/**
 * The 404 page of an address nothing answers, for browsers (see `wantsPage` in lib/http.ts), in
 * `?lang=` or the browser's language.
 */
export function missingPageResponse(c: Context): Response {
  const lang = asLang(new URL(c.req.url).searchParams.get("lang")) ?? negotiateLang(c.req.header("accept-language"));
  const res = html(missingPage(lang, holdsSession(c.req.header("cookie"))), { frameAncestors: "'self'", status: 404 });
  res.headers.set("vary", "accept, accept-language, cookie");
  return res;
}

/** Registers the page routes on the app. */
export function pageRoutes(app: Hono<AppEnv>, deps: PageDeps) {
  const { store, config, now } = deps;
  const home = () => `${config.siteUrl}/`;

  /** A stored, unexpired timer, or null. */
  async function liveTimer(id: string): Promise<Timer | null> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
    const entry = await store.getTimer(id);
    return entry && entry.timer.expires_at > now() ? entry.timer : null;
  }

  function snapshot(timer: Timer): { source: Source; at: number } {
    const at = now();
    return { source: sourceFromSnapshot(publicSnapshot(timer, at, config.siteUrl) as LiveSnapshot), at };
  }

  /** Language of the viewer and control pages: `?lang=`, else the browser's preference. */
  const pageLang = (q: URLSearchParams, accept: string | undefined): Lang =>
    asLang(q.get("lang")) ?? negotiateLang(accept);

  /** `sound=`: the cue a page plays instead of the timer's (an unknown value is no override). */
  const soundOf = (q: URLSearchParams): Sound | null => {
    const v = q.get("sound");
    return v === "none" || v === "beep" || v === "chime" ? v : null;
  };

  const zoneOf = (q: URLSearchParams) => {
    const tz = q.get("timezone") ?? "";
    return isTimeZone(tz) ? tz : "UTC";
  };

  const lookOf = (timer: Timer, q: URLSearchParams, lang: Lang) => {
    const theme = q.get("theme") ?? "";
    return { lang, theme: (THEMES.includes(theme) ? theme : timer.theme) as ThemeName, color: timer.color };
  };

  /** Hiding the brand is a paid-plan feature: the timer owner's plan decides. */
  const brandShown = async (timer: Timer, asked: boolean) => {
    if (asked) return true;
    const owner = await store.getAccount(timer.account_id);
    return !owner || owner.plan === "free";
  };

  app.get("/static/*", serveStatic());
  // A rundown's pages: the stage and agenda embed anywhere; the control page is never framed and sends no Referer.
  const page = (body: string, status?: number, guard?: boolean) =>
    html(
      body,
      guard ? { frameAncestors: "'none'", referrer: "no-referrer", status } : { frameAncestors: null, status },
    );
  if (deps.streams) stageRoutes(app, { store, config, now, streams: deps.streams }, { page, lang: pageLang });
  rundownPages(app, { store, config, now }, { page, lang: pageLang });

  // Browsers ask for /favicon.ico where a page names no icon (JSON answers, other tools): the site's icon.
  let icon: Promise<Uint8Array<ArrayBuffer>> | undefined;
  app.get("/favicon.ico", async () => {
    icon ??= Deno.readFile(new URL("../../static/favicon.svg", import.meta.url));
    return new Response(await icon, {
      headers: {
        "content-type": "image/svg+xml",
        "cache-control": "public, max-age=86400",
        "x-content-type-options": "nosniff",
      },
    });
  });

  // The home page speaks `?lang=` or else the browser's preferred language.
  app.get("/", (c) => {
    const lang = pageLang(new URL(c.req.url).searchParams, c.req.header("accept-language"));
    const signedIn = holdsSession(c.req.header("cookie"));
    const res = html(homePage(config.siteUrl, now(), lang, signedIn), { frameAncestors: "'self'", frameSrc: "'self'" });
    res.headers.set("vary", "accept-language, cookie");
    return res;
  });

  app.get("/events", (c) => {
    const q = parseEventsQuery(new URL(c.req.url).searchParams, c.req.header("accept-language"));
    return html(eventsPage(config.siteUrl, now(), q, holdsSession(c.req.header("cookie"))), {
      frameAncestors: "'self'",
    });
  });

  // The events page's own data when another region is picked: its list, named in the page's language.
  // `at` is the instant the page counts at (its estimate of the server's clock), so a page left
  // open over the new year asks for the years it now shows.
  app.get("/events/items", (c) => {
    const params = new URL(c.req.url).searchParams;
    const q = parseEventsQuery(params, c.req.header("accept-language"));
    const at = Number(params.get("at"));
    const instant = Number.isSafeInteger(at) && Math.abs(at - now()) < 400 * 86400_000 ? at : now();
    return c.json({ region: q.region, items: eventItems(q.region, instant, q.lang) });
  });

  app.get("/widget", async (c) => {
    const q = new URL(c.req.url).searchParams;
    const p = parseWidgetParams(q);
    const look = { lang: p.lang, theme: p.theme, color: p.color, view: p.view };
    const screen = { view: islandView(p.view), st: faceScreenTexts(p.lang) };
    const embeddable = { frameAncestors: null };
    if (q.has("rundown")) {
      // A rundown's stage, under the widget's parameters: the live item's face, whichever item that is.
      const rid = q.get("rundown") ?? "";
      const entry = RUNDOWN_ID.test(rid) ? await store.rundowns.get(rid) : null;
      if (!entry) return html(notFoundPage(look, home()), { ...embeddable, status: 404 });
      const owner = await store.getAccount(entry.rundown.account_id);
      const brand = p.showBrand || !owner || owner.plan === "free";
      const face = {
        variant: "widget" as const,
        view: islandView(p.view),
        messages: q.get("messages") === "1",
        hideTitle: !p.showTitle,
        alarm: p.alarm,
        brand: brand ? home() : null,
        sound: soundOf(q),
      };
      const stageLook = {
        theme: p.themeGiven ? p.theme : undefined,
        color: p.colorGiven ? p.color : undefined,
        view: p.view,
      };
      return html(await stageHtml({ store, config, now }, entry.rundown, p.lang, face, stageLook), embeddable);
    }
    if (q.has("id")) {
      const timer = p.id ? await liveTimer(p.id) : null;
      if (!timer) return html(notFoundPage(look, home()), { ...embeddable, status: 404 });
      const { source } = snapshot(timer);
      const brand = await brandShown(timer, p.showBrand);
      return html(
        timerPage({
          lang: p.lang,
          theme: p.themeGiven ? p.theme : timer.theme,
          color: p.colorGiven ? p.color : timer.color,
          view: p.view,
        }, {
          source,
          live: timer.id,
          title: p.showTitle ? timer.title : null,
          hideTitle: !p.showTitle,
          date: eventDate(source, p.timezone, p.lang, p.showDate),
          alarm: p.alarm,
          brand: brand ? home() : null,
          variant: "widget",
          restartable: false,
          ...screen,
          messages: q.get("messages") === "1",
          sound: soundOf(q),
        }),
        embeddable,
      );
    }
    if (p.problem) {
      return html(problemPage(look, texts(p.lang)[p.problem], p.showTitle ? p.title : null), embeddable);
    }
    const at = now();
    const source: Source = {
      type: p.type,
      state: "running",
      total_ms: p.type === "countdown"
        ? p.duration! * 1000
        : p.type === "interval"
        ? p.rounds * (p.work + p.rest) * 1000
        : null,
      target: p.type === "event" ? p.target : null,
      work_ms: p.work * 1000,
      rest_ms: p.rest * 1000,
      rounds: p.type === "interval" ? p.rounds : null,
      elapsed_ms: 0,
      at,
      frozen_ms: null,
    };
    return html(
      timerPage(look, {
        source,
        live: null,
        title: p.showTitle ? p.title : null,
        date: eventDate(source, p.timezone, p.lang, p.showDate),
        alarm: p.alarm,
        // A widget without a timer has no paying owner: the brand stays.
        brand: home(),
        variant: "widget",
        restartable: p.type !== "event",
        ...screen,
      }),
      embeddable,
    );
  });

  app.get("/v/:id", async (c) => {
    const q = new URL(c.req.url).searchParams;
    const lang = pageLang(q, c.req.header("accept-language"));
    const timer = await liveTimer(c.req.param("id"));
    if (!timer) {
      return html(notFoundPage({ lang, theme: "dark", color: "6C63FF" }, home()), {
        frameAncestors: null,
        status: 404,
      });
    }
    const { source } = snapshot(timer);
    const view = parseViewParams(q);
    const showTitle = !view.hide.includes("title");
    const brand = await brandShown(timer, !view.hide.includes("brand"));
    return html(
      timerPage({ ...lookOf(timer, q, lang), view }, {
        source,
        live: timer.id,
        title: showTitle ? timer.title : null,
        hideTitle: !showTitle,
        date: eventDate(source, zoneOf(q), lang, q.get("show_date") !== "0"),
        alarm: q.get("alarm") !== "0",
        brand: brand ? home() : null,
        variant: "page",
        restartable: false,
        view: islandView(view),
        st: faceScreenTexts(lang),
        sound: soundOf(q),
      }),
      { frameAncestors: null },
    );
  });

  app.get("/c/:id", async (c) => {
    const q = new URL(c.req.url).searchParams;
    const lang = pageLang(q, c.req.header("accept-language"));
    const timer = await liveTimer(c.req.param("id"));
    // The control page is never framed (no clickjacking of its buttons) and sends no Referer.
    const guard = { frameAncestors: "'none'", referrer: "no-referrer" };
    if (!timer) return html(notFoundPage({ lang, theme: "dark", color: "6C63FF" }, home()), { ...guard, status: 404 });
    const { source } = snapshot(timer);
    return html(
      controlPage(lookOf(timer, q, lang), {
        id: timer.id,
        source,
        title: timer.title,
        date: eventDate(source, zoneOf(q), lang, true),
        brand: home(),
        viewerUrl: `${config.siteUrl}/v/${timer.id}`,
      }),
      guard,
    );
  });
}
