/**
 * The face of a timer: title, state in words, interval phase and round, the clock, the
 * event's date and a polite live region. Rendered on the server and inside islands alike.
 */
import type { ComponentChildren, Ref } from "preact";
import {
  clockParts,
  type FaceMessage,
  fill,
  type Frame,
  textEm,
  type TimerState,
  type TimerType,
} from "../lib/face.ts";
import type { FaceTexts } from "../lib/i18n.ts";
import type { FaceMessageLine } from "./FaceMessage.tsx";

export interface FaceProps {
  frame: Frame;
  type: TimerType;
  lang: string;
  t: FaceTexts;
  title: string | null;
  /** An event's target as its zone reads it, when shown. */
  date: { text: string; iso: string } | null;
  /** The date as the viewer's own clock reads it, when that differs (components/viewer_date.ts). */
  viewerDate?: string | null;
  /** The polite announcement (changes only at milestones). */
  announcement: string;
  /** A line about the connection or the timer being gone. */
  notice?: string | null;
  /** Link of the service branding, or null to hide it. */
  brand: string | null;
  variant: "widget" | "page";
  /** When the timer ends on this device's clock (epoch ms), for tests and debugging. */
  deadline?: number | null;
  /** For live timers: whether a snapshot of the stream has arrived ("live") or not yet. */
  sync?: "live" | "connecting";
  children?: ComponentChildren;
  /** Lines after the date (the time of day of `clock=1`). */
  extra?: ComponentChildren;
  /** A badge over the face (the reconnecting badge; positioned by static/widget.css). */
  badge?: ComponentChildren;
  /** The timer was deleted or expired: the face stops and says so. */
  gone?: boolean;
  /** The face's root element, for fitting it to its frame. */
  faceRef?: Ref<HTMLDivElement>;
  /** The message to the speaker, when this face shows it. */
  message?: FaceMessage | null;
  /** Shows `message` (components/FaceMessage.tsx): a part of the faces that show messages. */
  Message?: typeof FaceMessageLine;
  /** The operator's preview: a blackout is named, not shown (the control page stays usable). */
  preview?: boolean;
}

/** The zone in words (never colour alone), or null in the normal zone. */
export function zoneLabel(t: FaceTexts, zone: Frame["zone"]): string | null {
  return zone === "normal" ? null : t[`zone_${zone}`];
}

export function stateLabel(t: FaceTexts, state: TimerState): string {
  return t[`state_${state}`];
}

export function roundLabel(t: FaceTexts, frame: Frame, lang: string): string {
  const n = new Intl.NumberFormat(lang);
  return frame.rounds === null
    ? fill(t.round_open, { n: n.format(frame.round ?? 1) })
    : fill(t.round, { n: n.format(frame.round ?? 1), total: n.format(frame.rounds) });
}

export function TimerFace(p: FaceProps) {
  const { frame, t } = p;
  const viewerDate = p.viewerDate ?? null;
  const clock = p.gone ? { days: null, hms: "--:--" } : clockParts(frame.seconds, p.lang);
  const over = frame.zone === "overtime" && !p.gone;
  const { days } = clock;
  const hms = over ? `+${clock.hms}` : clock.hms;
  const zone = p.gone ? null : zoneLabel(t, frame.zone);
  const msg = p.message ?? null;
  const blackout = msg?.blackout === true;
  return (
    <div
      ref={p.faceRef}
      class={`face face--${p.variant}`}
      data-zone={frame.zone}
      data-blackout={blackout && !p.preview ? "" : undefined}
      data-state={p.gone ? "gone" : frame.state}
      data-type={p.type}
      data-phase={frame.phase ?? undefined}
      data-deadline={p.deadline ?? undefined}
      data-sync={p.sync}
    >
      {/* dir="auto": a right-to-left title (Arabic, Hebrew) reads, wraps and clamps from its own end */}
      {p.title && <h1 class="face-title" dir="auto">{p.title}</h1>}
      <p class="face-status">
        <span class="face-mark" aria-hidden="true" />
        <span class="face-state">{p.gone ? t.state_gone : stateLabel(t, frame.state)}</span>
        {zone && <span class="face-zone-name">{zone}</span>}
      </p>
      {p.type === "interval" && !p.gone && (
        <p class="face-phase">
          <strong class="face-phase-name">{frame.phase === "rest" ? t.rest : t.work}</strong>{" "}
          <span class="face-round">{roundLabel(t, frame, p.lang)}</span>
        </p>
      )}
      <div
        class={`face-time${days ? " face-time--days" : ""}`}
        role="timer"
        tabIndex={-1}
        style={{ "--hw": textEm(hms), "--dw": days ? textEm(days) : 0 }}
      >
        {days && <span class="face-days">{days}</span>}
        <span class="face-hms">{hms}</span>
      </div>
      {frame.progress !== null && !p.gone && (
        <div class="face-bar" aria-hidden="true">
          <i style={{ transform: `scaleX(${Math.min(1, Math.max(0, frame.progress)).toFixed(3)})` }} />
        </div>
      )}
      {msg && p.Message && <p.Message msg={msg} preview={p.preview} t={t} />}
      {p.date && (
        <p class="face-date">
          <time dateTime={p.date.iso}>{fill(t.until, { date: viewerDate ?? p.date.text })}</time>
          {viewerDate && <span class="face-zone">{p.date.text}</span>}
        </p>
      )}
      {p.extra}
      {p.badge}
      <p class="sr-only" aria-live="polite" aria-atomic="true">{p.announcement}</p>
      {p.notice && <p class="face-notice" role="status">{p.notice}</p>}
      {(p.children || p.brand) && (
        <div class="face-foot">
          {p.children}
          {p.brand && (
            <a class="face-brand" href={p.brand} target="_blank" rel="noopener">
              Timer Service
            </a>
          )}
        </div>
      )}
    </div>
  );
}
