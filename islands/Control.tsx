/**
 * The control panel of /c/:id#<token>: the live face and the five actions. The token comes
 * from the URL fragment (never sent to the server with the page request) and is checked with
 * GET /api/v1/timers/:id before any button is enabled.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { TimerFace } from "../components/TimerFace.tsx";
import { useAnnouncer, useTimer } from "../components/use_timer.ts";
import { type Action, fill, type Source, validActions } from "../lib/display.ts";
import type { Texts } from "../lib/i18n.ts";

export interface ControlProps {
  id: string;
  source: Source;
  lang: string;
  t: Texts;
  title: string | null;
  date: { text: string; iso: string } | null;
  brand: string;
}

/** The token in a fragment; a malformed escape (`#%zz`) is kept as typed, never thrown. */
function fragmentToken(hash: string): string {
  const raw = hash.replace(/^#/, "");
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return raw.trim();
  }
}

type Access = "checking" | "none" | "invalid" | "ok" | "error";
const ACTIONS: Action[] = ["start", "pause", "resume", "stop", "reset"];

export default function Control(p: ControlProps) {
  const timer = useTimer(p.source, p.id, p.title);
  const { frame } = timer;
  const { t } = p;
  const announcement = useAnnouncer(frame, t, p.lang);
  const [access, setAccess] = useState<Access>("checking");
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [waitFor, setWaitFor] = useState<number | null>(null);
  const token = useRef("");
  const group = useRef<HTMLDivElement>(null);
  /** A button was used: the keyboard focus stays among the buttons from then on. */
  const acted = useRef(false);
  const snapshots = useRef(0);
  snapshots.current = timer.snapshots;
  const api = `/api/v1/timers/${encodeURIComponent(p.id)}`;

  // The token is read again when the fragment changes: a control link pasted over this page's
  // address only changes the fragment, and the browser does not load the page again.
  useEffect(() => {
    let current = 0;
    function check() {
      const run = ++current;
      token.current = fragmentToken(location.hash);
      setMessage("");
      if (!token.current) return setAccess("none");
      setAccess("checking");
      fetch(api, { headers: { authorization: `Bearer ${token.current}` } }).then(async (res) => {
        await res.body?.cancel();
        if (run !== current) return;
        setAccess(res.ok ? "ok" : res.status === 401 || res.status === 403 ? "invalid" : "error");
        if (!res.ok && res.status !== 401 && res.status !== 403) setMessage(`HTTP ${res.status}`);
      }, (err) => {
        if (run !== current) return;
        setAccess("error");
        setMessage(String(err?.message ?? err));
      });
    }
    check();
    addEventListener("hashchange", check);
    return () => removeEventListener("hashchange", check);
  }, []);

  // After an action, hold the buttons until the stream shows its effect (at most 1.5 s).
  useEffect(() => {
    if (waitFor === null) return;
    if (timer.snapshots !== waitFor) return setWaitFor(null);
    const h = setTimeout(() => setWaitFor(null), 1500);
    return () => clearTimeout(h);
  }, [waitFor, timer.snapshots]);

  // A button that stops being valid (Start once running) is disabled, and the browser drops its
  // focus to the page: it goes to the next valid action instead (Start → Pause → Resume), so a
  // keyboard or screen-reader user is not sent back to the top of the page.
  useEffect(() => {
    const buttons = group.current;
    if (!acted.current || !buttons) return;
    const focused = document.activeElement;
    if (
      focused && focused !== document.body && !(buttons.contains(focused) && (focused as HTMLButtonElement).disabled)
    ) {
      return;
    }
    buttons.querySelector<HTMLButtonElement>("button:not([disabled])")?.focus();
  });

  async function act(action: Action) {
    if (busy || waitFor !== null) return;
    acted.current = true;
    setBusy(true);
    const before = snapshots.current;
    try {
      const res = await fetch(`${api}/state`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${token.current}`, "content-type": "application/json" },
        body: JSON.stringify({ action }),
      });
      const body = await res.json().catch(() => null);
      if (res.ok) {
        setMessage(fill(t.control_done, { action: t[action] }));
        if (snapshots.current === before) setWaitFor(before);
      } else {
        setMessage(fill(t.control_error, { action: t[action], message: body?.error?.message ?? `HTTP ${res.status}` }));
        if (res.status === 401) setAccess("invalid");
      }
    } catch (err) {
      setMessage(fill(t.control_error, { action: t[action], message: String((err as Error)?.message ?? err) }));
    } finally {
      setBusy(false);
    }
  }

  // An event that was never started counts all the same; it can still be started.
  const state = timer.source.type === "event" && timer.source.state === "idle" ? "idle" : frame.state;
  const allowed = timer.gone ? [] : validActions(p.source.type, state);
  const enabled = access === "ok" && !timer.gone;
  // While an action is under way the buttons are held (aria-disabled), not disabled: a disabled
  // button would lose the keyboard focus.
  const held = busy || waitFor !== null;
  // A deleted or expired timer has nothing left to control: no earlier "Sent: …" stays.
  const status = timer.gone
    ? t.state_gone
    : access === "checking"
    ? t.control_checking
    : access === "none"
    ? t.control_no_token
    : access === "invalid"
    ? t.control_bad_token
    : access === "error"
    ? fill(t.control_error, { action: "…", message })
    : message || t.control_ready;
  return (
    <div class="control">
      <TimerFace
        frame={frame}
        type={p.source.type}
        lang={p.lang}
        t={t}
        title={timer.title}
        date={p.date}
        announcement={announcement}
        notice={timer.gone ? t.gone : timer.reconnecting ? t.reconnecting : null}
        gone={timer.gone}
        brand={null}
        variant="page"
        deadline={timer.deadline}
        sync={timer.sync}
      />
      <section class="control-panel" aria-labelledby="controls-heading">
        <h2 id="controls-heading" class="control-heading">{t.controls}</h2>
        <div class="control-buttons" ref={group}>
          {ACTIONS.map((a) => (
            <button
              key={a}
              type="button"
              class={`control-button control-${a}`}
              data-action={a}
              disabled={!enabled || !allowed.includes(a)}
              aria-disabled={held ? "true" : undefined}
              onClick={() => act(a)}
            >
              {t[a]}
            </button>
          ))}
        </div>
        <p class={`control-status control-status--${access}`} role="status">{status}</p>
      </section>
    </div>
  );
}
