/**
 * Browser-side timer hooks shared by the islands: the live source (SSE), the ticking frame,
 * the polite announcements and the completion alarm. The frame is always computed from the
 * deadline and the server clock offset, never by counting ticks, so two screens agree and a
 * tab woken from the background is right at once.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import {
  fill,
  type Frame,
  localDeadline,
  milestone,
  sameFace,
  type Sound,
  type Source,
  spokenDuration,
  type Zone,
} from "../lib/face.ts";
import type { FaceTexts } from "../lib/i18n.ts";
import type { Follow } from "./live_stream.ts";
import { pageOffset } from "./page_clock.ts";
import { Latest, type Shown } from "./latest.ts";
import type { Timeline } from "./timeline.ts";

export interface TimerHandle {
  frame: Frame;
  source: Source;
  title: string | null;
  gone: boolean;
  reconnecting: boolean;
  /** Count of live snapshots received. */
  snapshots: number;
  /** For a live timer: "live" once a snapshot has arrived and the stream is open. */
  sync: "live" | "connecting" | undefined;
  /** When the timer ends on this device's clock, or null. */
  deadline: number | null;
  /** Replaces the source (a parameter-only widget's restart). */
  restart: () => void;
  /**
   * Changes a parameter-only timer: `change` gets the newest source and the server instant and
   * returns the next source, or null to leave it (an action not valid in its state).
   */
  apply: (change: (src: Source, serverNow: number) => Source | null) => boolean;
  /** The server's clock now, as this page estimates it (not delayed). */
  serverNow: () => number;
}

export interface TimerOptions {
  /** Milliseconds the display runs behind the timer (`delay=`). */
  delayMs?: number;
  /** Shows the timer `delayMs` late (components/timeline.ts `Timeline`); without it `delayMs` is not applied. */
  delayed?: typeof Timeline;
  /** Follows `live` (components/live_stream.ts `followLive`); without it the source runs from its props. */
  follow?: Follow;
}

/**
 * The frame of a timer, re-rendered only when what is shown changes. `live` names a server
 * timer to follow over `GET /live/:id`; without it the source runs from its props. The title
 * follows the live timer's unless `hideTitle` (a widget asked not to show it: `show_title=0`).
 */
export function useTimer(
  initial: Source,
  live: string | null,
  title: string | null,
  hideTitle = false,
  opts: TimerOptions = {},
): TimerHandle {
  const delayMs = opts.delayMs ?? 0;
  const timeline = useRef<Shown | null>(null);
  timeline.current ??= delayMs > 0 && opts.delayed ? new opts.delayed(delayMs, initial) : new Latest(initial);
  const offset = useRef(0);
  const tickRef = useRef<() => void>(() => {});
  // The first render matches the server's (computed at the server's instant).
  // (timeline.ts initialFrame, without importing it where nothing is delayed)
  const [frame, setFrame] = useState(() => timeline.current!.frameAt(initial.at).frame);
  const [liveTitle, setTitle] = useState(title);
  const [gone, setGoneState] = useState(false);
  const goneRef = useRef(false);
  // A gone timer stops: no more ticks, the face says so.
  const setGone = (v: boolean) => {
    goneRef.current = v;
    setGoneState(v);
  };
  const [reconnecting, setReconnecting] = useState(false);
  const [snapshots, setSnapshots] = useState(0);
  // The local deadline is known only in the browser (the server's render stays the same for
  // every request within a second, so it can be reused).
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    offset.current = pageOffset(initial.at);
    setMounted(true);
    let handle = 0;
    const tick = () => {
      clearTimeout(handle);
      if (goneRef.current) return;
      const { frame: f, next_ms } = timeline.current!.frameAt(Date.now() + offset.current);
      setFrame((prev) => sameFace(prev, f) ? prev : f);
      if (next_ms !== null) handle = setTimeout(tick, next_ms + 1) as unknown as number;
    };
    tickRef.current = tick;
    tick();
    const wake = () => document.visibilityState === "visible" && tick();
    document.addEventListener("visibilitychange", wake);
    // A frozen tab (Page Lifecycle) resumes with its timers late: recompute at once.
    document.addEventListener("resume", tick);
    addEventListener("pageshow", tick);
    addEventListener("focus", tick);
    return () => {
      clearTimeout(handle);
      document.removeEventListener("visibilitychange", wake);
      document.removeEventListener("resume", tick);
      removeEventListener("pageshow", tick);
      removeEventListener("focus", tick);
    };
  }, []);

  // Following a live timer is a part its island brings (components/live_stream.ts): a widget
  // configured by its parameters loads none of it.
  useEffect(() => {
    if (!live || !opts.follow) return;
    return opts.follow(live, {
      offset,
      push: (src) => timeline.current!.push(src),
      title: (t) => !hideTitle && setTitle(t),
      snapshot: () => setSnapshots((n) => n + 1),
      tick: () => tickRef.current(),
      setReconnecting,
      setGone,
    });
  }, [live]);

  const shown = timeline.current.sourceAt(Date.now() + offset.current - delayMs);
  const apply = (change: (src: Source, serverNow: number) => Source | null) => {
    const next = change(timeline.current!.latest, Date.now() + offset.current);
    if (next) timeline.current!.push(next);
    tickRef.current();
    return next !== null;
  };
  return {
    frame,
    source: shown,
    title: liveTitle,
    gone,
    reconnecting,
    snapshots,
    sync: live ? (snapshots > 0 && !reconnecting ? "live" : "connecting") : undefined,
    deadline: gone || !mounted ? null : localDeadline(shown, offset.current - delayMs),
    restart: () => void apply((src, now) => ({ ...src, state: "running", elapsed_ms: 0, at: now })),
    apply,
    serverNow: () => Date.now() + offset.current,
  };
}

/**
 * What the polite live region says: state changes, interval phases, and the remaining time
 * only at milestones (10 s, 30 s, 1, 2, 5, 10, 15, 30 min, hours, days), never every second.
 */
export function useAnnouncer(frame: Frame, t: FaceTexts, lang: string): string {
  const [text, setText] = useState("");
  const prev = useRef<Frame | null>(null);
  useEffect(() => {
    const p = prev.current;
    prev.current = frame;
    if (!p) return;
    if (p.state !== frame.state) {
      setText(t[`state_${frame.state}`]);
    } else if (frame.state !== "running") {
      return;
    } else if (frame.phase !== null) {
      if (p.phase !== frame.phase || p.round !== frame.round) {
        const round = frame.rounds === null
          ? fill(t.round_open, { n: frame.round ?? 1 })
          : fill(t.round, { n: frame.round ?? 1, total: frame.rounds });
        setText(`${frame.phase === "rest" ? t.rest : t.work}, ${round}`);
      }
    } else {
      const before = milestone(p.seconds);
      const now = milestone(frame.seconds);
      if (now !== before && now > 0) setText(fill(t.remaining, { time: spokenDuration(now, lang) }));
    }
  }, [frame]);
  return text;
}

export type SoundState = "off" | "blocked" | "ready";

/** What a cue marks: a zone entered, or zero. */
export type CueMoment = "warning" | "danger" | "zero";

/**
 * Plays `n` cues of a kind, synthesised: a beep is a short 880 Hz tone; a chime a bell-like tone
 * (inharmonic partials, a slow decay).
 */
function playCue(ac: AudioContext, kind: "beep" | "chime", n: number): void {
  const t0 = ac.currentTime + 0.02;
  const gap = kind === "beep" ? 0.3 : 0.55;
  const partials = kind === "beep" ? [[880, 0.3]] : [[660, 0.25], [660 * 2.76, 0.08], [660 * 5.4, 0.04]];
  const length = kind === "beep" ? 0.18 : 1.2;
  for (let i = 0; i < n; i++) {
    for (const [hz, level] of partials) {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.frequency.value = hz;
      const at = t0 + i * gap;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(level, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(ac.destination);
      osc.start(at);
      osc.stop(at + length + 0.02);
    }
  }
}

/**
 * Web Audio cues while watched: at zero (a short beep, or the timer's `sound`), and with a sound
 * chosen, at entering warning and danger too. Browsers block audio until the person interacts
 * with the frame; `blocked` says so, and `unlock` (from a click) fixes it.
 */
export function useAlarm(enabled: boolean, state: Frame["state"], sound: Sound = "none", zone: Zone = "normal"): {
  sound: SoundState;
  unlock: () => void;
  played: number;
  cue: CueMoment | null;
} {
  const ctx = useRef<AudioContext | null>(null);
  const [soundState, setSound] = useState<SoundState>("off");
  const [played, setPlayed] = useState(0);
  const [cue, setCue] = useState<CueMoment | null>(null);
  const last = useRef({ state, zone });

  useEffect(() => {
    if (!enabled || typeof AudioContext === "undefined") return;
    const ac = ctx.current = new AudioContext();
    const update = () => setSound(ac.state === "running" ? "ready" : "blocked");
    ac.onstatechange = update;
    update();
    const unlockOnGesture = () => ac.state !== "running" && ac.resume().catch(() => {});
    addEventListener("pointerdown", unlockOnGesture);
    addEventListener("keydown", unlockOnGesture);
    return () => {
      removeEventListener("pointerdown", unlockOnGesture);
      removeEventListener("keydown", unlockOnGesture);
      ac.close().catch(() => {});
    };
  }, [enabled]);

  useEffect(() => {
    const was = last.current;
    last.current = { state, zone };
    const ac = ctx.current;
    if (was.state !== "running" || !ac || ac.state !== "running") return;
    let moment: CueMoment | null = null;
    if (state === "completed" || (zone === "overtime" && was.zone !== "overtime")) moment = "zero";
    else if (sound !== "none" && state === "running" && zone !== was.zone) {
      moment = zone === "warning" ? "warning" : zone === "danger" ? "danger" : null;
    }
    if (!moment) return;
    playCue(ac, sound === "chime" ? "chime" : "beep", moment === "zero" ? 3 : moment === "danger" ? 2 : 1);
    setCue(moment);
    setPlayed((n) => n + 1);
  }, [state, zone]);

  return {
    sound: soundState,
    played,
    cue,
    unlock: () => {
      ctx.current?.resume().then(() => setSound(ctx.current?.state === "running" ? "ready" : "blocked"), () => {});
    },
  };
}
