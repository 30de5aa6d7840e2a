/**
 * The timer display of /widget and /v/:id, made of the parts its island brings: ticks from its
 * props, or follows a live timer with `follow`; the time of day, the full-screen button and an
 * event's date on the viewer's clock only where the island has them. islands/Widget.tsx has
 * every part; islands/WidgetPlain.tsx and WidgetLive.tsx are the lean ones most embeds load
 * (`widgetIsland` picks, from what the page shows).
 */
import type { ComponentChildren } from "preact";
import { useRef } from "preact/hooks";
import { ReconnectBadge, useDownFor, useWakeLock } from "./ScreenParts.tsx";
import { TimerFace } from "./TimerFace.tsx";
import { useFit } from "./use_fit.ts";
import { useHostApi } from "./use_host_api.ts";
import { useAlarm, useAnnouncer, useTimer } from "./use_timer.ts";
import type { FaceMessageLine } from "./FaceMessage.tsx";
import type { Obey } from "./host_commands.ts";
import type { RestartButton } from "./RestartButton.tsx";
import type { Follow } from "./live_stream.ts";
import type { Timeline } from "./timeline.ts";
import type { useViewerDate } from "./viewer_date.ts";
import type { IslandView } from "./view_params.ts";
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

/** What an island adds to the plain face; each one absent is code the island does not load. */
export interface WidgetParts {
  /** Follows `live` (components/live_stream.ts). */
  follow?: Follow;
  /** The time of day of `clock=1` (a components/DayClock.tsx, see islands/Widget.tsx). */
  clock?: (p: WidgetProps, serverNow: () => number, delayMs: number) => ComponentChildren;
  /** The viewer's full-screen button (components/ScreenParts.tsx). */
  fullscreen?: (p: WidgetProps) => ComponentChildren;
  /** The button that restarts a finished timer configured by its parameters (RestartButton.tsx). */
  Restart?: typeof RestartButton;
  /** An event's date on the viewer's clock. */
  viewerDate?: typeof useViewerDate;
  /** The speaker's message (components/FaceMessage.tsx), for the faces that show it. */
  Message?: typeof FaceMessageLine;
  /** A display shown `delay=` late (components/timeline.ts). */
  delayed?: typeof Timeline;
  /** The host page's commands, for a widget configured by its parameters (components/host_commands.ts). */
  obey?: Obey;
}

/** The lean island that shows `p` exactly as the full one would, or "Widget" when none does. */
export function widgetIsland(
  p: Pick<WidgetProps, "variant" | "view" | "date" | "live" | "messages" | "fallbackMessage">,
): string {
  if (p.variant !== "widget" || p.view?.clock || p.view?.delay || p.date || p.messages || p.fallbackMessage) {
    return "Widget";
  }
  return p.live === null ? "WidgetPlain" : "WidgetLive";
}

/** The widget component with `parts`. */
export function widgetWith(parts: WidgetParts) {
  const { clock, fullscreen, Restart, follow, viewerDate, obey, delayed, Message } = parts;
  return function Widget(p: WidgetProps) {
    const view = p.view ?? PLAIN;
    const delayMs = view.delay * 1000;
    const timer = useTimer(p.source, p.live, p.title, p.hideTitle, { delayMs, follow, delayed });
    // The parts are fixed for the island's life: the hooks run in the same order every render.
    const localDate = viewerDate ? viewerDate(p.date, p.lang) : null;
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
      obey,
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
        viewerDate={localDate}
        Message={Message}
        announcement={announcement}
        notice={timer.gone ? p.t.gone : null}
        brand={p.brand}
        variant={p.variant}
        deadline={timer.deadline}
        sync={timer.sync}
        extra={view.clock && clock?.(p, timer.serverNow, delayMs)}
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
        {p.restartable && done && Restart && <Restart label={p.t.restart} restart={timer.restart} face={face} />}
        {fullscreen?.(p)}
        {alarm.played > 0 && <span hidden data-alarm-played={alarm.played} data-cue={alarm.cue ?? undefined} />}
      </TimerFace>
    );
  };
}
