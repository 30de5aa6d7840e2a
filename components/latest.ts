/**
 * The sources of a display shown as they come (no `delay=`): what components/timeline.ts
 * `Timeline` does with delay 0, without the delayed broadcast's history, for the islands that
 * never delay (use_timer.ts `TimerOptions.delayed` brings the other).
 */
import { type Frame, frameAt, type Source } from "../lib/face.ts";

/** What use_timer.ts needs of a display's sources; `Timeline` and `Latest` both are one. */
export interface Shown {
  readonly latest: Source;
  push(src: Source): void;
  sourceAt(t: number): Source;
  frameAt(now: number): { frame: Frame; source: Source; next_ms: number | null };
}

export class Latest implements Shown {
  #src: Source;
  constructor(first: Source) {
    this.#src = first;
  }
  get latest(): Source {
    return this.#src;
  }
  push(src: Source) {
    this.#src = src;
  }
  sourceAt(_t: number): Source {
    return this.#src;
  }
  frameAt(now: number) {
    const frame = frameAt(this.#src, now);
    return { frame, source: this.#src, next_ms: frame.next_ms };
  }
}
