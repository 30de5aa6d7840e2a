/**
 * A rundown's agenda (/r/:id/agenda: items with planned and expected starts, the live one marked;
 * no script, it refreshes itself) and its control page (/r/:id/control#<token>). Public reads:
 * titles and times only, never the webhook URL.
 */
import type { Hono } from "hono";
import { fill, isTimeZone } from "../../lib/display.ts";
import type { AppEnv } from "../../lib/http.ts";
import { island, renderPage } from "../../lib/islands.tsx";
import { type Lang, texts } from "../../lib/i18n.ts";
import { rundownTexts } from "../../lib/i18n_rundown.ts";
import { showTexts } from "../../lib/i18n_show.ts";
import type { FaceMessage } from "../../lib/face.ts";
import { rundownUrls, rundownView } from "../../lib/rundowns/model.ts";
import RundownControl from "../../islands/RundownControl.tsx";
import type { StageDeps } from "./stage.tsx";
import { themeAttrs } from "./timer_pages.tsx";

const RUNDOWN_ID = /^rdn_[0-9A-Za-z]{16}$/;
const ControlIsland = island("RundownControl", RundownControl);

interface ItemView {
  title: string | null;
  state: string;
  planned_start: string | null;
  expected_start: string | null;
  message: FaceMessage | null;
}

/** An item state as the pages name it, in the page's language. */
function stateName(lang: Lang, state: string): string {
  const t = texts(lang);
  const named: Record<string, string> = {
    idle: t.state_idle,
    running: t.state_running,
    paused: t.state_paused,
    completed: t.state_completed,
    stopped: t.state_stopped,
    missing: rundownTexts(lang).missing,
  };
  return named[state] ?? state;
}

/** Registers /r/:id/agenda and /r/:id/control. */
export function rundownPages(
  app: Hono<AppEnv>,
  deps: Omit<StageDeps, "streams">,
  o: {
    page: (body: string, status?: number, guard?: boolean) => Response;
    lang: (q: URLSearchParams, accept?: string) => Lang;
  },
) {
  async function read(id: string) {
    const entry = RUNDOWN_ID.test(id) ? await deps.store.rundowns.get(id) : null;
    if (!entry) return null;
    const now = deps.now();
    const timers = (await deps.store.timers.getTimers(entry.rundown.items.map((i) => i.timer_id)))
      .map((e) => e && e.timer.expires_at > now ? e.timer : null);
    return rundownView(entry.rundown, timers, now, deps.config.siteUrl, false) as {
      title: string | null;
      state: string;
      current: number;
      offset_seconds: number;
      items: ItemView[];
      message: FaceMessage | null;
    };
  }

  app.get("/r/:id/agenda", async (c) => {
    const id = c.req.param("id");
    const v = await read(id);
    if (!v) return c.notFound();
    const q = new URL(c.req.url).searchParams;
    const lang = o.lang(q, c.req.header("accept-language"));
    const tz = q.get("timezone") ?? "UTC";
    const fmt = new Intl.DateTimeFormat(lang, {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: isTimeZone(tz) ? tz : "UTC",
    });
    const time = (iso: string | null) => iso ? fmt.format(new Date(iso)) : "–";
    const late = v.offset_seconds;
    const rt = rundownTexts(lang);
    const body = (
      <main class="shell shell--page agenda">
        <meta http-equiv="refresh" content="10" />
        <h1 dir="auto">{v.title ?? rt.rundown}</h1>
        <p class="agenda-offset" data-offset={late}>
          {late === 0 ? rt.on_time : fill(late > 0 ? rt.late : rt.early, { s: String(Math.abs(late)) })}
        </p>
        <table class="agenda-items">
          <thead>
            <tr>
              <th>#</th>
              <th>{rt.col_item}</th>
              <th>{rt.col_planned}</th>
              <th>{rt.col_expected}</th>
              <th>{rt.col_state}</th>
            </tr>
          </thead>
          <tbody>
            {v.items.map((item, i) => (
              <tr key={i} data-live={i === v.current ? "1" : "0"} aria-current={i === v.current ? "step" : undefined}>
                <td>{i + 1}</td>
                <td dir="auto">{item.title ?? fill(rt.item_n, { n: String(i + 1) })}</td>
                <td>{time(item.planned_start)}</td>
                <td>{time(item.expected_start)}</td>
                <td>{i === v.current && v.state === "running" ? rt.live : stateName(lang, item.state)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </main>
    );
    return o.page(renderPage(body, {
      lang,
      title: `${v.title ?? rt.rundown} · ${rt.agenda}`,
      css: ["widget.css", "agenda.css"],
      htmlAttrs: themeAttrs("dark", "6C63FF"),
    }));
  });

  app.get("/r/:id/control", async (c) => {
    const id = c.req.param("id");
    const v = await read(id);
    if (!v) return c.notFound();
    const lang = o.lang(new URL(c.req.url).searchParams, c.req.header("accept-language"));
    const urls = rundownUrls(deps.config.siteUrl, id);
    const rt = rundownTexts(lang);
    const t = texts(lang);
    const states = Object.fromEntries(
      ["idle", "running", "paused", "completed", "stopped"].map((s) => [s, stateName(lang, s)]),
    );
    const body = (
      <main class="shell shell--page">
        <ControlIsland
          rundownId={id}
          title={v.title}
          current={v.current}
          state={v.state}
          items={v.items.map((i) => ({
            title: i.title,
            state: i.state,
            expected_start: i.expected_start,
            message: i.message,
          }))}
          message={v.message}
          stageUrl={urls.stage_url}
          agendaUrl={urls.agenda_url}
          lang={lang}
          rt={rt}
          st={showTexts(lang)}
          tt={{ start: t.start, stop: t.stop, reset: t.reset, states }}
        />
      </main>
    );
    // Never framed (no clickjacking of its buttons), no Referer.
    const opts = {
      lang,
      title: `${v.title ?? rt.rundown} · ${rt.control}`,
      css: ["widget.css", "control.css", "show.css", "agenda.css"],
    };
    return o.page(renderPage(body, { ...opts, htmlAttrs: themeAttrs("dark", "6C63FF") }), 200, true);
  });
}
