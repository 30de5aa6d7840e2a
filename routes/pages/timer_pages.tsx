/** Server renders of the timer pages: /widget, /v/:id, /c/:id and the friendly 404. */
import type { VNode } from "preact";
import { dayTime } from "../../components/DayClock.tsx";
import { initialFrame } from "../../components/timeline.ts";
import { viewAttrs, type ViewParams } from "../../components/view_params.ts";
import Control from "../../islands/Control.tsx";
import { widgetIsland } from "../../components/widget_face.tsx";
import Widget, { type WidgetProps } from "../../islands/Widget.tsx";
import { formatTargetDate, type Source, textOn } from "../../lib/display.ts";
import { faceTexts, type Lang, texts } from "../../lib/i18n.ts";
import { showTexts } from "../../lib/i18n_show.ts";
import { island, islandHtml, renderPage } from "../../lib/islands.tsx";
import type { ThemeName } from "./params.ts";

const ControlIsland = island("Control", Control);

/** <html> attributes carrying the theme and the (validated) primary colour. */
export function themeAttrs(theme: ThemeName, color: string): Record<string, string> {
  return { "data-theme": theme, style: `--primary:#${color};--on-primary:${textOn(color)}` };
}

/** An event's date line, when it is to be shown. */
export function eventDate(source: Source, tz: string, lang: Lang, show: boolean) {
  if (!show || source.type !== "event" || source.target === null) return null;
  return { text: formatTargetDate(source.target, tz, lang), iso: new Date(source.target).toISOString() };
}

interface Look {
  lang: Lang;
  theme: ThemeName;
  color: string;
  /** mirror, transparent, hidden parts (as attributes of <html>, read by static/screens.css). */
  view?: ViewParams;
}

/** <html> attributes of a look: theme, colour and view. */
function lookAttrs(look: Look): Record<string, string> {
  return { ...themeAttrs(look.theme, look.color), ...viewAttrs(look.view) };
}

function widgetShell(look: Look, title: string, body: VNode, variant: "widget" | "page", css = ["widget.css"]) {
  return renderPage(<main class={`shell shell--${variant}`}>{body}</main>, {
    lang: look.lang,
    title,
    css: look.view ? [...css, "screens.css"] : css,
    htmlAttrs: lookAttrs(look),
    bodyClass: `body--${variant}`,
  });
}

/**
 * Everything the server render of the widget island depends on: its props but the instant,
 * and the frame shown at that instant. Two requests with the same key render the same HTML.
 */
function faceKey(look: Look, p: Omit<WidgetProps, "lang" | "t">): string {
  const delayMs = (p.view?.delay ?? 0) * 1000;
  const f = initialFrame(p.source, delayMs);
  const clock = p.view?.clock
    ? [p.view.clockZone, p.view.clockZone && dayTime(p.source.at - delayMs, p.view.clockZone, look.lang)]
    : null;
  return JSON.stringify([
    look.lang,
    p.source.type,
    p.title,
    p.date,
    p.brand,
    p.variant,
    p.live !== null,
    p.alarm,
    p.restartable,
    f.state,
    f.seconds,
    f.phase,
    f.round,
    f.rounds,
    f.progress === null ? null : Math.min(1, Math.max(0, f.progress)).toFixed(3),
    clock,
    p.st ? look.lang : null,
    f.zone,
    p.messages ?? false,
    p.sound ?? null,
    p.source.message ?? null,
  ]);
}

/**
 * The style sheets a timer page needs: the face (with zones and the reconnecting badge) always;
 * an interval's phase, an event's date and the page-sized face (face-more.css) where shown;
 * the message, blackout and stage-sized viewer (show.css) where messages are shown; the view
 * parameters, time of day and full-screen button (screens.css) where one is used.
 */
export function timerCss(
  look: Look,
  p: Pick<WidgetProps, "variant" | "messages" | "fallbackMessage" | "source" | "date">,
): string[] {
  const css = ["widget.css"];
  if (p.variant === "page" || p.source.type === "interval" || p.date) css.push("face-more.css");
  if (p.variant === "page" || p.messages || p.fallbackMessage) css.push("show.css");
  const v = look.view;
  if (p.variant === "page" || (v && (v.clock || Object.keys(viewAttrs(v)).length > 0))) css.push("screens.css");
  return css;
}

/** The widget or viewer with a running display. */
export function timerPage(look: Look, props: Omit<WidgetProps, "lang" | "t">): string {
  const t = faceTexts(look.lang);
  const full: WidgetProps = { ...props, lang: look.lang, t };
  // The server renders every part; the browser loads the leanest island that shows the same.
  const name = widgetIsland(props);
  const html = `<main class="shell shell--${props.variant}">${
    islandHtml(name, Widget, full, faceKey(look, props))
  }</main>`;
  return renderPage({ html, islands: [name] }, {
    lang: look.lang,
    title: props.title ?? t.timer,
    css: timerCss(look, props),
    htmlAttrs: lookAttrs(look),
    bodyClass: `body--${props.variant}`,
  });
}

/** A widget whose parameters lack a required input: one line, no script. */
export function problemPage(look: Look, message: string, title: string | null): string {
  const t = texts(look.lang);
  return widgetShell(
    look,
    title ?? t.timer,
    <div class="face face--widget face--problem">
      {title && <h1 class="face-title" dir="auto">{title}</h1>}
      <p class="face-problem" role="alert">{message}</p>
    </div>,
    "widget",
    ["widget.css", "face-more.css"],
  );
}

/** The control page: the live face and the buttons. */
export function controlPage(look: Look, props: {
  id: string;
  source: Source;
  title: string | null;
  date: { text: string; iso: string } | null;
  brand: string;
  viewerUrl: string;
}): string {
  const t = texts(look.lang);
  return widgetShell(
    look,
    `${t.controls} · ${props.title ?? t.timer}`,
    <>
      <ControlIsland {...props} lang={look.lang} t={t} st={showTexts(look.lang)} />
      <footer class="page-footer">
        <a href={props.brand}>Timer Service</a>
      </footer>
    </>,
    "page",
    ["widget.css", "face-more.css", "control.css", "show.css"],
  );
}

/** The friendly 404 of unknown or expired timers; it fits in a widget's iframe too. */
export function notFoundPage(look: Look, home: string): string {
  const t = texts(look.lang);
  return widgetShell(
    look,
    t.not_found_title,
    <div class="face face--widget face--problem">
      <h1 class="face-title">{t.not_found_title}</h1>
      <p class="face-problem">{t.not_found_body}</p>
      <a class="face-brand" href={home} target="_top">{t.home}</a>
    </div>,
    "widget",
  );
}
