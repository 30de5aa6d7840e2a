/**
 * Restart, once a timer configured by its parameters has finished: a part of the islands whose
 * timer can restart (components/widget_face.tsx); a stored timer's widget never shows it.
 */
import type { RefObject } from "preact";

export function RestartButton(p: { label: string; restart: () => void; face: RefObject<HTMLElement> }) {
  return (
    <button
      type="button"
      class="face-button"
      onClick={() => {
        p.restart();
        // The button goes with the finished state: the focus goes to the clock, not to the page.
        requestAnimationFrame(() => p.face.current?.querySelector<HTMLElement>(".face-time")?.focus());
      }}
    >
      {p.label}
    </button>
  );
}
