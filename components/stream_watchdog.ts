/**
 * Notices a live stream that went silent without an error: a connection that died while the
 * laptop slept, or behind a Wi-Fi that dropped it, can stay "open" for minutes. The server sends
 * a clock sample at least every 15 s (routes/live.ts), so a longer silence means the stream is gone.
 */

/** Silence after which a stream is taken for dead: the server's heartbeat (15 s) and a margin. */
export const STALE_MS = 25_000;
const CHECK_MS = 2_500;

/**
 * Calls `onStale` when nothing was heard for `staleMs`: checked every few seconds, and at once when
 * the page is shown again, gets the focus or the device comes back online. Returns the stopper.
 */
export function watchSilence(lastHeard: () => number, onStale: () => void, staleMs = STALE_MS): () => void {
  const check = () => {
    if (Date.now() - lastHeard() > staleMs) onStale();
  };
  const visible = () => document.visibilityState === "visible" && check();
  const handle = setInterval(check, CHECK_MS);
  document.addEventListener("visibilitychange", visible);
  addEventListener("focus", check);
  addEventListener("online", check);
  return () => {
    clearInterval(handle);
    document.removeEventListener("visibilitychange", visible);
    removeEventListener("focus", check);
    removeEventListener("online", check);
  };
}
