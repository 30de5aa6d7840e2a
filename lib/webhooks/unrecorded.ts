/**
 * The bound on a crash's duplicates: attempts admitted — from just before their POST (after their
 * checks) until their outcome is recorded — at most `limit` at once. Every one of them may have
 * reached its receiver, and is sent again if the process dies before its outcome is recorded; so a
 * SIGKILL sends again at most `limit`, whatever the machine's load.
 *
 * Fair between groups (accounts) as the pool is: none holds more than `share` of the admissions,
 * so an account whose receivers hang leaves the others a quarter of them at once.
 */

/**
 * Admitted attempts at most, unless receivers are slow for a second (SLOW_ANSWER_MS). Measured on
 * 10 000 event timers due at once, SIGKILL once half arrived (bench/restart.ts, every POST, answer
 * and record of both processes traced, 2026-11-27):
 * with the former bound on answers alone (32 answered and unrecorded, the pool's 64 POSTs beside
 * them) 77–93 were POSTed and unrecorded at once at the peak; a SIGKILL sent again 29–33 run alone
 * and 64 right after the precision section: all 64 were POSTs in flight (the pool's 64 slots all
 * POSTing at the kill), none a take-over, a retry or a catch-up. Earlier: unbounded 97–367
 * sent twice; 32 answers unrecorded 29–32 (2026-11-24), 16 made webhooks slower. With 45 the peak
 * is 45 and a crash sends again ≤ 45 = 0.45 % of a 10 000 burst; the burst measured no slower.
 */
export const MAX_OPEN = 45;

/**
 * The bound with a backend across a network (many commits in flight): MAX_OPEN per 8 commits in
 * flight, since a record then takes a round trip (~40 ms over KV Connect at +20 ms) and so many
 * answers wait for theirs; a crash's duplicates grow with it, 4× at 32 commits in flight.
 */
export function maxOpen(inFlight = 1): number {
  return MAX_OPEN * Math.max(1, Math.round(inFlight / 8));
}

/**
 * Answers slower than this, one after another for SLOW_FOR_MS with none faster, raise the bound to
 * the pool's slots (WEBHOOK_CONCURRENCY): a slow receiver keeps as many POSTs in flight as before.
 * Not the average answer time: in a 10 000 burst with one core taken by another process, a
 * receiver answering at once measured 44–49 ms on average and the first 32 answers 817 ms each (the
 * event loop busy claiming), which raised a bound that followed the average past 45 (46–64 sent
 * and unrecorded at once). A stalled event loop's answers are all taken in within milliseconds,
 * and faster ones follow: only a receiver slow for a second on end raises it.
 */
export const SLOW_ANSWER_MS = 200;
export const SLOW_FOR_MS = 1_000;

export class Unrecorded {
  #open = 0;
  #openBy = new Map<string, number>();
  /** Attempts waiting to be admitted, oldest first. */
  #waiting: { group: string; admit: () => void }[] = [];
  #limit: number;
  /** When the answers began to be slow (see SLOW_ANSWER_MS), none faster since; null: not slow. */
  #slowSince: number | null = null;

  /**
   * `base`: the bound while receivers answer fast; `most`: the most it rises to for slow ones
   * (the pool's slots), see SLOW_ANSWER_MS.
   */
  constructor(readonly base: number, readonly most: number) {
    this.#limit = base;
  }

  /** Admitted attempts allowed now. */
  get limit(): number {
    return this.#limit;
  }

  /** Admitted attempts one group may have: all but a quarter of the limit (at least one). */
  get share(): number {
    return Math.max(1, this.#limit - Math.ceil(this.#limit / 4));
  }

  /** Moves the limit, kept between `base` and `most`: waiting attempts go at once if it rose. */
  setLimit(n: number): void {
    this.#limit = Math.max(this.base, Math.min(this.most, Math.ceil(n)));
    this.#wake();
  }

  /** An answer taken in at `at` (ms, monotonic) took `answerMs`: the limit follows (SLOW_ANSWER_MS). */
  observe(answerMs: number, at: number): void {
    if (answerMs <= SLOW_ANSWER_MS) this.#slowSince = null;
    else this.#slowSince ??= at;
    this.setLimit(this.#slowSince !== null && at - this.#slowSince >= SLOW_FOR_MS ? this.most : this.base);
  }

  /** Attempts admitted and not yet released. */
  get open(): number {
    return this.#open;
  }

  /** Attempts waiting to be admitted. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Admitted attempts of `group` not yet released. */
  openOf(group: string): number {
    return this.#openBy.get(group) ?? 0;
  }

  /** Admits an attempt of `group` if it fits now (true; release it once), without a turn of the event loop. */
  tryAdmit(group: string): boolean {
    if (!this.#fits(group)) return false;
    this.#take(group);
    return true;
  }

  /**
   * Resolves once an attempt of `group` is admitted (true if it had to wait): at once while fewer
   * than `limit` are and its group holds less than its share, else in turn. Release each once.
   */
  async admit(group: string): Promise<boolean> {
    // Those waiting are at their group's share whenever there is room (#wake admits the others).
    if (this.#fits(group)) {
      this.#take(group);
      return false;
    }
    // Woken with its admission already counted, so nobody overtakes it meanwhile.
    await new Promise<void>((admit) => this.#waiting.push({ group, admit }));
    return true;
  }

  /** An admitted attempt of `group` ended: nothing was sent, or its outcome was recorded (or refused). */
  release(group: string): void {
    this.#open--;
    const left = this.openOf(group) - 1;
    if (left > 0) this.#openBy.set(group, left);
    else this.#openBy.delete(group);
    this.#wake();
  }

  #fits(group: string): boolean {
    return this.#open < this.#limit && this.openOf(group) < this.share;
  }

  #take(group: string): void {
    this.#open++;
    this.#openBy.set(group, this.openOf(group) + 1);
  }

  /** Admits waiting attempts in the order they came, skipping groups at their share. */
  #wake(): void {
    for (let i = 0; i < this.#waiting.length && this.#open < this.#limit;) {
      const w = this.#waiting[i];
      if (this.openOf(w.group) >= this.share) i++;
      else {
        this.#waiting.splice(i, 1);
        this.#take(w.group);
        w.admit();
      }
    }
  }
}
