/**
 * A bounded worker pool shared between groups (accounts): at most `limit` jobs run at once (moved
 * by `setLimit` between 1 and `concurrency`), and jobs sharing a key run one after another in
 * submission order (a timer's webhooks arrive in the order they were emitted).
 *
 * Fair between groups: a freed slot goes to the waiting group with the fewest jobs running (the
 * longest waiting among equals), and no group holds more than `share` of the slots, so a group
 * whose jobs hang (an account's receiver that never answers) leaves the other groups a quarter of
 * the slots at once and takes no slot another group waits for. The price: one group alone uses
 * three quarters of the limit (24 of 32 with a fast receiver, 48 of 64 with a slow one).
 */
export class WorkerPool {
  #running = 0;
  #limit: number;
  /** Jobs ready to run, by group, oldest first; groups in the order they are to be served. */
  #waiting = new Map<string, Fifo<() => void>>();
  #runningBy = new Map<string, number>();
  #chains = new Map<string, Promise<void>>();
  #idle = Promise.withResolvers<void>();
  #pending = 0;
  #pendingBy = new Map<string, number>();

  constructor(readonly concurrency: number) {
    this.#limit = concurrency;
  }

  /** Jobs allowed to run at once now. */
  get limit(): number {
    return this.#limit;
  }

  /** Jobs one group may run at once: all but a quarter of the limit (at least one). */
  get share(): number {
    return Math.max(1, this.#limit - Math.ceil(this.#limit / 4));
  }

  /** Moves the limit (kept between 1 and `concurrency`); waiting jobs start at once if it rose. */
  setLimit(n: number): void {
    this.#limit = Math.max(1, Math.min(this.concurrency, Math.ceil(n)));
    this.#wake();
  }

  /** Whether a job of `group` submitted now under `key` would wait (behind its key, or for a slot). */
  wouldWait(key: string, group = key): boolean {
    return this.#chains.has(key) || this.#running >= this.#limit || this.#held(group) >= this.share ||
      this.#waiting.size > 0;
  }

  /** Queues `job` of `group` behind earlier jobs of `key`; resolves when it has run. */
  submit(key: string, job: () => Promise<void>, group = key): Promise<void> {
    this.#pending++;
    this.#pendingBy.set(group, this.pendingOf(group) + 1);
    const prev = this.#chains.get(key) ?? Promise.resolve();
    const run = prev.then(() => this.#slot(group, job)).finally(() => {
      if (this.#chains.get(key) === run) this.#chains.delete(key);
      const left = this.pendingOf(group) - 1;
      if (left) this.#pendingBy.set(group, left);
      else this.#pendingBy.delete(group);
      if (--this.#pending === 0) {
        this.#idle.resolve();
        this.#idle = Promise.withResolvers<void>();
      }
    });
    this.#chains.set(key, run);
    return run;
  }

  async #slot(group: string, job: () => Promise<void>): Promise<void> {
    // A waiting job is woken with its slot already counted, so a rise of the limit never overshoots.
    if (this.#running < this.#limit && this.#held(group) < this.share) this.#take(group);
    else {
      await new Promise<void>((r) => {
        const queue = this.#waiting.get(group);
        if (queue) queue.push(r);
        else this.#waiting.set(group, new Fifo(r));
      });
    }
    try {
      await job();
    } catch {
      // A job reports its own failures; the pool keeps going.
    } finally {
      this.#running--;
      const held = this.#held(group) - 1;
      if (held) this.#runningBy.set(group, held);
      else this.#runningBy.delete(group);
      this.#wake();
    }
  }

  #held(group: string): number {
    return this.#runningBy.get(group) ?? 0;
  }

  #take(group: string): void {
    this.#running++;
    this.#runningBy.set(group, this.#held(group) + 1);
  }

  #wake(): void {
    while (this.#running < this.#limit) {
      const group = this.#next();
      if (group === undefined) return;
      const queue = this.#waiting.get(group)!;
      const start = queue.shift();
      // Served: to the back of the line among groups with as many running (alone, it stays).
      if (!queue.length) this.#waiting.delete(group);
      else if (this.#waiting.size > 1) {
        this.#waiting.delete(group);
        this.#waiting.set(group, queue);
      }
      this.#take(group);
      start();
    }
  }

  /** The waiting group with the fewest running below its share (the first in line among equals). */
  #next(): string | undefined {
    let best: string | undefined;
    let fewest = this.share;
    for (const group of this.#waiting.keys()) {
      const held = this.#held(group);
      if (held < fewest) {
        [best, fewest] = [group, held];
        if (held === 0) break;
      }
    }
    return best;
  }

  /** Jobs of `group` submitted and not yet finished (running, waiting for a slot or behind their key). */
  pendingOf(group: string): number {
    return this.#pendingBy.get(group) ?? 0;
  }

  /** Jobs running now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs submitted and not yet finished. */
  get pending(): number {
    return this.#pending;
  }

  /** Resolves once no job is pending. */
  idle(): Promise<void> {
    return this.#pending === 0 ? Promise.resolve() : this.#idle.promise;
  }
}

/**
 * A queue taken from the front without moving what is behind: a burst queues 10 000 jobs of one
 * account (#wake, an `Array.shift` and a Map re-insertion per job, was 1.1 % of its main thread).
 */
class Fifo<T> {
  #items: T[];
  #head = 0;
  constructor(first: T) {
    this.#items = [first];
  }
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(item: T): void {
    this.#items.push(item);
  }
  /** The oldest item (the queue must not be empty). */
  shift(): T {
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined as T;
    // Taken items are dropped once they are most of the array.
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
