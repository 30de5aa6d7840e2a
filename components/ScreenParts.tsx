/**
 * The viewer's resilience on a screen left running for a talk: a Screen Wake Lock held while
 * the timer counts, a full-screen button (and the `f` key), and a small "reconnecting…" badge
 * once the live stream has been down for 5 s (the face keeps counting from the last state).
 */
import { useEffect, useRef, useState } from "preact/hooks";

/** How long the stream may be down before the badge shows. */
export const BADGE_AFTER_MS = 5000;

/**
 * Holds a screen wake lock while `active`: released when it stops, asked again when the page is
 * visible again (browsers release it when the page is hidden). Refusals are ignored.
 */
export function useWakeLock(active: boolean) {
  const lock = useRef<WakeLockSentinel | null>(null);
  useEffect(() => {
    const api = (navigator as Navigator & { wakeLock?: WakeLock }).wakeLock;
    if (!active || !api || !wakeLockAllowed()) return;
    let stopped = false;
    let asking = false;
    const acquire = async () => {
      if (stopped || asking || document.visibilityState !== "visible") return;
      if (lock.current && !lock.current.released) return;
      asking = true;
      try {
        const sentinel = await api.request("screen");
        if (stopped) await sentinel.release();
        else lock.current = sentinel;
      } catch { /* refused (no permission, battery saver, a frame not allowed): the screen may sleep */ }
      asking = false;
    };
    const onVisible = () => void acquire();
    document.addEventListener("visibilitychange", onVisible);
    void acquire();
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", onVisible);
      const held = lock.current;
      lock.current = null;
      held?.release().catch(() => {});
    };
  }, [active]);
}

/**
 * Whether this document may hold a wake lock: a frame of another origin may not unless its
 * embedder allows it (asking anyway logs a permissions-policy violation in the host's console).
 */
function wakeLockAllowed(): boolean {
  const policy = (document as Document & { featurePolicy?: { allowsFeature(f: string): boolean } }).featurePolicy;
  if (policy) return policy.allowsFeature("screen-wake-lock");
  try {
    return parent === self;
  } catch {
    return false;
  }
}

/** True once `down` has held for BADGE_AFTER_MS; false again as soon as it ends. */
export function useDownFor(down: boolean, ms = BADGE_AFTER_MS): boolean {
  const [long, setLong] = useState(false);
  useEffect(() => {
    setLong(false);
    if (!down) return;
    const h = setTimeout(() => setLong(true), ms);
    return () => clearTimeout(h);
  }, [down]);
  return long;
}

/** The badge of a live stream that has been down for a while. */
export function ReconnectBadge(p: { text: string }) {
  return <p class="screen-badge" role="status">{p.text}</p>;
}

/**
 * A full-screen toggle for the viewer, and the `f` key (outside form fields). Rendered only once
 * the browser says full screen is allowed (the server's render has no button).
 */
export function FullscreenButton(p: { enter: string; exit: string }) {
  const [allowed, setAllowed] = useState(false);
  const [on, setOn] = useState(false);
  useEffect(() => {
    setAllowed(document.fullscreenEnabled === true);
    const changed = () => setOn(document.fullscreenElement !== null);
    const key = (e: KeyboardEvent) => {
      if (e.key !== "f" && e.key !== "F") return;
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const el = e.target as HTMLElement | null;
      if (el?.closest("input, textarea, select, [contenteditable]")) return;
      toggle();
    };
    document.addEventListener("fullscreenchange", changed);
    addEventListener("keydown", key);
    return () => {
      document.removeEventListener("fullscreenchange", changed);
      removeEventListener("keydown", key);
    };
  }, []);
  if (!allowed) return null;
  return (
    <button type="button" class="face-button screen-fullscreen" onClick={toggle}>
      <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
        <path
          d={on ? "M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" : "M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"}
          fill="none"
          stroke="currentColor"
          stroke-width="2"
        />
      </svg>
      <span class="screen-fullscreen-text">{on ? p.exit : p.enter}</span>
    </button>
  );
}

function toggle() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  else document.documentElement.requestFullscreen().catch(() => {});
}
