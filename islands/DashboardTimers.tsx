/**
 * The dashboard's live timer table. The server renders it with a snapshot of every row; in the
 * browser it follows `GET /dashboard/live` (one stream for the whole table, so a long list does
 * not hold one connection per timer) and recomputes each clock from the snapshot and the server
 * clock offset. Actions stay plain forms (POST + redirect), so the table works without JavaScript.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { type Action, formatClock, type Frame, frameAt, type Source, validActions } from "../lib/display.ts";
import { pageOffset } from "../components/page_clock.ts";

export interface TimerRow {
  id: string;
  title: string | null;
  type: "countdown" | "event" | "interval";
  source: Source;
  viewer_url: string;
}

export interface DashboardTimersProps {
  rows: TimerRow[];
  /** The server instant the rows describe (epoch ms). */
  at: number;
  /** The stream to follow (same filters as the table). */
  live: string;
  lang: string;
  csrf: { field: string; token: string };
  /** Where an action returns to. */
  back: string;
  /** Whether rows link to their detail page (the list) or not (the detail page itself). */
  links: boolean;
  t: {
    name: string;
    type: string;
    state: string;
    remaining: string;
    actions: string;
    none: string;
    viewer: string;
    live_on: string;
    live_off: string;
    untitled: string;
    types: Record<string, string>;
    states: Record<string, string>;
    action_names: Record<string, string>;
    unlimited: string;
    phases: { work: string; rest: string };
  };
}

const ACTIONS: Action[] = ["start", "pause", "resume", "stop", "reset"];

function label(row: TimerRow, t: DashboardTimersProps["t"]): string {
  return row.title ?? t.untitled.replace("{type}", t.types[row.type]);
}

function Remaining({ frame, lang, t }: { frame: Frame; lang: string; t: DashboardTimersProps["t"] }) {
  if (frame.remaining_ms === null && frame.phase === null) return <>{t.unlimited}</>;
  const text = formatClock(frame.seconds, lang);
  return (
    <>
      <span class="clock">{text}</span>
      {frame.round !== null && (
        <span class="muted">
          {` · ${t.phases[frame.phase ?? "work"]} ${frame.round}${frame.rounds !== null ? `/${frame.rounds}` : ""}`}
        </span>
      )}
    </>
  );
}

export default function DashboardTimers(p: DashboardTimersProps) {
  const { t } = p;
  const [rows, setRows] = useState(p.rows);
  const [at, setAt] = useState(p.at);
  const [live, setLive] = useState<boolean | null>(null);
  const offset = useRef(0);
  // Re-render every second while something counts; the first render matches the server's.
  const [now, setNow] = useState(p.at);

  useEffect(() => {
    offset.current = pageOffset(p.at);
    setNow(Date.now() + offset.current);
    const tick = setInterval(() => setNow(Date.now() + offset.current), 1000);
    let es: EventSource;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 2000;
    let stopped = false;
    const connect = () => {
      es = new EventSource(p.live);
      es.addEventListener("timers", (e) => {
        const data = JSON.parse((e as MessageEvent).data) as { server_now: number; rows: TimerRow[] };
        offset.current = data.server_now - Date.now();
        setRows(data.rows);
        setAt(data.server_now);
        setNow(data.server_now);
        setLive(true);
        delay = 2000;
      });
      // The session ended: nothing to follow until the next sign-in.
      es.addEventListener("signed-out", () => {
        stopped = true;
        es.close();
        setLive(false);
      });
      es.onerror = () => {
        setLive(false);
        // The browser retries a dropped connection itself, but gives up on an HTTP error (a
        // server at its limit of streams answers 503): connect again, less and less often, at
        // spread moments (tabs refused together do not come back together).
        if (stopped || es.readyState !== EventSource.CLOSED) return;
        retry = setTimeout(connect, delay * (0.5 + Math.random()));
        delay = Math.min(delay * 2, 60_000);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(tick);
      es.close();
    };
  }, []);

  return (
    <div class="timers" data-live={live === null ? "connecting" : live ? "live" : "off"} data-at={at}>
      <p class="live-status" role="status">
        {live === null ? "" : live ? t.live_on : t.live_off}
      </p>
      {rows.length === 0 ? <p class="empty">{t.none}</p> : (
        <div class="table-wrap">
          <table class="list timers-table cards">
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.type}</th>
                <th scope="col">{t.state}</th>
                <th scope="col">{t.remaining}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const frame = frameAt(row.source, Math.max(now, row.source.at));
                const allowed = validActions(row.type, frame.state);
                const name = label(row, t);
                return (
                  <tr key={row.id} data-timer={row.id} data-state={frame.state}>
                    <th scope="row" id={`name-${row.id}`}>
                      {p.links ? <a href={`/dashboard/timers/${encodeURIComponent(row.id)}`}>{name}</a> : name}
                      <br />
                      <code class="muted small">{row.id}</code>
                    </th>
                    <td>{t.types[row.type]}</td>
                    <td>
                      <span class={`state state--${frame.state}`}>{t.states[frame.state]}</span>
                    </td>
                    <td class="num">
                      <Remaining frame={frame} lang={p.lang} t={t} />
                    </td>
                    <td>
                      <form
                        method="post"
                        action={`/dashboard/timers/${encodeURIComponent(row.id)}/action`}
                        class="row-actions"
                      >
                        <input type="hidden" name={p.csrf.field} value={p.csrf.token} />
                        <input type="hidden" name="back" value={p.back} />
                        {ACTIONS.filter((a) => allowed.includes(a)).map((a) => (
                          <button
                            key={a}
                            type="submit"
                            name="action"
                            value={a}
                            class="button button--small"
                            aria-describedby={`name-${row.id}`}
                          >
                            {t.action_names[a]}
                          </button>
                        ))}
                        <a
                          class="button button--small button--quiet"
                          href={row.viewer_url}
                          aria-describedby={`name-${row.id}`}
                        >
                          {t.viewer}
                        </a>
                      </form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
