/**
 * The stage view of a rundown (/r/<id>): the live item's face (the viewer's Widget, following that
 * timer's own stream) and "Next: <title>". The rundown's stream names the item whenever it changes;
 * the face is mounted afresh for a new item, so the address never changes during the show.
 */
import { useEffect, useState } from "preact/hooks";
import type { Source } from "../lib/display.ts";
import type { IslandView } from "../components/view_params.ts";
import type { FaceMessage, Sound } from "../lib/face.ts";
import type { FaceScreenTexts } from "../lib/i18n_screens.ts";
import type { FaceTexts } from "../lib/i18n.ts";
import Widget from "./Widget.tsx";

/** The live item as the stage shows it. */
export interface StageItem {
  timer_id: string;
  title: string | null;
  source: Source;
}

export interface StageProps {
  rundownId: string;
  item: StageItem | null;
  /** The following item's title (null: none, or untitled). */
  next: string | null;
  hasNext: boolean;
  /** The rundown's message: shown across items while the live item has none of its own. */
  message: FaceMessage | null;
  lang: string;
  t: FaceTexts;
  st: FaceScreenTexts;
  labels: { next: string; untitled: string; empty: string };
  /** How the face is shown: the stage page's defaults, or a widget's parameters (/widget?rundown=<id>). */
  face?: StageFace;
}

/** The view parameters a stage applies to every item's face, as the viewer and the widget do. */
export interface StageFace {
  variant: "page" | "widget";
  view?: IslandView;
  /** A widget shows messages only with `messages=1`. */
  messages?: boolean;
  hideTitle?: boolean;
  alarm?: boolean;
  brand?: string | null;
  sound?: Sound | null;
}

export default function Stage(p: StageProps) {
  const [now, setNow] = useState({ item: p.item, next: p.next, hasNext: p.hasNext, message: p.message });
  useEffect(() => {
    const es = new EventSource(`/live/r/${encodeURIComponent(p.rundownId)}`);
    const onItem = (e: MessageEvent) => {
      try {
        setNow(JSON.parse(e.data));
      } catch { /* a malformed event changes nothing */ }
    };
    es.addEventListener("item", onItem as EventListener);
    return () => es.close();
  }, [p.rundownId]);
  const { item, next, hasNext, message } = now;
  const face: StageFace = p.face ?? { variant: "page" };
  return (
    <div class={`stage stage--${face.variant}`} data-current={item?.timer_id ?? ""}>
      {item
        ? (
          <Widget
            key={item.timer_id}
            source={item.source}
            live={item.timer_id}
            lang={p.lang}
            t={p.t}
            st={p.st}
            title={face.hideTitle ? null : item.title}
            hideTitle={face.hideTitle}
            date={null}
            alarm={face.alarm ?? true}
            brand={face.brand ?? null}
            variant={face.variant}
            restartable={false}
            view={face.view}
            messages={face.messages}
            sound={face.sound}
            fallbackMessage={message}
          />
        )
        : <p class="stage-empty">{(face.variant === "page" || face.messages) && message?.text || p.labels.empty}</p>}
      <p class="stage-next" data-next={hasNext ? "1" : "0"} dir="auto">
        {hasNext ? `${p.labels.next}: ${next ?? p.labels.untitled}` : ""}
      </p>
    </div>
  );
}
