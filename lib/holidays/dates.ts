/**
 * Calendar-date helpers on `YYYY-MM-DD` strings. All arithmetic runs in UTC so the host's
 * time zone can never shift a date.
 */

const DAY_MS = 86_400_000;

/** Milliseconds of 00:00 UTC on `iso`. */
export function isoToUtcMs(iso: string): number {
  return Date.UTC(
    Number(iso.slice(0, 4)),
    Number(iso.slice(5, 7)) - 1,
    Number(iso.slice(8, 10)),
  );
}

/** The `YYYY-MM-DD` of a UTC instant. */
export function utcMsToIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Builds `YYYY-MM-DD` from a year, 1-based month and day. */
export function ymd(year: number, month: number, day: number): string {
  return utcMsToIso(Date.UTC(year, month - 1, day));
}

/** `iso` shifted by `days` calendar days. */
export function addDays(iso: string, days: number): string {
  return utcMsToIso(isoToUtcMs(iso) + days * DAY_MS);
}

/** Day of week, 0 = Sunday … 6 = Saturday. */
export function weekday(iso: string): number {
  return new Date(isoToUtcMs(iso)).getUTCDay();
}

/** True on Saturday and Sunday. */
export function isWeekend(iso: string): boolean {
  const d = weekday(iso);
  return d === 0 || d === 6;
}

/** Every date from `from` to `to`, both included. */
export function dateRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Kebab-case slug of an English name ("New Year's Day" → "new-years-day"). */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
