/**
 * A display that runs `delay` behind the timer (`delay=` of a delayed broadcast): it keeps the
 * sources it received in order and shows, at each instant, the one that described the timer
 * `delay` earlier. Before the first source it extrapolates back from it. Pure and browser-safe.
 */
import { type Frame, frameAt, type Source } from "../lib/face.ts";

/**
 * `src` as it was at the earlier server instant `t`: a running countdown or interval had that
 * much less elapsed, back to its start (before which it was not counting yet, so it shows as
 * idle); an event counted to its target. Other states are what is known.
 */
export function backdate(src: Source, t: number): Source {
  const back = src.at - t;
  if (back <= 0) return src;
  if (src.type === "event") {
    const counting = src.state === "completed" && src.target !== null && src.target > t;
    return { ...src, state: counting ? "running" : src.state, at: t };
  }
  if (src.state !== "running") return { ...src, at: t };
  if (src.elapsed_ms >= back) return { ...src, at: t, elapsed_ms: src.elapsed_ms - back };
  return { ...src, state: "idle", elapsed_ms: 0, at: t };
}

/** The sources of one display, shown `delayMs` late (0: always the latest). */
export class Timeline {
  #list: Source[];

  constructor(readonly delayMs: number, first: Source) {
    this.#list = [first];
  }

  /** The newest source (what the timer is now). */
  get latest(): Source {
    return this.#list[this.#list.length - 1];
  }

  /** Adds what the timer became at `src.at`. */
  push(src: Source) {
    if (this.delayMs <= 0) {
      this.#list = [src];
      return;
    }
    // A source older than one held (a clock step back) replaces what followed it.
    this.#list = [...this.#list.filter((s) => s.at <= src.at), src];
  }

  /** What describes the timer at server instant `t` (for delay 0, the latest whatever `t`). */
  sourceAt(t: number): Source {
    if (this.delayMs <= 0) return this.latest;
    let i = this.#list.length - 1;
    while (i > 0 && this.#list[i].at > t) i--;
    // Sources wholly in the past but the last one shown are dropped.
    if (i > 0) this.#list = this.#list.slice(i);
    return backdate(this.#list[0], t);
  }

  /** The next server instant after `t` at which `sourceAt` changes, or null. */
  nextSwitch(t: number): number | null {
    if (this.delayMs <= 0) return null;
    const later = this.#list.find((s) => s.at > t);
    const first = this.#list[0];
    // Before the first source, a running timer's backdated start.
    if (first.at > t && first.state === "running" && first.type !== "event") {
      const start = first.at - first.elapsed_ms;
      if (start > t && (!later || start < later.at)) return start;
    }
    return later ? later.at : null;
  }

  /** The frame shown at server instant `now` (the timer at `now − delay`), and when to look again (ms). */
  frameAt(now: number): { frame: Frame; source: Source; next_ms: number | null } {
    const t = now - this.delayMs;
    const source = this.sourceAt(t);
    const frame = frameAt(source, t);
    const sw = this.nextSwitch(t);
    const untilSwitch = sw === null ? null : Math.max(0, sw - t);
    const next_ms = frame.next_ms === null
      ? untilSwitch
      : untilSwitch === null
      ? frame.next_ms
      : Math.min(frame.next_ms, untilSwitch);
    return { frame, source, next_ms };
  }
}

/** The first frame of a display (the server's render and the island's first render agree on it). */
export function initialFrame(src: Source, delayMs: number): Frame {
  return new Timeline(delayMs, src).frameAt(src.at).frame;
}
