/**
 * Keeps a widget's face inside its frame. The style sheet sizes everything from the frame and
 * hides secondary parts in small frames; fonts and languages still vary, so after every
 * render and resize this measures the face and, while something sticks out, takes away the
 * next least important part (brand, foot, date, state label, second title line, round, title)
 * through the face's `data-fit` attribute. The time is never taken away; if the font in use is
 * wider than the style sheet expected, the clock is narrowed to fit. In a frame too small for
 * days beside the time (a badge, a thin banner), the days go above it (`stack`) rather than
 * squeeze the time under 10 px; what still sticks out once every part is gone shrinks the clock
 * (never under 10 px).
 */
import type { RefObject } from "preact";
import { useEffect, useLayoutEffect } from "preact/hooks";

export const FIT_STEPS = ["brand", "foot", "date", "status", "line", "round", "title"] as const;

/** Whether anything of the face lies outside it. */
function overflows(face: HTMLElement): boolean {
  if (face.scrollHeight > face.clientHeight + 0.5 || face.scrollWidth > face.clientWidth + 0.5) return true;
  const box = face.getBoundingClientRect();
  for (const el of face.children) {
    if (el.classList.contains("sr-only")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
      return true;
    }
  }
  return false;
}

/** Narrows the clock when the font in use is wider than the style sheet's estimate. */
function fitClock(face: HTMLElement) {
  const time = face.querySelector<HTMLElement>(".face-time");
  if (!time) return;
  time.style.removeProperty("--k");
  const cs = getComputedStyle(face);
  const room = face.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const wide = Math.max(time.scrollWidth, ...[...time.children].map((c) => c.scrollWidth));
  if (wide > room && room > 0) time.style.setProperty("--k", (Math.floor((room / wide) * 1000) / 1000).toString());
}

/** Smallest clock font (px) the fitting keeps: the README's floor for anything shown. */
const MIN_PX = 10;

/** The h:m:s font size in px, or null without a clock. */
function clockPx(face: HTMLElement): number | null {
  const hms = face.querySelector(".face-hms");
  return hms ? parseFloat(getComputedStyle(hms).fontSize) : null;
}

/** Shrinks the clock while the face still overflows, down to MIN_PX. */
function squeeze(face: HTMLElement) {
  const time = face.querySelector<HTMLElement>(".face-time");
  if (!time) return;
  for (let i = 0; i < 12 && overflows(face); i++) {
    const k = parseFloat(time.style.getPropertyValue("--k")) || 1;
    const px = clockPx(face) ?? 0;
    // Rounded up, so the clock never ends under MIN_PX.
    const next = Math.ceil(Math.max(k * 0.9, (k * MIN_PX) / px) * 1000) / 1000;
    if (!(next < k)) break;
    time.style.setProperty("--k", next.toString());
  }
}

/** Fits the face now: shows everything, then hides parts in order until nothing overflows. */
export function fitFace(face: HTMLElement): string {
  delete face.dataset.fit;
  fitClock(face);
  const taken: string[] = [];
  const take = (step: string) => {
    taken.push(step);
    face.dataset.fit = taken.join(" ");
  };
  if (face.querySelector(".face-days") && (clockPx(face) ?? MIN_PX) < MIN_PX) {
    take("stack");
    fitClock(face);
  }
  for (const step of FIT_STEPS) {
    if (!overflows(face)) break;
    take(step);
  }
  squeeze(face);
  return taken.join(" ");
}

/** Fits the face after every render and whenever its frame changes size. */
export function useFit(ref: RefObject<HTMLElement>, enabled: boolean) {
  useLayoutEffect(() => {
    if (enabled && ref.current) fitFace(ref.current);
  });
  useEffect(() => {
    const face = ref.current;
    if (!enabled || !face || typeof ResizeObserver === "undefined") return;
    let width = 0, height = 0;
    const observer = new ResizeObserver(([entry]) => {
      const { inlineSize, blockSize } = entry.borderBoxSize?.[0] ?? { inlineSize: 0, blockSize: 0 };
      if (inlineSize === width && blockSize === height) return;
      width = inlineSize;
      height = blockSize;
      fitFace(face);
    });
    observer.observe(face);
    // Web fonts arriving late change the text's size.
    document.fonts?.ready.then(() => fitFace(face));
    return () => observer.disconnect();
  }, [enabled]);
}
