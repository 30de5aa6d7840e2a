/**
 * The due work being stepped in this process (scheduler.ts wakes it up): pages of due entries
 * stepped as they are read, two at a time, each entry at most once at a time here, and instants
 * scheduled meanwhile by a step still running armed when that step ends.
 */
import type { DueEntry, DueItem } from "../kv/store.ts";

export interface DueRunsDeps {
  /** Steps entries (steps.ts `DueSteps.run`). */
  step: (entries: DueEntry[]) => Promise<void>;
  /** The entries of a page this process steps (its shards, its own claims). */
  mine: (page: DueEntry[]) => DueEntry[];
  /** Holds an instant for a wake-up. */
  arm: (at: number) => void;
  log: (msg: string, e: unknown) => void;
}

export class DueRuns {
  /** Work being stepped here, by `kind:ref`: the step's end, and the versionstamp of the entry it took. */
  #inflight = new Map<string, { done: Promise<void>; versionstamp: string }>();
  /**
   * Timer entries whose change committed here, by `timer:id` → the versionstamp it replaced, while
   * wake-ups run: a page read before that commit still holds the old entry, and planning it again
   * would only fail its atomic check. Forgotten once no wake-up runs (nobody then holds a page that
   * old). Only committed ones: an entry stepped without a change (an early wake-up) is still due
   * and must be planned again. Filled by the steps.
   */
  readonly stepped = new Map<string, string>();
  /** Instants to arm once a step ends, by the step. */
  #armLater = new Map<Promise<void>, Set<number>>();
  /** Wake-ups (armed instants, queue messages, sweeps) still reading or stepping their work. */
  #runs = new Set<Promise<void>>();
  #stopped = false;

  constructor(readonly deps: DueRunsDeps) {}

  /** Entries being stepped here. */
  get stepping(): number {
    return this.#inflight.size;
  }

  /** Whether anything is being read, stepped or waits to be armed. */
  get busy(): boolean {
    return this.#inflight.size > 0 || this.#armLater.size > 0 || this.#runs.size > 0;
  }

  /** Waits for what runs now (not for what starts meanwhile: see `busy`). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#inflight.values()].map((s) => s.done));
    await Promise.allSettled([...this.#armLater.keys()]);
    await Promise.allSettled([...this.#runs]);
  }

  /** No page is stepped any more (what is left stays in the due index for the next process). */
  stop(): void {
    this.#stopped = true;
  }

  /**
   * Steps what a wake-up reads, known to `busy` while it runs. A failure is logged as `failed`
   * says; the promise always resolves.
   */
  wake(pages: AsyncIterable<DueEntry[]>, failed = "due step failed"): Promise<void> {
    const run = this.#pipeline(pages).catch((e) => this.deps.log(failed, e));
    this.#runs.add(run);
    void run.finally(() => {
      this.#runs.delete(run);
      // Once no wake-up holds a page, what was stepped need not be remembered.
      if (this.#runs.size === 0) this.stepped.clear();
    });
    return run;
  }

  /**
   * Arms an item at once, or when the step of its work running here ends: a commit of a step still
   * writing (a catch-up's next instant, due already) would wake up only to find its work in flight.
   * Expiries are left to the sweep (nobody waits for them).
   */
  armAfterStep(item: DueItem): void {
    if (item.kind === "expire") return;
    const step = this.#inflight.get(`${item.kind}:${item.ref}`);
    if (!step) return this.deps.arm(item.at);
    const known = this.#armLater.get(step.done);
    if (known) return void known.add(item.at);
    const instants = new Set([item.at]);
    this.#armLater.set(step.done, instants);
    void step.done.then(() => {
      this.#armLater.delete(step.done);
      for (const at of instants) this.deps.arm(at);
    });
  }

  /**
   * Steps pages of due entries as they are read, two pages at a time (one planned while one
   * commits). An entry of work being stepped here is skipped; one written since that step took its
   * entry is armed again for when the step ends, rather than left to the sweep.
   */
  async #pipeline(pages: AsyncIterable<DueEntry[]>): Promise<void> {
    const running: Promise<void>[] = [];
    for await (const page of pages) {
      if (this.#stopped) break;
      let todo = this.#notRunning(this.deps.mine(page));
      if (todo.length && running.length >= 2) {
        await running.shift();
        // Another wake-up may have taken some meanwhile, or even committed them (`stepped`).
        todo = this.#notRunning(todo);
      }
      if (todo.length) running.push(this.#run(todo));
    }
    await Promise.all(running);
  }

  /** The entries whose work is not being stepped here; one written since its step took it is armed after that step. */
  #notRunning(entries: DueEntry[]): DueEntry[] {
    const todo: DueEntry[] = [];
    for (const e of entries) {
      const id = `${e.item.kind}:${e.item.ref}`;
      const step = this.#inflight.get(id);
      if (!step) {
        if (this.stepped.get(id) !== e.versionstamp) todo.push(e);
      } else if (step.versionstamp !== e.versionstamp) this.armAfterStep(e.item);
    }
    return todo;
  }

  async #run(entries: DueEntry[]): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    const ids = entries.map((e) => `${e.item.kind}:${e.item.ref}`);
    entries.forEach((e, n) => this.#inflight.set(ids[n], { done: promise, versionstamp: e.versionstamp }));
    try {
      await this.deps.step(entries);
    } catch (e) {
      this.deps.log("due step failed", e);
    } finally {
      for (const id of ids) if (this.#inflight.get(id)?.done === promise) this.#inflight.delete(id);
      resolve();
    }
  }
}
