/**
 * The process's budget for password hashing. One argon2id hash holds the event loop ≈ 40 ms
 * (hash-wasm runs on the main thread), and the scheduler, the webhook sender and the API share
 * that loop: the per-address and per-email throttles cannot stop a flood spread over many
 * addresses (a /48 holds 65 536 /64s). So all addresses together get a token bucket of `perSecond`
 * hashes (bursts up to one second's worth) and a few at once; past that, sign-in, sign-up, reset
 * and password changes answer 503 with Retry-After before any hashing. A flood then slows
 * sign-ins, never the timers.
 */
import { ApiError } from "../errors.ts";

/** Hashes under way at once (each waits behind the others on one event loop). */
export const MAX_HASHING = 4;

export class HashBudget {
  #tokens: number;
  #at: number;
  #running = 0;

  constructor(readonly perSecond: number, readonly now: () => number) {
    this.#tokens = this.#burst;
    this.#at = now();
  }

  get #burst(): number {
    return Math.max(1, this.perSecond);
  }

  /**
   * Runs `work` (which hashes once) within the budget, or throws 503 with Retry-After at once,
   * without running it.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const now = this.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#at) / 1000 * this.perSecond);
    this.#at = now;
    if (this.#tokens < 1 || this.#running >= MAX_HASHING) {
      const wait = Math.max(1, Math.ceil((1 - this.#tokens) / this.perSecond));
      throw new ApiError(503, `too many sign-ins on the service right now; try again in ${wait} seconds`, undefined, {
        "Retry-After": String(wait),
      });
    }
    this.#tokens -= 1;
    this.#running++;
    try {
      return await work();
    } finally {
      this.#running--;
    }
  }
}
