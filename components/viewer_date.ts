/**
 * An event's date on the viewer's clock: a part of the islands that show a date (TimerFace's
 * `viewerDate`), kept apart so that a face without one loads no date formatting.
 */
import { useEffect, useState } from "preact/hooks";
import { formatTargetDate } from "../lib/face.ts";

/**
 * An event's date as the viewer's own clock reads it, once the browser has said its time zone
 * (the server renders the event's zone). Null while that is the same text.
 */
export function useViewerDate(date: { text: string; iso: string } | null, lang: string): string | null {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (!date) return setLocal(null);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const text = zone ? formatTargetDate(Date.parse(date.iso), zone, lang) : date.text;
    setLocal(text === date.text ? null : text);
  }, [date?.iso, date?.text, lang]);
  return local;
}
