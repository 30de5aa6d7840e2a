/** Waiting for an instant however far away: the one long-wait helper of the server. */

/**
 * The longest single setTimeout. A delay over 2^31−1 ms (~24.8 days) fires at once, so a deadline
 * further away is waited for in chunks of this size, each reading the clock again.
 */
export const MAX_WAIT_MS = 6 * 3600_000;

/** Calls `fn` at `at` by `now()`, however far away; returns the canceller. */
export function callAt(at: number, now: () => number, fn: () => void): () => void {
  let handle: ReturnType<typeof setTimeout>;
  const arm = () => {
    const left = at - now();
    handle = left > MAX_WAIT_MS ? setTimeout(arm, MAX_WAIT_MS) : setTimeout(fn, Math.max(0, left));
  };
  arm();
  return () => clearTimeout(handle);
}
