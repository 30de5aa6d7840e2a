/**
 * Every armed deadline of the process behind one native wake-up: a min-heap of instants, the
 * items due at each, and a single `setTimeout` for the earliest (chunked, since a delay over
 * 2^31 − 1 ms fires at once). Holding 100 000 deadlines costs one number and one string each.
 */

/** The longest single wait; longer ones wake up early and wait again. */
export const MAX_WAIT_MS = 2 ** 30;

export class Wheel {
  #heap: number[] = [];
  /** Items per instant: one string while alone (the common case), a set once shared. */
  #at = new Map<number, string | Set<string>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedFor = Infinity;
  #stopped = false;

  /** `fire` receives every item (`kind:ref`) whose instant has come, with that instant. */
  constructor(
    readonly now: () => number,
    readonly fire: (due: { at: number; ids: string[] }[]) => void,
  ) {}

  /** Items held. */
  get size(): number {
    let n = 0;
    for (const s of this.#at.values()) n += typeof s === "string" ? 1 : s.size;
    return n;
  }

  /** Arms `id` for the instant `at` (an instant already past fires at once). */
  add(at: number, id: string): void {
    if (this.#stopped) return;
    const held = this.#at.get(at);
    if (held === undefined) {
      this.#at.set(at, id);
      this.#push(at);
    } else if (typeof held === "string") {
      if (held !== id) this.#at.set(at, new Set([held, id]));
    } else held.add(id);
    if (at < this.#armedFor) this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#heap = [];
    this.#at.clear();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#heap.length === 0) {
      this.#armedFor = Infinity;
      return;
    }
    const at = this.#heap[0];
    this.#armedFor = at;
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, at - this.now()));
    this.#timer = setTimeout(() => this.#wake(), wait);
  }

  #wake(): void {
    this.#timer = undefined;
    const now = this.now();
    const due: { at: number; ids: string[] }[] = [];
    while (this.#heap.length && this.#heap[0] <= now) {
      const at = this.#pop();
      const held = this.#at.get(at);
      this.#at.delete(at);
      if (held !== undefined) due.push({ at, ids: typeof held === "string" ? [held] : [...held] });
    }
    this.#arm();
    if (due.length) this.fire(due);
  }

  #push(x: number): void {
    const h = this.#heap;
    h.push(x);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p] <= x) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = x;
  }

  #pop(): number {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        let v = last;
        if (l < h.length && h[l] < v) {
          m = l;
          v = h[l];
        }
        if (r < h.length && h[r] < v) m = r;
        if (m === i) break;
        h[i] = h[m];
        i = m;
      }
      h[i] = last;
    }
    return top;
  }
}
