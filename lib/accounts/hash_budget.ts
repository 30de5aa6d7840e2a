/**
 * The process's budget for password hashing. One argon2id hash holds the event loop ≈ 40 ms
 * (hash-wasm runs on the main thread), and the scheduler, the webhook sender and the API share
 * that loop: the per-address and per-email throttles cannot stop a flood spread over many
 * addresses (a /48 holds 65 536 /64s). So all addresses together get a token bucket of `perSecond`
 * hashes (bursts up to one second's worth) and a few at once; past that, sign-in, sign-up, reset
 * and password changes answer 503 with Retry-After before any hashing. A flood then slows
 * sign-ins, never the timers. One client (an address bucket) gets a quarter of that rate (at least 2 a second): signing
 * in to its own account again and again (no failure, so no throttle) answers it 429 before it can
 * take everyone's budget.
 */
import { ApiError } from "../errors.ts";

/**
 * What judging a new password (zxcvbn) and hashing it cost, in hashes: the attack report of
 * 2026-11 measured zxcvbn at 4–5 argon2 computations' CPU inside one token. Clamped to what a
 * budget holds, so a small budget still lets one through.
 */
export const JUDGED_HASH_COST = 5;

/** Hashes under way at once (each waits behind the others on one event loop). */
export const MAX_HASHING = 4;

/** Clients remembered at most (each a few numbers); past it the fullest are forgotten. */
const MAX_CLIENTS = 10_000;

export class HashBudget {
  #tokens: number;
  #at: number;
  #running = 0;
  #clients = new Map<string, { tokens: number; at: number }>();

  constructor(readonly perSecond: number, readonly now: () => number) {
    this.#tokens = this.#burst;
    this.#at = now();
  }

  get #burst(): number {
    return Math.max(1, this.perSecond);
  }

  /** One client's rate and burst: a quarter of the whole, at least 2. */
  get #share(): number {
    return Math.max(2, this.perSecond / 4);
  }

  /**
   * Runs `work` (which hashes once or twice, costing `cost` hashes with what else it does) within the
   * budget, or throws at once without running it: 429 when `client` used its share, 503 when the
   * service's budget is spent (both with Retry-After).
   */
  async run<T>(work: () => Promise<T>, o: { client?: string; cost?: number } = {}): Promise<T> {
    const now = this.now();
    const cost = Math.max(1, o.cost ?? 1);
    const mine = o.client === undefined ? null : this.#client(o.client, now);
    const mineCost = Math.min(cost, this.#share);
    if (mine && mine.tokens < mineCost) {
      const wait = Math.max(1, Math.ceil((mineCost - mine.tokens) / this.#share));
      throw new ApiError(429, `too many sign-ins from this client; try again in ${wait} seconds`, undefined, {
        "Retry-After": String(wait),
      });
    }
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#at) / 1000 * this.perSecond);
    this.#at = now;
    const need = Math.min(cost, this.#burst);
    if (this.#tokens < need || this.#running >= MAX_HASHING) {
      const wait = Math.max(1, Math.ceil((need - this.#tokens) / this.perSecond));
      throw new ApiError(503, `too many sign-ins on the service right now; try again in ${wait} seconds`, undefined, {
        "Retry-After": String(wait),
      });
    }
    this.#tokens -= need;
    if (mine) mine.tokens -= mineCost;
    this.#running++;
    try {
      return await work();
    } finally {
      this.#running--;
    }
  }

  /** A client's bucket, refilled to `now`. */
  #client(client: string, now: number): { tokens: number; at: number } {
    let c = this.#clients.get(client);
    if (!c) {
      if (this.#clients.size >= MAX_CLIENTS) {
        // Full buckets hold nothing worth keeping: a client forgotten comes back with a full one.
        for (const [k, v] of this.#clients) {
          if (v.tokens + (now - v.at) / 1000 * this.#share >= this.#share) this.#clients.delete(k);
        }
        if (this.#clients.size >= MAX_CLIENTS) this.#clients.clear();
      }
      c = { tokens: this.#share, at: now };
      this.#clients.set(client, c);
    }
    c.tokens = Math.min(this.#share, c.tokens + (now - c.at) / 1000 * this.#share);
    c.at = now;
    return c;
  }
}
