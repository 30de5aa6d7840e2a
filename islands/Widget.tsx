/** The timer display of /widget and /v/:id: ticks from its props or follows a live timer. */
import { useRef } from "preact/hooks";
import { DayClock } from "../components/DayClock.tsx";
import { FullscreenButton, ReconnectBadge, useDownFor, useWakeLock } from "../components/ScreenParts.tsx";
import { TimerFace } from "../components/TimerFace.tsx";
import { useFit } from "../components/use_fit.ts";
import { useHostApi } from "../components/use_host_api.ts";
import { useAlarm, useAnnouncer, useTimer } from "../components/use_timer.ts";
import type { IslandView } from "../components/view_params.ts";
import type { FaceMessage, Sound, Source } from "../lib/face.ts";
import type { FaceTexts } from "../lib/i18n.ts";
import type { FaceScreenTexts } from "../lib/i18n_screens.ts";

export interface WidgetProps {
  source: Source;
  /** A server timer's id to follow live; null for a widget configured by its parameters. */
  live: string | null;
  lang: string;
  t: FaceTexts;
  title: string | null;
  /** The title is hidden (`show_title=0`): a live timer's own title must not bring it back. */
  hideTitle?: boolean;
  date: { text: string; iso: string } | null;
  alarm: boolean;
  brand: string | null;
  variant: "widget" | "page";
  /** Offer a restart once finished (parameter-only countdowns and intervals). */
  restartable: boolean;
  /** delay, clock, hidden parts (components/view_params.ts); absent: none. */
  view?: IslandView;
  /** Texts of the full-screen button and the time of day. */
  st?: FaceScreenTexts;
  /** A widget shows the speaker's messages only when asked (`messages=1`); the viewer always does. */
  messages?: boolean;
  /** The page's `sound=`: overrides the timer's cue. */
  sound?: Sound | null;
  /** Shown while the timer has no message of its own (a rundown's message on its stage). */
  fallbackMessage?: FaceMessage | null;
}

const PLAIN: IslandView = { delay: 0, clock: false, clockZone: null, hide: [] };

export default function Widget(p: WidgetProps) {
  const view = p.view ?? PLAIN;
  const delayMs = view.delay * 1000;
  const timer = useTimer(p.source, p.live, p.title, p.hideTitle, { delayMs });
  const { frame } = timer;
  const announcement = useAnnouncer(frame, p.t, p.lang);
  const alarm = useAlarm(p.alarm && !timer.gone, frame.state, p.sound ?? timer.source.sound ?? "none", frame.zone);
  const done = frame.state === "completed";
  const face = useRef<HTMLDivElement>(null);
  useFit(face, p.variant === "widget");
  useWakeLock(frame.state === "running" && !timer.gone);
  const down = useDownFor(timer.reconnecting && !timer.gone);
  useHostApi({
    timerId: p.live,
    frame,
    type: p.source.type,
    deadline: timer.deadline,
    serverNow: timer.serverNow,
    face,
    apply: timer.apply,
    enabled: p.variant === "widget",
  });
  return (
    <TimerFace
      faceRef={face}
      gone={timer.gone}
      frame={frame}
      type={p.source.type}
      lang={p.lang}
      t={p.t}
      title={timer.title}
      date={p.date}
      announcement={announcement}
      notice={timer.gone ? p.t.gone : null}
      brand={p.brand}
      variant={p.variant}
      deadline={timer.deadline}
      sync={timer.sync}
      extra={view.clock && (
        <DayClock
          at={p.source.at}
          serverNow={timer.serverNow}
          delayMs={delayMs}
          zone={view.clockZone}
          lang={p.lang}
          label={p.st?.time_of_day ?? "Time of day"}
        />
      )}
      badge={down && <ReconnectBadge text={p.t.reconnecting} />}
      message={p.variant === "page" || p.messages ? timer.source.message ?? p.fallbackMessage ?? null : null}
    >
      {alarm.sound === "blocked" && !done && !timer.gone && (
        <button type="button" class="face-button face-sound" onClick={alarm.unlock}>
          <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
            <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
            <path
              d="M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11"
              fill="none"
              stroke="currentColor"
              stroke-width="2"
            />
          </svg>
          <span class="face-sound-text">{p.t.enable_sound}</span>
        </button>
      )}
      {p.restartable && done && (
        <button
          type="button"
          class="face-button"
          onClick={() => {
            timer.restart();
            // The button goes with the finished state: the focus goes to the clock, not to the page.
            requestAnimationFrame(() => face.current?.querySelector<HTMLElement>(".face-time")?.focus());
          }}
        >
          {p.t.restart}
        </button>
      )}
      {p.variant === "page" && p.st && <FullscreenButton enter={p.st.fullscreen} exit={p.st.exit_fullscreen} />}
      {alarm.played > 0 && <span hidden data-alarm-played={alarm.played} data-cue={alarm.cue ?? undefined} />}
    </TimerFace>
  );
}
