/**
 * Order under failure: a timer's deliveries form one chain in the order they were born (each
 * names the one before, `Delivery.after`), and a delivery is not sent while the one before it
 * still holds it back — pending with no attempt recorded (delivery_model.ts, `holdsBackLater`).
 * So after a crash a later event waits for the take-over of an earlier one claimed by the dead
 * process, instead of overtaking it. What this process recorded itself it knows without a read.
 */
import type { Store } from "../kv/store.ts";
import { GET_MANY_MAX } from "../kv/batch.ts";
import { type Delivery, holdsBackLater } from "./delivery_model.ts";

/** How long a delivery held back by an earlier one waits before it is looked at again. */
export const ORDER_HOLD_MS = 1000;
/** Deliveries remembered as tried here (a delivery after one of them needs no read). */
const TRIED_KEPT = 100_000;

export class OrderGate {
  /** Outcomes of attempts made here being recorded, by `timerId/id`. */
  #recording = new Map<string, Promise<unknown>>();
  /** Deliveries whose attempt this process recorded or read: they hold nothing back any more. */
  #tried = new Set<string>();
  /** Reads ahead under way (`prefetch`), by `timerId/id`: whether it still held back when read. */
  #reads = new Map<string, Promise<boolean>>();

  /** `read`: one delivery as stored now (the sender gathers these into getMany calls, reads.ts). */
  constructor(
    readonly store: Store,
    readonly read = (timerId: string, id: string) => store.deliveries.getDelivery(timerId, id),
  ) {}

  /** An attempt's outcome is being recorded (`recorded` resolves with its versionstamp, null: not written). */
  recording(d: Delivery, recorded: Promise<string | null>): void {
    const ref = `${d.timer_id}/${d.id}`;
    this.#recording.set(ref, recorded);
    void recorded.then((vs) => {
      if (this.#recording.get(ref) === recorded) this.#recording.delete(ref);
      if (vs) this.#remember(ref);
    });
  }

  /** Tried stays tried (attempts are only added), so it can be remembered. */
  #remember(ref: string): void {
    if (this.#tried.size >= TRIED_KEPT) this.#tried.clear();
    this.#tried.add(ref);
  }

  /**
   * Reads in bulk, ahead of their attempts, the deliveries these come after and that are not known
   * here (a burst's completions, born in one commit by a process that did not send what came before).
   */
  prefetch(ds: Delivery[]): void {
    const refs = [...new Set(ds.flatMap((d) => d.after === undefined ? [] : [`${d.timer_id}/${d.after}`]))]
      .filter((r) => !this.#tried.has(r) && !this.#recording.has(r) && !this.#reads.has(r));
    for (let i = 0; i < refs.length; i += GET_MANY_MAX) {
      const part = refs.slice(i, i + GET_MANY_MAX);
      const read = this.store.deliveries.getDeliveries(part);
      part.forEach((ref, n) => {
        const holds = read.then((found) => !!found[n] && holdsBackLater(found[n]!.delivery), () => true);
        this.#reads.set(ref, holds);
        void holds.then((h) => {
          this.#reads.delete(ref);
          if (!h) this.#remember(ref);
        });
      });
    }
  }

  /**
   * Whether `d` may be sent now as far as this process knows without waiting: it is its timer's
   * first, or the one before it was tried here and is not being recorded again. Else ask `heldUntil`.
   */
  free(d: Delivery): boolean {
    if (d.after === undefined) return true;
    const ref = `${d.timer_id}/${d.after}`;
    return this.#tried.has(ref) && !this.#recording.has(ref);
  }

  /**
   * Null when `d` may be sent now: it is its timer's first, or the one before it was tried (here,
   * as remembered; elsewhere, as read) or is gone. Else when to look at it again: when the one
   * before is due itself (held back too: one wake-up then takes both, in order), or in
   * ORDER_HOLD_MS. Waits for that one's outcome if it is being recorded here (milliseconds).
   */
  async heldUntil(d: Delivery, now: number): Promise<number | null> {
    if (d.after === undefined) return null;
    const ref = `${d.timer_id}/${d.after}`;
    await this.#recording.get(ref);
    if (this.#tried.has(ref) || await this.#reads.get(ref) === false) return null;
    const before = (await this.read(d.timer_id, d.after))?.delivery;
    if (!before || !holdsBackLater(before)) return null;
    const due = before.claimed ? null : before.next_attempt_at;
    return due !== null && due > now ? due : now + ORDER_HOLD_MS;
  }
}
