/**
 * A rundown's control page (/r/<id>/control#<token>): the items with the live one marked;
 * Start / Previous / Next / Stop / Reset / Go to; the live item's adjust and message; the show's
 * message across items. Everything is sent with the control token from the address's fragment
 * (it never reaches a server log). Follows changes made elsewhere through the stage stream.
 */
import { useEffect, useState } from "preact/hooks";
import { MessageForm, type MessageInput } from "../components/MessageForm.tsx";
import { fill, spokenDuration } from "../lib/display.ts";
import type { FaceMessage } from "../lib/face.ts";
import type { RundownTexts } from "../lib/i18n_rundown.ts";
import type { ShowTexts } from "../lib/i18n_show.ts";

export interface ControlItem {
  title: string | null;
  state: string;
  expected_start: string | null;
  message: FaceMessage | null;
}

/** The timer pages' words the control page borrows: buttons and item states. */
export interface BorrowedTexts {
  start: string;
  stop: string;
  reset: string;
  states: Record<string, string>;
}

export interface RundownControlProps {
  rundownId: string;
  title: string | null;
  current: number;
  state: string;
  items: ControlItem[];
  message: FaceMessage | null;
  stageUrl: string;
  agendaUrl: string;
  lang: string;
  rt: RundownTexts;
  st: ShowTexts;
  tt: BorrowedTexts;
}

const ACTIONS = ["start", "previous", "next", "stop", "reset"] as const;
const ADJUSTS = [-60, -10, 10, 60];

interface Show {
  current: number;
  state: string;
  items: ControlItem[];
  message: FaceMessage | null;
}

export default function RundownControl(p: RundownControlProps) {
  const { rt, st, tt } = p;
  const [show, setShow] = useState<Show>({
    current: p.current,
    state: p.state,
    items: p.items,
    message: p.message,
  });
  const [token, setToken] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const api = `/api/v1/rundowns/${encodeURIComponent(p.rundownId)}`;

  const apply = (b: Show) => setShow({ current: b.current, state: b.state, items: b.items, message: b.message });

  useEffect(() => {
    const t = location.hash.slice(1);
    if (!t) return setProblem(rt.no_token);
    setToken(t);
    const refresh = () =>
      fetch(api, { headers: { authorization: `Bearer ${t}` } }).then(async (r) => r.ok && apply(await r.json()))
        .catch(() => {});
    const es = new EventSource(`/live/r/${encodeURIComponent(p.rundownId)}`);
    es.addEventListener("item", () => void refresh());
    return () => es.close();
  }, [p.rundownId]);

  async function send(path: string, init: RequestInit) {
    if (!token) return;
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (init.body) headers["content-type"] = "application/json";
    const r = await fetch(`${api}${path}`, { ...init, headers }).catch(() => null);
    if (!r) return setProblem(rt.unreachable);
    const body = await r.json().catch(() => null);
    if (r.ok && body) {
      setProblem(null);
      apply(body);
    } else setProblem(body?.error?.message ?? fill(rt.answered, { status: String(r.status) }));
  }

  const act = (action: string, index?: number) =>
    send(`/actions/${action}${index === undefined ? "" : `?index=${index}`}`, { method: "POST" });
  const message = (path: string) => (m: MessageInput | null) =>
    void send(path, m === null ? { method: "DELETE" } : { method: "PUT", body: JSON.stringify(m) });

  const live = show.items[show.current];
  const canAdjust = !!token && (live?.state === "running" || live?.state === "paused");
  const label = { start: tt.start, previous: rt.previous, next: rt.next_action, stop: tt.stop, reset: tt.reset };
  const stateOf = (s: string) => s === "missing" ? rt.missing : tt.states[s] ?? s;
  const itemTitle = (item: ControlItem | undefined, i: number) => item?.title ?? fill(rt.item_n, { n: String(i + 1) });

  return (
    <div class="rundown-control" data-state={show.state} data-current={show.current}>
      <h1 class="rundown-title" dir="auto">{p.title ?? rt.rundown}</h1>
      <p class="rundown-links">
        <a href={p.stageUrl} target="_blank" rel="noopener" data-stage-link>{rt.stage}</a>
        {" · "}
        <a href={p.agendaUrl} target="_blank" rel="noopener" data-agenda-link>{rt.agenda}</a>
      </p>
      <div class="rundown-actions">
        {ACTIONS.map((a) => (
          <button type="button" key={a} data-action={a} disabled={!token} onClick={() => void act(a)}>
            {label[a]}
          </button>
        ))}
      </div>
      {problem && <p class="rundown-problem" role="alert">{problem}</p>}
      <section class="rundown-live" aria-labelledby="live-heading" data-live-item={show.current}>
        <h2 id="live-heading">
          {rt.live_item}: <span dir="auto">{itemTitle(live, show.current)}</span>
        </h2>
        <div class="control-row control-adjust" role="group" aria-label={st.adjust}>
          {ADJUSTS.map((n) => {
            const shown = `${n > 0 ? "+" : "−"}${Math.abs(n) >= 60 ? `${Math.abs(n) / 60}:00` : `0:${Math.abs(n)}`}`;
            const said = fill(n > 0 ? st.adjust_add : st.adjust_take, { time: spokenDuration(Math.abs(n), p.lang) });
            return (
              <button
                key={n}
                type="button"
                class="control-button"
                data-adjust={n}
                disabled={!canAdjust}
                aria-label={`${shown} (${said})`}
                onClick={() => void send(`/actions/adjust?seconds=${n}`, { method: "POST" })}
              >
                {shown}
              </button>
            );
          })}
        </div>
        <h3>{rt.item_message}</h3>
        <div data-message-target="item">
          <MessageForm
            key={`item-${show.current}-${live?.message?.set_at ?? ""}`}
            st={st}
            enabled={!!token && !!live}
            held={false}
            current={live?.message ?? null}
            onSend={message("/item/message")}
          />
        </div>
      </section>
      <section class="rundown-show-message" aria-labelledby="show-message-heading">
        <h2 id="show-message-heading">{rt.show_message}</h2>
        <div data-message-target="rundown">
          <MessageForm
            key={`show-${show.message?.set_at ?? ""}`}
            st={st}
            enabled={!!token}
            held={false}
            current={show.message}
            onSend={message("/message")}
          />
        </div>
      </section>
      <ol class="rundown-items">
        {show.items.map((item, i) => (
          <li key={i} data-live={i === show.current ? "1" : "0"} data-item-state={item.state}>
            <span class="rundown-item-title" dir="auto">{itemTitle(item, i)}</span>
            <span class="rundown-item-state">{stateOf(item.state)}</span>
            <button
              type="button"
              data-goto={i}
              disabled={!token}
              onClick={() =>
                void act("goto", i)}
            >
              {rt.goto}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
