/**
 * The time of day beside a timer (`clock=1`): in the given zone (named after its city), else in
 * the viewer's own. Read from the server's clock as the page estimates it, and delayed with the
 * display (`delay=`), so everything on a delayed face is of one instant.
 */
import { useEffect, useState } from "preact/hooks";

export interface DayClockProps {
  /** The server instant of the page's render (epoch ms). */
  at: number;
  /** The server's clock now, as the page estimates it. */
  serverNow: () => number;
  delayMs: number;
  /** IANA zone, or null for the viewer's (unknown to the server: the server's render leaves the time out). */
  zone: string | null;
  lang: string;
  label: string;
}

/** The wall time of `ms` in `zone` (or the runtime's zone), hours and minutes. */
export function dayTime(ms: number, zone: string | null, lang: string): string {
  return new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", timeZone: zone ?? undefined }).format(ms);
}

/** "Asia/Tokyo" → "Tokyo", "America/Argentina/Buenos_Aires" → "Buenos Aires". */
export function zoneCity(zone: string): string {
  return (zone.split("/").pop() ?? zone).replaceAll("_", " ");
}

export function DayClock(p: DayClockProps) {
  const [text, setText] = useState(() => p.zone ? dayTime(p.at - p.delayMs, p.zone, p.lang) : "--:--");
  useEffect(() => {
    let handle = 0;
    const tick = () => {
      clearTimeout(handle);
      const t = p.serverNow() - p.delayMs;
      setText(dayTime(t, p.zone, p.lang));
      handle = setTimeout(tick, 60_000 - (((t % 60_000) + 60_000) % 60_000) + 5) as unknown as number;
    };
    tick();
    const wake = () => document.visibilityState === "visible" && tick();
    document.addEventListener("visibilitychange", wake);
    return () => {
      clearTimeout(handle);
      document.removeEventListener("visibilitychange", wake);
    };
  }, [p.zone, p.lang, p.delayMs]);
  return (
    <p class="face-date face-clock">
      <span class="sr-only">{p.label}:</span>
      <svg class="face-clock-icon" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2" />
        <path d="M12 7v5l3 2" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
      </svg>{" "}
      <time class="face-clock-time">{text}</time>
      {p.zone && <span class="face-clock-zone">{zoneCity(p.zone)}</span>}
    </p>
  );
}
