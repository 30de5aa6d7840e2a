/**
 * Records what attempts did: outcomes go in group commits — whatever piled up while the previous
 * commit ran, sized to the backend's limits — and so, apart from them, do the holds attempts wait
 * for before sending; each timer's log is kept bounded by incremental trims
 * (log_trim.ts) that never read the whole log.
 */
import type { OnCommitted, Store } from "../kv/store.ts";
import type { DeliveryChange } from "./delivery_model.ts";
import { LogTrimmer } from "./log_trim.ts";

export interface RecorderDeps {
  store: Store;
  now: () => number;
  /** Told of what recorded outcomes scheduled (retries to arm). */
  onCommitted?: OnCommitted;
  log: (msg: string, e: unknown) => void;
}

/** Delivery changes committed in groups: whatever piled up while the previous group commit ran. */
class GroupCommits {
  #queue: { change: DeliveryChange; done: (versionstamp: string | null) => void }[] = [];
  #flushing: Promise<void> | null = null;

  constructor(readonly deps: RecorderDeps) {}

  /** Queues a change for the next group commit; resolves with its versionstamp (null: conflict). */
  add(change: DeliveryChange): Promise<string | null> {
    const { promise, resolve } = Promise.withResolvers<string | null>();
    this.#queue.push({ change, done: resolve });
    this.#flushing ??= this.#flush();
    return promise;
  }

  /** One loop commits every change that piled up meanwhile, sized to the backend's limits. */
  async #flush(): Promise<void> {
    try {
      await Promise.resolve(); // changes of the same moment gather
      // Recorded at once, not after the burst's completions: an outcome not yet recorded is sent
      // again after a crash (holding them back measured 17 % duplicates after SIGKILL, not 1.5 %).
      while (this.#queue.length) {
        const batch = this.#queue.splice(0, this.#queue.length);
        const changes = batch.map((b) => b.change);
        const stamps = await this.deps.store.deliveries.commitDeliveries(
          changes,
          this.deps.now(),
          true,
          this.deps.onCommitted,
        )
          .catch((e) => {
            this.deps.log("recording attempts failed", e);
            return batch.map(() => null);
          });
        batch.forEach((b, n) => b.done(stamps[n]));
      }
    } finally {
      // Cleared in the same step that found the queue empty: a change queued after it starts a new flush.
      this.#flushing = null;
    }
  }

  get busy(): boolean {
    return this.#flushing !== null || this.#queue.length > 0;
  }

  async settled(): Promise<void> {
    await this.#flushing;
  }
}

export class OutcomeRecorder {
  /** Outcomes of attempts. */
  #outcomes: GroupCommits;
  /**
   * Changes an attempt waits for in its pool slot before sending (a hold),
   * committed apart: they do not wait behind a group of outcomes being committed.
   */
  #before: GroupCommits;
  /**
   * Outcomes queued or being committed. Their bound, with the attempts in flight, is the sender's
   * (unrecorded.ts): the recorder takes every outcome at once.
   */
  #unrecorded = 0;
  /** Keeps each timer's delivery log bounded. */
  readonly log: LogTrimmer;

  constructor(readonly deps: RecorderDeps) {
    this.log = new LogTrimmer(deps.store, deps.log);
    this.#outcomes = new GroupCommits(deps);
    this.#before = new GroupCommits(deps);
  }

  /**
   * Records an attempt's outcome in the next group commit; counts it towards the log's bound once
   * settled. Resolves with its versionstamp (null: the delivery changed meanwhile).
   */
  outcome(change: DeliveryChange): Promise<string | null> {
    this.#unrecorded++;
    return this.#outcomes.add(change).then((vs) => {
      this.#unrecorded--;
      if (vs && change.next.state !== "pending") this.counted(change.next.timer_id);
      return vs;
    });
  }

  /**
   * Queues a change an attempt waits for before sending (a hold) for the next group
   * commit of such changes; resolves with its versionstamp (null: conflict).
   */
  grouped(change: DeliveryChange): Promise<string | null> {
    return this.#before.add(change);
  }

  /** Trims a timer's log once enough new outcomes were recorded for it (here or by a test send). */
  counted(timerId: string): void {
    this.log.counted(timerId);
  }

  /** Whether outcomes or trims are still being recorded. */
  get busy(): boolean {
    return this.#outcomes.busy || this.#before.busy || this.#unrecorded > 0 || this.log.busy;
  }

  /** Resolves once the commits and trims running now have finished. */
  async settled(): Promise<void> {
    await Promise.all([this.#outcomes.settled(), this.#before.settled()]);
    await this.log.settled();
  }
}
