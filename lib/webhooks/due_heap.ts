/**
 * Every armed deadline of the process behind one native wake-up: a min-heap of instants and a
 * single wake-up for the earliest (lib/wait.ts: a delay over 2^31 − 1 ms goes in chunks).
 * It holds instants only — what is due at one is read from the due index when it comes — so
 * 100 000 deadlines cost 8 bytes each and arming them leaves nothing behind for the GC to keep.
 *
 * A deadline that moved (a timer paused, reset or deleted) stays held until its instant comes:
 * a timer started and paused again and again, months ahead, would grow the heap without end. So
 * once the heap holds twice what it was last loaded with, it loads again from the index.
 */
import { callAt } from "../wait.ts";

/** Where the heap loads its instants from. */
export interface DueHeapIndex {
  /** The instants due in the index and not yet come, page by page. */
  read: () => AsyncIterable<number[]>;
  /** The fewest instants held before the heap loads again. */
  min: number;
  /** Told after each load the heap started itself (the error if it could not read the index). */
  reloaded: (held: number, armed: number, error?: unknown) => void;
}

export class DueHeap {
  /** Instants, a binary min-heap; one armed twice is held twice and fired once. */
  #heap: number[] = [];
  /** Cancels the pending native wake-up, if any. */
  #cancel: (() => void) | undefined;
  #armedFor = Infinity;
  #stopped = false;
  /** Instants added while a load reads the index, kept by it. */
  #since = new Set<number[]>();
  /** The size past which the heap loads again from the index. */
  #reloadAt: number;
  /** The loads from the index under way, if any (settles when the last ends). */
  loading: Promise<void> | null = null;
  #loads: Promise<unknown> = Promise.resolve();

  /** `fire` receives every instant that has come, once each, earliest first. */
  constructor(
    readonly now: () => number,
    readonly fire: (instants: number[]) => void,
    readonly index?: DueHeapIndex,
  ) {
    this.#reloadAt = index?.min ?? Infinity;
  }

  /** Deadlines held (an instant armed n times counts n times). */
  get size(): number {
    return this.#heap.length;
  }

  /** Arms the instant `at` (one already past fires at once). */
  add(at: number): void {
    if (this.#stopped) return;
    this.#push(at);
    for (const since of this.#since) since.push(at);
    if (at < this.#armedFor) this.#arm();
    if (this.index && !this.loading && this.#heap.length > this.#reloadAt) {
      const held = this.#heap.length;
      this.load(this.index.read()).then(
        () => this.index!.reloaded(held, this.#heap.length),
        (e) => this.index!.reloaded(held, this.#heap.length, e),
      );
    }
  }

  /**
   * Holds the instants of `pages` (the index) and those added while it is read, instead of what
   * it held. Counts the instants read.
   */
  load(pages: AsyncIterable<number[]>): Promise<number> {
    // What is added from now on is kept by this load (loads run one after the other).
    const since: number[] = [];
    this.#since.add(since);
    const run = async () => {
      const read: number[] = [];
      try {
        for await (const page of pages) {
          // Armed as read as well (the index comes earliest first): what comes due meanwhile fires.
          for (const at of page) read.push(at), this.#push(at);
          if (this.#stopped) break;
          if (this.#heap[0] < this.#armedFor) this.#arm();
        }
      } catch (e) {
        // What it held stays; the next try waits until the heap doubles again.
        this.#reloadAt = Math.max(this.index?.min ?? 0, 2 * this.#heap.length);
        throw e;
      } finally {
        this.#since.delete(since);
      }
      if (this.#stopped) return read.length;
      // What has come but not fired yet is not in what was read (the index lists what is still ahead).
      const now = this.now();
      const come = this.#heap.filter((at) => at <= now);
      this.#heap = [];
      for (const at of come) this.#push(at);
      for (const at of read) this.#push(at);
      for (const at of since) this.#push(at);
      this.#arm();
      this.#reloadAt = Math.max(this.index?.min ?? 0, 2 * this.#heap.length);
      return read.length;
    };
    const p = this.#loads.then(run);
    this.#loads = p.catch(() => {});
    const loading: Promise<void> = this.loading = this.#loads.then(() => {
      if (this.loading === loading) this.loading = null;
    });
    return p;
  }

  /** Fires now what has come by the clock, without waiting for the native wake-up. */
  fireDue(): void {
    if (this.#stopped || !this.#heap.length || this.#heap[0] > this.now()) return;
    this.#cancel?.(); // #wake arms anew: the native wake-up it replaces must not stay pending
    this.#wake();
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
    this.#heap = [];
  }

  #arm(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    if (this.#heap.length === 0) {
      this.#armedFor = Infinity;
      return;
    }
    const at = this.#heap[0];
    this.#armedFor = at;
    this.#cancel = callAt(at, this.now, () => this.#wake());
  }

  #wake(): void {
    this.#cancel = undefined;
    const now = this.now();
    const due: number[] = [];
    while (this.#heap.length && this.#heap[0] <= now) {
      const at = this.#pop();
      if (due[due.length - 1] !== at) due.push(at);
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
