/**
 * The view parameters of the viewer (/v/:id) and the widget (/widget) for production screens:
 * mirrored for teleprompter glass, transparent for OBS/vMix browser sources, delayed for
 * delayed broadcasts, a time-of-day clock, and parts hidden. Parsed in routes/pages/params.ts;
 * shown through attributes of <html> (static/screens.css) and the island's props. Browser-safe.
 */

export const MIRRORS = ["h", "v", "both"] as const;
export type Mirror = typeof MIRRORS[number];

/** Parts `hide=` may take away (`zone` and `message` are the show features' names). */
export const HIDE_PARTS = ["title", "progress", "zone", "message", "brand"] as const;
export type HidePart = typeof HIDE_PARTS[number];

/** The longest `delay=`, in seconds. */
export const MAX_DELAY_S = 3600;

export interface ViewParams {
  mirror: Mirror | null;
  transparent: boolean;
  /** Seconds the display runs behind the timer, 0…3600. */
  delay: number;
  /** Show the time of day. */
  clock: boolean;
  /** The time of day's zone (`timezone=`), or null for the viewer's own. */
  clockZone: string | null;
  /** Parts to hide, in HIDE_PARTS order, each once. */
  hide: HidePart[];
}

export const NO_VIEW: ViewParams = {
  mirror: null,
  transparent: false,
  delay: 0,
  clock: false,
  clockZone: null,
  hide: [],
};

/** What the island needs of the view (the rest is CSS on <html>). */
export interface IslandView {
  delay: number;
  clock: boolean;
  clockZone: string | null;
  hide: HidePart[];
}

export function islandView(v: ViewParams): IslandView {
  return { delay: v.delay, clock: v.clock, clockZone: v.clockZone, hide: v.hide };
}

/** Attributes of <html> that static/screens.css reads: `data-mirror`, `data-transparent`, `data-hide`. */
export function viewAttrs(v: ViewParams | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v) return out;
  if (v.mirror) out["data-mirror"] = v.mirror;
  if (v.transparent) out["data-transparent"] = "";
  if (v.hide.length) out["data-hide"] = v.hide.join(" ");
  return out;
}

/** `url` (a /widget or /v/ address) with the view parameters of `v` that differ from a plain face. */
export function withView(url: string, v: Partial<ViewParams>): string {
  const u = new URL(url);
  const q = u.searchParams;
  if (v.mirror) q.set("mirror", v.mirror);
  if (v.transparent) q.set("transparent", "1");
  if (v.delay && v.delay > 0 && v.delay <= MAX_DELAY_S) q.set("delay", String(v.delay));
  if (v.clock) {
    q.set("clock", "1");
    if (v.clockZone && !q.has("timezone")) q.set("timezone", v.clockZone);
  }
  const hide = HIDE_PARTS.filter((part) => v.hide?.includes(part));
  if (hide.length) q.set("hide", hide.join(","));
  return u.href;
}
