/**
 * The control panel of /c/:id#<token>: the live face and the five actions. The token comes
 * from the URL fragment (never sent to the server with the page request) and is checked with
 * GET /api/v1/timers/:id before any button is enabled.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { MessageForm, type MessageInput } from "../components/MessageForm.tsx";
import { FaceMessageLine } from "../components/FaceMessage.tsx";
import { followLive } from "../components/live_stream.ts";
import { TimerFace } from "../components/TimerFace.tsx";
import { useAnnouncer, useTimer } from "../components/use_timer.ts";
import { useViewerDate } from "../components/viewer_date.ts";
import { type Action, fill, type Source, spokenDuration, validActions } from "../lib/display.ts";
import type { Texts } from "../lib/i18n.ts";
import type { ShowTexts } from "../lib/i18n_show.ts";

export interface ControlProps {
  id: string;
  source: Source;
  lang: string;
  t: Texts;
  title: string | null;
  date: { text: string; iso: string } | null;
  brand: string;
  st: ShowTexts;
  /** The speaker's screen (the viewer), linked for an operator who holds only the control link. */
  viewerUrl: string;
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
const ADJUSTS = [-60, -10, 10, 60];
/** How long a Reset or Stop pressed once while the timer runs waits for its confirmation. */
const CONFIRM_MS = 4000;

/** Whether a key press belongs to a field being typed in (the operator's keys then do nothing). */
function typing(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

export default function Control(p: ControlProps) {
  const timer = useTimer(p.source, p.id, p.title, false, { follow: followLive });
  const viewerDate = useViewerDate(p.date, p.lang);
  const { frame } = timer;
  const { t, st } = p;
  const faceT = { ...t, ...st };
  const announcement = useAnnouncer(frame, faceT, p.lang);
  const [confirming, setConfirming] = useState<Action | null>(null);
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

  /** Sends one request of the operator; `label` names it in the status line. */
  async function send(label: string, path: string, init: RequestInit, done = fill(t.control_done, { action: label })) {
    if (busy || waitFor !== null) return;
    acted.current = true;
    setBusy(true);
    const before = snapshots.current;
    try {
      const res = await fetch(`${api}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token.current}`, "content-type": "application/json" },
      });
      const body = await res.json().catch(() => null);
      if (res.ok) {
        setMessage(done);
        if (snapshots.current === before) setWaitFor(before);
      } else {
        setMessage(fill(t.control_error, { action: label, message: body?.error?.message ?? `HTTP ${res.status}` }));
        if (res.status === 401) setAccess("invalid");
      }
    } catch (err) {
      setMessage(fill(t.control_error, { action: label, message: String((err as Error)?.message ?? err) }));
    } finally {
      setBusy(false);
    }
  }

  /** An action; Reset and Stop ask once more while the timer runs. */
  function act(action: Action) {
    if ((action === "reset" || action === "stop") && frame.state === "running" && confirming !== action) {
      setConfirming(action);
      setMessage(fill(st.confirm_again, { action: t[action] }));
      return;
    }
    setConfirming(null);
    void send(t[action], `/actions/${action}`, { method: "POST" });
  }

  function adjust(seconds: number) {
    const time = spokenDuration(Math.abs(seconds), p.lang);
    const label = fill(seconds > 0 ? st.adjust_add : st.adjust_take, { time });
    void send(label, `/actions/adjust?seconds=${seconds}`, { method: "POST" });
  }

  function showMessage(m: MessageInput | null) {
    if (m === null) return void send(st.message_clear, "/message", { method: "DELETE" }, st.message_cleared);
    void send(st.message_send, "/message", { method: "PUT", body: JSON.stringify(m) }, st.message_sent);
  }

  // A confirmation not given in time lapses.
  useEffect(() => {
    if (confirming === null) return;
    const h = setTimeout(() => setConfirming(null), CONFIRM_MS);
    return () => clearTimeout(h);
  }, [confirming]);

  // The operator's keys: Space starts, pauses or resumes; + and − add or take a minute; R resets.
  const keys = useRef<(e: KeyboardEvent) => void>(() => {});
  keys.current = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e) || !enabled) return;
    if (e.key === " ") {
      // A focused button or link takes Space itself.
      if ((e.target as HTMLElement | null)?.closest?.("button, a, summary")) return;
      const next = (["start", "resume", "pause"] as Action[]).find((a) => allowed.includes(a));
      if (next) act(next);
    } else if ((e.key === "+" || e.key === "=") && canAdjust) adjust(60);
    else if ((e.key === "-" || e.key === "_") && canAdjust) adjust(-60);
    else if ((e.key === "r" || e.key === "R") && allowed.includes("reset")) act("reset");
    else return;
    e.preventDefault();
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => keys.current(e);
    addEventListener("keydown", listener);
    return () => removeEventListener("keydown", listener);
  }, []);

  // An event that was never started counts all the same; it can still be started.
  const state = timer.source.type === "event" && timer.source.state === "idle" ? "idle" : frame.state;
  const allowed = timer.gone ? [] : validActions(p.source.type, state);
  const enabled = access === "ok" && !timer.gone;
  const canAdjust = enabled && p.source.type !== "event" && (frame.state === "running" || frame.state === "paused");
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
        t={faceT}
        title={timer.title}
        date={p.date}
        viewerDate={viewerDate}
        Message={FaceMessageLine}
        announcement={announcement}
        notice={timer.gone ? t.gone : timer.reconnecting ? t.reconnecting : null}
        gone={timer.gone}
        brand={null}
        variant="page"
        deadline={timer.deadline}
        sync={timer.sync}
        message={timer.source.message}
        preview
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
              data-confirm={confirming === a ? "" : undefined}
              onClick={() => act(a)}
            >
              {t[a]}
            </button>
          ))}
        </div>
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
                aria-disabled={held ? "true" : undefined}
                // The name starts with what is shown (voice control users say what they see).
                aria-label={`${shown} (${said})`}
                onClick={() => adjust(n)}
              >
                {shown}
              </button>
            );
          })}
        </div>
        <MessageForm
          st={st}
          enabled={enabled}
          held={held}
          current={timer.source.message ?? null}
          onSend={showMessage}
        />
        <p class={`control-status control-status--${access}`} role="status">{status}</p>
        <p class="control-links">
          <a href={p.viewerUrl} target="_blank" rel="noopener" data-viewer-link>{st.open_viewer}</a>
          {" · "}
          <span>{st.keys_hint}</span>
        </p>
      </section>
    </div>
  );
}
