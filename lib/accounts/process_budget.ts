/**
 * A process-wide budget of anonymous work with a lasting cost (sign-ups, mails): a token bucket of
 * `perHour`, bursting to the hour's worth. The per-address limits cannot stop requests spread over
 * many addresses (a /48 holds 65 536 /64s); this bounds what all of them together get.
 */
export class ProcessBudget {
  #tokens: number;
  #at: number;

  constructor(readonly perHour: number, readonly now: () => number) {
    this.#tokens = perHour;
    this.#at = now();
  }

  /** Takes one unit: 0 when taken, else the seconds until one is back (nothing taken). */
  take(): number {
    const wait = this.wait();
    if (wait === 0) this.#tokens = Math.max(0, this.#tokens - 1);
    return wait;
  }

  /** The seconds until a unit is there (0: one is), taking nothing. */
  wait(): number {
    const now = this.now();
    const perMs = this.perHour / 3_600_000;
    this.#tokens = Math.min(this.perHour, this.#tokens + (now - this.#at) * perMs);
    this.#at = now;
    // (A hair's tolerance: refilling by floating-point steps lands just under a whole unit.)
    if (this.#tokens < 1 - 1e-9) return Math.max(1, Math.ceil((1 - this.#tokens) * 3_600_000 / this.perHour / 1000));
    return 0;
  }
}
