/**
 * The /widget query parameters of SPEC.md with their defaults. An invalid value falls back to
 * its default; a missing required input (a countdown's duration, an event's target) is
 * reported as `problem` so the page can say so in a line instead of breaking.
 */
import {
  DEFAULT_COLOR,
  HEX_COLOR,
  isTimeZone,
  parseTargetDate,
  type TimerType,
  WIDGET_DEFAULTS,
} from "../../lib/display.ts";
import { asLang, type Lang } from "../../lib/i18n.ts";
import { displayable } from "../../lib/timers/validation.ts";
import {
  HIDE_PARTS,
  type HidePart,
  MAX_DELAY_S,
  type Mirror,
  MIRRORS,
  type ViewParams,
} from "../../components/view_params.ts";

export type ThemeName = "light" | "dark" | "auto";

export interface WidgetParams {
  /** A live timer's id (then the stored timer defines type, title and times). */
  id: string | null;
  type: TimerType;
  title: string | null;
  /** Countdown seconds, or null when missing or invalid. */
  duration: number | null;
  /** Event target instant (epoch ms), or null when missing or invalid. */
  target: number | null;
  timezone: string;
  work: number;
  rest: number;
  rounds: number;
  theme: ThemeName;
  /** Whether `theme` came from a valid parameter (a live timer otherwise uses its own). */
  themeGiven: boolean;
  color: string;
  colorGiven: boolean;
  lang: Lang;
  showTitle: boolean;
  showDate: boolean;
  alarm: boolean;
  showBrand: boolean;
  /** mirror, transparent, delay, clock, hide (components/view_params.ts). */
  view: ViewParams;
  problem: "missing_duration" | "missing_target" | null;
}

const TYPES: readonly string[] = ["countdown", "event", "interval"];
const THEMES: readonly string[] = ["light", "dark", "auto"];
const ID = /^[A-Za-z0-9_-]{1,64}$/;

function int(raw: string | null, min: number, max: number): number | null {
  if (raw === null || raw.trim() === "") return null;
  const n = Number(raw);
  return Number.isFinite(n) && Number.isInteger(n) && n >= min && n <= max ? n : null;
}

/**
 * `text` cut to at most `max` code points (the API's measure of a title) at a grapheme boundary:
 * a flag, a family emoji or a letter with its accents is kept whole or left out, never halved.
 */
export function clipText(text: string, max: number): string {
  if ([...text].length <= max) return text;
  let out = "", n = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
    n += [...segment].length;
    if (n > max) break;
    out += segment;
  }
  return out;
}

function flag(raw: string | null, def: boolean): boolean {
  return raw === "1" ? true : raw === "0" ? false : def;
}

/** `delay=`: seconds from 0 to 3600, to the millisecond. */
function delaySeconds(raw: string | null): number {
  if (raw === null || !/^\d+(\.\d+)?$/.test(raw.trim())) return 0;
  const n = Math.round(Number(raw) * 1000) / 1000;
  return n <= MAX_DELAY_S ? n : 0;
}

/**
 * The view parameters of the viewer and the widget: `mirror=h|v|both`, `transparent=1`,
 * `delay=0…3600`, `clock=1` (in `timezone` when valid), `hide=` a comma list of parts
 * (also given as several `hide=`). Invalid values, and unknown parts of `hide`, are left out.
 */
export function parseViewParams(q: URLSearchParams): ViewParams {
  const mirror = q.get("mirror") ?? "";
  const tz = q.get("timezone") ?? "";
  const asked = new Set(q.getAll("hide").flatMap((v) => v.split(",")).map((v) => v.trim().toLowerCase()));
  return {
    mirror: (MIRRORS as readonly string[]).includes(mirror) ? mirror as Mirror : null,
    transparent: q.get("transparent") === "1",
    delay: delaySeconds(q.get("delay")),
    clock: q.get("clock") === "1",
    clockZone: isTimeZone(tz) ? tz : null,
    hide: HIDE_PARTS.filter((part): part is HidePart => asked.has(part)),
  };
}

/** Reads the widget's parameters; never throws. */
export function parseWidgetParams(q: URLSearchParams): WidgetParams {
  const d = WIDGET_DEFAULTS;
  const rawType = q.get("type") ?? "";
  const type = (TYPES.includes(rawType) ? rawType : d.type) as TimerType;
  const rawTitle = displayable(q.get("title") ?? "").trim();
  const title = rawTitle ? clipText(rawTitle, 100).trim() || null : null;
  const tzRaw = q.get("timezone") ?? "";
  const timezone = isTimeZone(tzRaw) ? tzRaw : d.timezone;
  const targetRaw = q.get("target_date");
  const target = targetRaw ? parseTargetDate(targetRaw, timezone) : null;
  // Whole seconds only; up to a year, as the API allows.
  const duration = int(q.get("duration"), 1, 31_536_000);
  const themeRaw = q.get("theme") ?? "";
  const colorRaw = (q.get("primary_color") ?? "").replace(/^#/, "");
  const idRaw = q.get("id");
  const id = idRaw && ID.test(idRaw) ? idRaw : null;
  const view = parseViewParams(q);
  return {
    id,
    type,
    title,
    duration,
    target,
    timezone,
    work: int(q.get("work"), 1, 86_400) ?? d.work,
    rest: int(q.get("rest"), 0, 86_400) ?? d.rest,
    rounds: int(q.get("rounds"), 1, 10_000) ?? d.rounds,
    theme: (THEMES.includes(themeRaw) ? themeRaw : d.theme) as ThemeName,
    themeGiven: THEMES.includes(themeRaw),
    color: HEX_COLOR.test(colorRaw) ? colorRaw.toUpperCase() : DEFAULT_COLOR,
    colorGiven: HEX_COLOR.test(colorRaw),
    lang: asLang(q.get("lang")) ?? "en",
    showTitle: flag(q.get("show_title"), d.show_title) && !view.hide.includes("title"),
    showDate: flag(q.get("show_date"), d.show_date),
    alarm: flag(q.get("alarm"), d.alarm),
    showBrand: flag(q.get("show_brand"), d.show_brand) && !view.hide.includes("brand"),
    view,
    problem: idRaw !== null
      ? null
      : type === "countdown" && duration === null
      ? "missing_duration"
      : type === "event" && target === null
      ? "missing_target"
      : null,
  };
}
