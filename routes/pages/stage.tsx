/**
 * A rundown's stage view: GET /r/:id (the live item's face and "Next: <title>") and its push
 * stream GET /live/r/:id, which names the live item whenever the rundown changes (kv.watch).
 * Public like a viewer: it carries titles and faces, never webhook URLs or tokens.
 */
import type { Hono } from "hono";
import type { Config } from "../../config.ts";
import { type LiveSnapshot, sourceFromSnapshot } from "../../lib/display.ts";
import type { AppEnv } from "../../lib/http.ts";
import { faceTexts, type Lang } from "../../lib/i18n.ts";
import { faceScreenTexts } from "../../lib/i18n_screens.ts";
import { rundownTexts } from "../../lib/i18n_rundown.ts";
import { islandHtml, renderPage } from "../../lib/islands.tsx";
import type { Store } from "../../lib/kv/store.ts";
import type { Rundown } from "../../lib/rundowns/model.ts";
import { addressBucket } from "../../lib/accounts/throttle.ts";
import {
  MAX_UNREAD_BYTES,
  type OpenStreams,
  placesUntilGone,
  sseResponse,
  streamsFull,
  tooManyStreams,
} from "../../lib/streams.ts";
import { publicSnapshot } from "../live.ts";
import Stage, { type StageFace, type StageProps } from "../../islands/Stage.tsx";
import { islandView, viewAttrs, type ViewParams } from "../../components/view_params.ts";
import { parseViewParams, type ThemeName } from "./params.ts";
import { themeAttrs } from "./timer_pages.tsx";

const HEARTBEAT_MS = 15_000;
export const RUNDOWN_ID = /^rdn_[0-9A-Za-z]{16}$/;

export interface StageDeps {
  store: Store;
  config: Config;
  now: () => number;
  streams: OpenStreams;
}

/** What the stage shows of a rundown now: its live item (with its face's source) and the next title. */
export async function stageState(deps: Omit<StageDeps, "streams">, r: Rundown) {
  const ids = [r.items[r.current]?.timer_id, r.items[r.current + 1]?.timer_id].filter((x): x is string => !!x);
  const [cur, next] = await deps.store.timers.getTimers(ids);
  const now = deps.now();
  const live = (e: typeof cur) => e && e.timer.expires_at > now ? e.timer : null;
  const t = live(cur);
  const item = t
    ? {
      timer_id: t.id,
      title: t.title,
      source: sourceFromSnapshot(publicSnapshot(t, now, deps.config.siteUrl) as LiveSnapshot),
    }
    : null;
  let n = r.items[r.current + 1] ? live(next) : null;
  let hasNext = n !== null;
  // An item whose timer was deleted is skipped (as a linked show skips it): the next that exists is named.
  if (!n && r.current + 2 < r.items.length) {
    const later = await deps.store.timers.getTimers(r.items.slice(r.current + 2).map((i) => i.timer_id));
    n = later.map(live).find((t) => t !== null) ?? null;
    hasNext = n !== null;
  }
  return {
    item,
    next: n?.title ?? null,
    hasNext,
    message: r.message ?? null,
    theme: t?.theme,
    color: t?.color,
  };
}

/** The look of a stage: theme and colour (default: the live item's), and the view's attributes. */
export interface StageLook {
  theme?: ThemeName;
  color?: string;
  view?: ViewParams;
}

/** The stage's HTML: the live item's face under `face`'s parameters, "Next:", the rundown's message. */
export async function stageHtml(
  deps: Omit<StageDeps, "streams">,
  r: Rundown,
  lang: Lang,
  face: StageFace,
  look: StageLook = {},
): Promise<string> {
  const s = await stageState(deps, r);
  const rt = rundownTexts(lang);
  const props: StageProps = {
    rundownId: r.id,
    item: s.item,
    next: s.next,
    hasNext: s.hasNext,
    message: s.message,
    lang,
    t: faceTexts(lang),
    st: faceScreenTexts(lang),
    labels: { next: rt.next, untitled: rt.untitled, empty: rt.empty },
    face,
  };
  const variant = face.variant;
  const html = `<main class="shell shell--${variant}">${islandHtml("Stage", Stage, props)}</main>`;
  return renderPage({ html, islands: ["Stage"] }, {
    lang,
    title: r.title ?? s.item?.title ?? rt.stage,
    css: ["widget.css", "face-more.css", "show.css", "screens.css", "stage.css"],
    htmlAttrs: {
      ...themeAttrs(look.theme ?? s.theme ?? "dark", look.color ?? s.color ?? "6C63FF"),
      ...viewAttrs(look.view),
    },
    bodyClass: `body--${variant}`,
  });
}

/** Registers /r/:id and /live/r/:id. `page` wraps a body with the pages' security headers. */
export function stageRoutes(
  app: Hono<AppEnv>,
  deps: StageDeps,
  o: { page: (body: string, status?: number) => Response; lang: (q: URLSearchParams, accept?: string) => Lang },
) {
  app.get("/r/:id", async (c) => {
    const id = c.req.param("id");
    const entry = RUNDOWN_ID.test(id) ? await deps.store.rundowns.get(id) : null;
    if (!entry) return c.notFound();
    const q = new URL(c.req.url).searchParams;
    const lang = o.lang(q, c.req.header("accept-language"));
    const view = parseViewParams(q);
    const theme = q.get("theme") ?? "";
    const html = await stageHtml(deps, entry.rundown, lang, { variant: "page", view: islandView(view) }, {
      theme: ["light", "dark", "auto"].includes(theme) ? theme as ThemeName : undefined,
      view,
    });
    return o.page(html);
  });

  app.get("/live/r/:id", async (c) => {
    const id = c.req.param("id");
    const first = RUNDOWN_ID.test(id) ? await deps.store.rundowns.get(id) : null;
    if (!first) return c.json({ error: { code: 404, message: "rundown not found" } }, 404);
    // A few per address, counted with its /live/:id streams, so that one client cannot hold every place of the process.
    const mine = deps.streams.perAddress.take(addressBucket(c.get("ip")));
    if (!mine) throw tooManyStreams(deps.streams.perAddress.max);
    const place = deps.streams.hold();
    if (!place) {
      mine();
      throw streamsFull(deps.streams.max);
    }
    // The places go once the connection is done with; its end ends the stream.
    const places = placesUntilGone(c, () => {
      place();
      mine();
    }, () => end());
    const enc = new TextEncoder();
    let ended = false;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let watcher: ReadableStreamDefaultReader<[Deno.KvEntryMaybe<Rundown>]> | null = null;
    let unregister = () => {};
    const end = (controller?: ReadableStreamDefaultController<Uint8Array>) => {
      if (ended) return;
      ended = true;
      places.release();
      unregister();
      clearInterval(heartbeat);
      watcher?.cancel().catch(() => {});
      try {
        controller?.close();
      } catch { /* already closed */ }
    };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (event: string, data: unknown) => {
          try {
            controller.enqueue(enc.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          } catch { /* closed */ }
          // A client that reads nothing: dropped past the bound, as /live/:id drops it.
          if ((controller.desiredSize ?? 0) < 0) {
            places.dropped();
            end();
            controller.error("live stream dropped: its client reads nothing");
          }
        };
        controller.enqueue(enc.encode("retry: 1000\n\n"));
        heartbeat = setInterval(() => send("clock", { server_now: deps.now() }), HEARTBEAT_MS);
        (async () => {
          watcher = deps.store.rundowns.watch(id).getReader();
          let last = "";
          for (;;) {
            const { value, done } = await watcher.read();
            if (done || ended) break;
            const r = value[0].value;
            if (!r) {
              send("gone", { rundown_id: id });
              break;
            }
            const { item, next, hasNext, message } = await stageState(deps, r);
            // Only a change of what the stage shows: the item's own stream carries its clock.
            const shown = JSON.stringify([item?.timer_id, next, hasNext, message]);
            if (shown !== last) send("item", { item, next, hasNext, message });
            last = shown;
          }
        })().catch(() => {}).finally(() => end(controller));
        unregister = deps.streams.add(() => end(controller));
      },
      cancel: () => end(),
    }, new ByteLengthQueuingStrategy({ highWaterMark: MAX_UNREAD_BYTES }));
    return sseResponse(body, true);
  });
}
