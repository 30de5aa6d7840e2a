/**
 * Keeps each timer's delivery log bounded, incrementally: the log's length and its failed ones are
 * counted in KV as the log changes, so a trim reads only the oldest part beyond the bound — never
 * the whole log (a log of 20 000 pending deliveries read every 50 outcomes was quadratic).
 */
import type { Store } from "../kv/store.ts";
import { beyondLog, DELIVERY_LOG_KEEP } from "./delivery_model.ts";

/** The log of a timer is trimmed after this many new outcomes were recorded for it here. */
const PRUNE_EVERY = 50;

export class LogTrimmer {
  #sinceTrim = new Map<string, number>();
  #trims = new Set<Promise<void>>();

  constructor(readonly store: Store, readonly failed: (msg: string, e: unknown) => void) {}

  /** Trims a timer's log once enough new outcomes were recorded for it (here or by a test send). */
  counted(timerId: string): void {
    // Deleted and expired timers never come back to take their count: the map starts over instead
    // of growing for ever (a log then waits at most PRUNE_EVERY more outcomes for its trim).
    if (this.#sinceTrim.size > 100_000) this.#sinceTrim.clear();
    const n = (this.#sinceTrim.get(timerId) ?? 0) + 1;
    if (n < PRUNE_EVERY) {
      this.#sinceTrim.set(timerId, n);
      return;
    }
    this.#sinceTrim.delete(timerId);
    const p = this.trim(timerId).then(() => {}, (e) => this.failed("trimming the delivery log failed", e));
    this.#trims.add(p);
    void p.finally(() => this.#trims.delete(p));
  }

  /**
   * Keeps a timer's log bounded: the newest DELIVERY_LOG_KEEP (pending ones counted too), plus the
   * pending and the newest DELIVERY_LOG_KEEP failed beyond them. Reads only the part beyond the
   * bound (the oldest, by the log's counters). Returns how many deliveries went.
   */
  async trim(timerId: string): Promise<number> {
    const store = this.store.deliveries;
    const { count, failed } = await store.logCounts(timerId);
    if (count === null) {
      // A log written before its counters: read once in full, then counted from here on.
      const log = await store.deliveryLog(timerId);
      const gone = beyondLog(log);
      const n = await store.deleteDeliveries(gone, false);
      const failedOf = (l: typeof log) => l.filter((e) => e.delivery.state === "failed").length;
      await store.startLogCounts(timerId, log.length - n, failedOf(log) - failedOf(gone));
      return n;
    }
    if (count <= DELIVERY_LOG_KEEP) return 0;
    // Oldest first, the failed ones met are the oldest failed: those beyond the newest KEEP go.
    let failedBeyond = failed - DELIVERY_LOG_KEEP;
    const gone = (await store.oldestDeliveries(timerId, count - DELIVERY_LOG_KEEP)).filter((e) =>
      e.delivery.state === "succeeded" || (e.delivery.state === "failed" && failedBeyond-- > 0)
    );
    return await store.deleteDeliveries(gone);
  }

  /** Whether trims are running. */
  get busy(): boolean {
    return this.#trims.size > 0;
  }

  /** Resolves once the trims started so far have finished. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#trims);
  }
}
