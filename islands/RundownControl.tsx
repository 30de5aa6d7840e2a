/**
 * A rundown's control page (/r/<id>/control#<token>): the items with the live one marked, and
 * Start / Previous / Next / Stop / Reset / Go to, sent with the control token from the address's
 * fragment (it never reaches a server log). Follows changes made elsewhere through the stage stream.
 */
import { useEffect, useState } from "preact/hooks";

export interface ControlItem {
  title: string | null;
  state: string;
  expected_start: string | null;
}

export interface RundownControlProps {
  rundownId: string;
  title: string | null;
  current: number;
  state: string;
  items: ControlItem[];
  stageUrl: string;
  agendaUrl: string;
}

const ACTIONS = ["start", "previous", "next", "stop", "reset"] as const;
const LABEL: Record<string, string> = {
  start: "Start",
  previous: "◀ Previous",
  next: "Next ▶",
  stop: "Stop",
  reset: "Reset",
};

export default function RundownControl(p: RundownControlProps) {
  const [show, setShow] = useState({ current: p.current, state: p.state, items: p.items });
  const [token, setToken] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const api = `/api/v1/rundowns/${encodeURIComponent(p.rundownId)}`;

  const apply = (body: { current: number; state: string; items: ControlItem[] }) =>
    setShow({ current: body.current, state: body.state, items: body.items });

  useEffect(() => {
    const t = location.hash.slice(1);
    if (!t) return setProblem("This link has no control token: use the control_url the API returned.");
    setToken(t);
    const refresh = () =>
      fetch(api, { headers: { authorization: `Bearer ${t}` } }).then(async (r) => r.ok && apply(await r.json()))
        .catch(() => {});
    const es = new EventSource(`/live/r/${encodeURIComponent(p.rundownId)}`);
    es.addEventListener("item", () => void refresh());
    return () => es.close();
  }, [p.rundownId]);

  async function act(action: string, index?: number) {
    if (!token) return;
    const q = index === undefined ? "" : `?index=${index}`;
    const r = await fetch(`${api}/actions/${action}${q}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    }).catch(() => null);
    if (!r) return setProblem("The server could not be reached; try again.");
    const body = await r.json().catch(() => null);
    if (r.ok && body) {
      setProblem(null);
      apply(body);
    } else setProblem(body?.error?.message ?? `The server answered ${r.status}.`);
  }

  return (
    <div class="rundown-control" data-state={show.state} data-current={show.current}>
      <h1 class="rundown-title" dir="auto">{p.title ?? "Rundown"}</h1>
      <p class="rundown-links">
        <a href={p.stageUrl} data-stage-link>Stage</a> · <a href={p.agendaUrl}>Agenda</a>
      </p>
      <div class="rundown-actions">
        {ACTIONS.map((a) => (
          <button type="button" key={a} data-action={a} disabled={!token} onClick={() => void act(a)}>
            {LABEL[a]}
          </button>
        ))}
      </div>
      {problem && <p class="rundown-problem" role="alert">{problem}</p>}
      <ol class="rundown-items">
        {show.items.map((item, i) => (
          <li key={i} data-live={i === show.current ? "1" : "0"} data-item-state={item.state}>
            <span class="rundown-item-title" dir="auto">{item.title ?? `Item ${i + 1}`}</span>
            <span class="rundown-item-state">{item.state}</span>
            <button
              type="button"
              data-goto={i}
              disabled={!token}
              onClick={() =>
                void act("goto", i)}
            >
              Go to
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
