/**
 * The dashboard's dates in the reader's own time zone: the server writes each one in UTC as a
 * `<time data-local>` (its `title` keeps the UTC text, shown on hover); once hydrated, this
 * rewrites their text in the browser's zone. Without JavaScript the UTC text stays.
 */
import { useEffect } from "preact/hooks";

export default function LocalTimes(p: { lang: string }) {
  useEffect(() => {
    const format = new Intl.DateTimeFormat(p.lang, { dateStyle: "medium", timeStyle: "long" });
    for (const el of document.querySelectorAll<HTMLTimeElement>("time[data-local]")) {
      const at = Date.parse(el.dateTime);
      if (!Number.isNaN(at)) el.textContent = format.format(at);
    }
  }, [p.lang]);
  return null;
}
