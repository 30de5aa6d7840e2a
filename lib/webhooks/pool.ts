/**
 * A bounded worker pool: at most `concurrency` jobs run at once, and jobs sharing a key run one
 * after another in submission order (a timer's webhooks arrive in the order they were emitted).
 */
export class WorkerPool {
  #running = 0;
  #ready: (() => void)[] = [];
  #chains = new Map<string, Promise<void>>();
  #idle = Promise.withResolvers<void>();
  #pending = 0;

  constructor(readonly concurrency: number) {}

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
    if (this.#running >= this.concurrency) await new Promise<void>((r) => this.#ready.push(r));
    this.#running++;
    try {
      await job();
    } catch {
      // A job reports its own failures; the pool keeps going.
    } finally {
      this.#running--;
      this.#ready.shift()?.();
    }
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
