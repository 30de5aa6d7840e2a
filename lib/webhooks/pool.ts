/**
 * A bounded worker pool: at most `limit` jobs run at once (moved by `setLimit` between 1 and
 * `concurrency`), and jobs sharing a key run one after another in submission order (a timer's
 * webhooks arrive in the order they were emitted).
 */
export class WorkerPool {
  #running = 0;
  #limit: number;
  #ready: (() => void)[] = [];
  #chains = new Map<string, Promise<void>>();
  #idle = Promise.withResolvers<void>();
  #pending = 0;

  constructor(readonly concurrency: number) {
    this.#limit = concurrency;
  }

  /** Jobs allowed to run at once now. */
  get limit(): number {
    return this.#limit;
  }

  /** Moves the limit (kept between 1 and `concurrency`); waiting jobs start at once if it rose. */
  setLimit(n: number): void {
    this.#limit = Math.max(1, Math.min(this.concurrency, Math.ceil(n)));
    this.#wake();
  }

  /** Queues `job` behind earlier jobs of `key`; resolves when it has run. */
  submit(key: string, job: () => Promise<void>): Promise<void> {
    this.#pending++;
    const prev = this.#chains.get(key) ?? Promise.resolve();
    const run = prev.then(() => this.#slot(job)).finally(() => {
      if (this.#chains.get(key) === run) this.#chains.delete(key);
      if (--this.#pending === 0) {
        this.#idle.resolve();
        this.#idle = Promise.withResolvers<void>();
      }
    });
    this.#chains.set(key, run);
    return run;
  }

  async #slot(job: () => Promise<void>): Promise<void> {
    // A waiting job is woken with its slot already counted, so a rise of the limit never overshoots.
    if (this.#running >= this.#limit) await new Promise<void>((r) => this.#ready.push(r));
    else this.#running++;
    try {
      await job();
    } catch {
      // A job reports its own failures; the pool keeps going.
    } finally {
      this.#running--;
      this.#wake();
    }
  }

  #wake(): void {
    while (this.#running < this.#limit && this.#ready.length) {
      this.#running++;
      this.#ready.shift()!();
    }
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
