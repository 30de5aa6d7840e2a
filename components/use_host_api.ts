/**
 * The widget's host-page API, browser part: once framed, the widget posts `ready`, then what
 * components/host_messages.ts derives after every render, and `resize` with the natural size of
 * its content; a parameter-only widget takes commands from its parent. Nothing posted is secret
 * (what any viewer of the timer sees), so the target origin is "*".
 */
import type { RefObject } from "preact";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { Frame, Source } from "../lib/face.ts";
import type { Obey } from "./host_commands.ts";
import { hostMessages, type Reported, type WidgetMessage, type Zone, ZONES } from "./host_messages.ts";

export interface HostApiOptions {
  /** The live timer's id; null for a parameter-only widget (which obeys commands). */
  timerId: string | null;
  frame: Frame;
  type: Source["type"];
  /** When the shown timer ends on this device's clock (epoch ms), or null. */
  deadline: number | null;
  serverNow: () => number;
  face: RefObject<HTMLElement>;
  /** Applies a change to a parameter-only timer. */
  apply: (change: (src: Source, now: number) => Source | null) => boolean;
  /** Takes the parent's commands (components/host_commands.ts); absent where none apply. */
  obey?: Obey;
  enabled: boolean;
}

function framed(): boolean {
  try {
    return parent !== self;
  } catch {
    return true;
  }
}

function post(m: WidgetMessage) {
  parent.postMessage(m, "*");
}

/** The zone the face shows: the frame's when it has one, else its `data-zone`, else "normal". */
function zoneOf(frame: Frame, face: HTMLElement | null): Zone {
  const z = (frame as Frame & { zone?: string }).zone ?? face?.dataset.zone;
  return z && ZONES.includes(z) ? z as Zone : "normal";
}

/**
 * The size the content needs at the frame's current width, whatever the frame's height: it is
 * laid out once in a very tall frame (so no height-bound size binds and no part is taken away),
 * measured, and put back before anything is painted. A host that sizes its iframe to it gets the
 * same answer again, never a loop.
 */
export function naturalSize(face: HTMLElement): { width: number; height: number } {
  const shell = face.closest<HTMLElement>(".shell") ?? face;
  const time = face.querySelector<HTMLElement>(".face-time");
  const root = document.documentElement;
  const saved = {
    height: shell.style.height,
    overflow: root.style.overflow,
    fit: face.dataset.fit,
    k: time?.style.getPropertyValue("--k") ?? "",
  };
  root.style.overflow = "hidden";
  shell.style.height = `${Math.max(3000, 6 * shell.clientWidth)}px`;
  delete face.dataset.fit;
  time?.style.removeProperty("--k");
  let top = Infinity, bottom = -Infinity, width = 0;
  for (const el of face.children) {
    if (el.classList.contains("sr-only")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    top = Math.min(top, r.top);
    bottom = Math.max(bottom, r.bottom);
    width = Math.max(width, r.width);
  }
  const cs = getComputedStyle(face);
  const padX = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
  const padY = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
  shell.style.height = saved.height;
  root.style.overflow = saved.overflow;
  if (saved.fit !== undefined) face.dataset.fit = saved.fit;
  if (saved.k) time?.style.setProperty("--k", saved.k);
  return {
    width: Math.ceil(width + padX),
    height: Math.ceil((bottom > top ? bottom - top : 0) + padY),
  };
}

export function useHostApi(o: HostApiOptions) {
  const last = useRef<Reported | null>(null);
  const size = useRef({ width: 0, height: 0 });
  const on = useRef(false);
  const opts = useRef(o);
  opts.current = o;

  // Ready once, and commands for a parameter-only widget.
  useEffect(() => {
    if (!o.enabled || !framed()) return;
    on.current = true;
    post({ source: "timer-widget", type: "ready", timer_id: o.timerId });
    // A live timer changes only through the API and its control link (its island has no `obey`).
    if (o.timerId !== null || !o.obey) return;
    return o.obey((change) => opts.current.apply(change));
  }, [o.enabled]);

  // After every render: what changed, told once.
  useEffect(() => {
    if (!on.current) return;
    const f = o.frame;
    // Before its first tick a running face knows no deadline yet: report from the next render.
    if (f.state === "running" && f.remaining_ms !== null && o.deadline === null) return;
    const serverNow = o.serverNow();
    const next: Reported = {
      state: f.state,
      zone: zoneOf(f, o.face.current),
      remaining_ms: f.remaining_ms,
      ends_at: o.deadline === null || f.state !== "running" ? null : o.deadline + (serverNow - Date.now()),
      round: f.round,
      rounds: f.rounds,
      type: o.type,
      server_now: serverNow,
    };
    for (const m of hostMessages(last.current, next, o.timerId)) post(m);
    last.current = next;
  });

  // The content's natural size, when it changes (renders, frame width, late fonts).
  useLayoutEffect(() => {
    if (on.current && o.face.current) report(o.face.current);
  });
  useEffect(() => {
    const face = o.face.current;
    if (!on.current || !face || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => report(face));
    observer.observe(face);
    document.fonts?.ready.then(() => report(face));
    return () => observer.disconnect();
  }, [o.enabled]);

  function report(face: HTMLElement) {
    const s = naturalSize(face);
    if (s.width === size.current.width && s.height === size.current.height) return;
    size.current = s;
    post({ source: "timer-widget", type: "resize", timer_id: opts.current.timerId, ...s });
  }
}
