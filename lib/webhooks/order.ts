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
  // Keyed by delivery id (unique: a time and 14 random characters each), not `timerId/id`:
  // no string is built and hashed anew per attempt.
  /** Outcomes of attempts made here being recorded, by delivery id. */
  #recording = new Map<string, Promise<unknown>>();
  /** Deliveries whose attempt this process recorded or read: they hold nothing back any more. */
  #tried = new Set<string>();
  /** Reads ahead under way (`prefetch`), by delivery id: whether it still held back when read. */
  #reads = new Map<string, Promise<boolean>>();

  /** `read`: one delivery as stored now (the sender gathers these into getMany calls, reads.ts). */
  constructor(
    readonly store: Store,
    readonly read = (timerId: string, id: string) => store.deliveries.getDelivery(timerId, id),
  ) {}

  /** An attempt's outcome is being recorded (`recorded` resolves with its versionstamp, null: not written). */
  recording(d: Delivery, recorded: Promise<string | null>): void {
    const id = d.id;
    this.#recording.set(id, recorded);
    void recorded.then((vs) => {
      if (this.#recording.get(id) === recorded) this.#recording.delete(id);
      if (vs) this.#remember(id);
    });
  }

  /** Tried stays tried (attempts are only added), so it can be remembered. */
  #remember(id: string): void {
    if (this.#tried.size >= TRIED_KEPT) this.#tried.clear();
    this.#tried.add(id);
  }

  /**
   * Reads in bulk, ahead of their attempts, the deliveries these come after and that are not known
   * here (a burst's completions, born in one commit by a process that did not send what came before).
   */
  prefetch(ds: Delivery[]): void {
    const unknown = new Map<string, string>();
    for (const { after, timer_id } of ds) {
      if (after === undefined || this.#tried.has(after) || this.#recording.has(after) || this.#reads.has(after)) {
        continue;
      }
      unknown.set(after, `${timer_id}/${after}`);
    }
    const ids = [...unknown.keys()];
    for (let i = 0; i < ids.length; i += GET_MANY_MAX) {
      const part = ids.slice(i, i + GET_MANY_MAX);
      const read = this.store.deliveries.getDeliveries(part.map((id) => unknown.get(id)!));
      part.forEach((id, n) => {
        const holds = read.then((found) => !!found[n] && holdsBackLater(found[n]!.delivery), () => true);
        this.#reads.set(id, holds);
        void holds.then((h) => {
          this.#reads.delete(id);
          if (!h) this.#remember(id);
        });
      });
    }
  }

  /**
   * Whether `d` may be sent now as far as this process knows without waiting: it is its timer's
   * first, or the one before it was tried here and is not being recorded again. Else ask `heldUntil`.
   */
  free(d: Delivery): boolean {
    return d.after === undefined || (this.#tried.has(d.after) && !this.#recording.has(d.after));
  }

  /**
   * Null when `d` may be sent now: it is its timer's first, or the one before it was tried (here,
   * as remembered; elsewhere, as read) or is gone. Else when to look at it again: when the one
   * before is due itself (held back too: one wake-up then takes both, in order), or in
   * ORDER_HOLD_MS. Waits for that one's outcome if it is being recorded here (milliseconds).
   */
  async heldUntil(d: Delivery, now: number): Promise<number | null> {
    if (d.after === undefined) return null;
    await this.#recording.get(d.after);
    if (this.#tried.has(d.after) || await this.#reads.get(d.after) === false) return null;
    const before = (await this.read(d.timer_id, d.after))?.delivery;
    if (!before || !holdsBackLater(before)) return null;
    const due = before.claimed ? null : before.next_attempt_at;
    return due !== null && due > now ? due : now + ORDER_HOLD_MS;
  }
}
