/**
 * Per-minute and per-day request limits shared by every process on one KV, without a KV write
 * per request: each process counts in memory and merges its counts into KV every `flushMs`
 * (an atomic `sum` per window), reading back the totals of all processes.
 *
 * Overshoot bound: between two merges a process only knows the others' counts as of the last
 * merge, so with P processes a window can admit at most what the other P−1 processes admit in
 * one flush interval beyond the limit. One process alone never overshoots: counts being merged
 * stay counted until the total that includes them is read back, and a subject it meets for the
 * first time (or again, after forgetting it) is read from KV before its first request is let in.
 */
import type { PlanLimits } from "../../config.ts";
import { rateKey, ratePrefix } from "../kv/keys.ts";

export interface Decision {
  allowed: boolean;
  /** The per-minute limit (the daily one where only that applies, or when the day is spent); null when unlimited. */
  limit: number | null;
  remaining: number | null;
  /** Unix epoch seconds at which the window `limit` and `remaining` describe resets. */
  reset: number;
  /** Seconds to wait, when refused. */
  retryAfter?: number;
  /** Which window refused: "minute" or "day". */
  window?: "minute" | "day";
}

interface Window {
  start: number;
  /** All processes' count as of the last merge (includes what this process merged). */
  merged: number;
  /** Sent to KV by the merge under way, not yet part of `merged`. */
  inflight: number;
  /** Counted here since the last merge began. */
  pending: number;
}

interface Subject {
  name: string;
  minute: Window;
  day: Window;
  touched: number;
  /** Set while the subject's totals are read from KV, before its first request is decided. */
  loading: Promise<void> | null;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Subjects idle this long are forgotten (their totals stay in KV and are read back on return). */
const IDLE_MS = 2 * MINUTE;
/** How often counters of ended windows are swept out of KV. */
const SWEEP_MS = 10 * MINUTE;
/** Mutations per merge commit (a local commit allows 1 000, KV Connect as many). */
const SUMS_PER_COMMIT = 500;

const used = (w: Window) => w.merged + w.inflight + w.pending;

export class RateLimiter {
  #subjects = new Map<string, Subject>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> | null = null;
  /** Counters of windows that have ended, deleted at the next merge. */
  #stale: Deno.KvKey[] = [];
  #lastSweep = -Infinity;

  constructor(
    readonly kv: Deno.Kv,
    readonly opts: { flushMs: number; now: () => number },
  ) {}

  /**
   * Counts one request of `subject` against `limits`, unless it is over them. Synchronous for a
   * subject this process knows; the first request of another waits for one KV read.
   */
  check(subject: string, limits: PlanLimits): Decision | Promise<Decision> {
    const s = this.#subjects.get(subject) ?? this.#load(subject);
    if (s.loading) return s.loading.then(() => this.#decide(s, limits));
    return this.#decide(s, limits);
  }

  #decide(s: Subject, limits: PlanLimits): Decision {
    const now = this.opts.now();
    this.#roll(s, now);
    s.touched = now;
    const minuteUsed = used(s.minute);
    const dayUsed = used(s.day);
    // The headers describe one window: the minute's, or the day's where the plan counts days only
    // or the day is spent (so a client waiting for Reset is not refused again).
    const dayEnd = Math.floor((s.day.start + DAY) / 1000);
    const reset = limits.per_minute === null && limits.per_day !== null
      ? dayEnd
      : Math.floor((s.minute.start + MINUTE) / 1000);
    const limit = limits.per_minute ?? limits.per_day;
    if (limits.per_day !== null && dayUsed >= limits.per_day) {
      const retryAfter = Math.ceil((s.day.start + DAY - now) / 1000);
      return { allowed: false, limit: limits.per_day, remaining: 0, reset: dayEnd, retryAfter, window: "day" };
    }
    if (limits.per_minute !== null && minuteUsed >= limits.per_minute) {
      const retryAfter = Math.max(1, Math.ceil((s.minute.start + MINUTE - now) / 1000));
      return { allowed: false, limit, remaining: 0, reset, retryAfter, window: "minute" };
    }
    s.minute.pending++;
    s.day.pending++;
    const remaining = limits.per_minute !== null
      ? limits.per_minute - minuteUsed - 1
      : limits.per_day !== null
      ? limits.per_day - dayUsed - 1
      : null;
    return { allowed: true, limit, remaining, reset };
  }

  /** A subject met for the first time (or again after being forgotten): its totals come from KV. */
  #load(name: string): Subject {
    const now = this.opts.now();
    const s: Subject = {
      name,
      minute: fresh(now - (now % MINUTE)),
      day: fresh(now - (now % DAY)),
      touched: now,
      loading: null,
    };
    const { minute, day } = s;
    s.loading = this.kv.getMany<[Deno.KvU64, Deno.KvU64]>([
      rateKey(name, "m", minute.start),
      rateKey(name, "d", day.start),
    ]).then(([m, d]) => {
      minute.merged = Number(m.value?.value ?? 0n);
      day.merged = Number(d.value?.value ?? 0n);
    }, () => {/* KV unavailable: count from zero rather than refuse everyone */}).finally(() => s.loading = null);
    this.#subjects.set(name, s);
    return s;
  }

  /** Starts new windows when the minute or the day has turned. */
  #roll(s: Subject, now: number): void {
    const minuteStart = now - (now % MINUTE);
    const dayStart = now - (now % DAY);
    if (s.minute.start !== minuteStart) {
      this.#stale.push(rateKey(s.name, "m", s.minute.start));
      s.minute = fresh(minuteStart);
    }
    if (s.day.start !== dayStart) {
      this.#stale.push(rateKey(s.name, "d", s.day.start));
      s.day = fresh(dayStart);
    }
  }

  /** Merges pending counts into KV and refreshes the totals of recently active subjects. */
  flush(): Promise<void> {
    // One merge at a time: a second caller waits for the running one.
    this.#flushing ??= this.#flush().finally(() => this.#flushing = null);
    return this.#flushing;
  }

  async #flush(): Promise<void> {
    const now = this.opts.now();
    const work: { s: Subject; minute: Window; day: Window; m: number; d: number }[] = [];
    for (const [name, s] of this.#subjects) {
      if (s.loading) continue;
      this.#roll(s, now);
      const { minute, day } = s;
      if (now - s.touched > IDLE_MS && minute.pending === 0 && day.pending === 0) {
        // Forgotten here; the day total stays in KV and is read back if the subject returns.
        this.#stale.push(rateKey(name, "m", minute.start));
        this.#subjects.delete(name);
        continue;
      }
      // Refresh only subjects active in the current minute (or with counts to merge).
      if (now - s.touched > MINUTE && minute.pending === 0 && day.pending === 0) continue;
      work.push({ s, minute, day, m: minute.pending, d: day.pending });
      minute.inflight += minute.pending;
      day.inflight += day.pending;
      minute.pending = 0;
      day.pending = 0;
    }
    await this.#deleteStale(now);
    for (let i = 0; i < work.length; i += SUMS_PER_COMMIT / 2) {
      const batch = work.slice(i, i + SUMS_PER_COMMIT / 2);
      let merged = false;
      try {
        const op = this.kv.atomic();
        let sums = 0;
        for (const { s, minute, day, m, d } of batch) {
          if (m > 0) op.sum(rateKey(s.name, "m", minute.start), BigInt(m));
          if (d > 0) op.sum(rateKey(s.name, "d", day.start), BigInt(d));
          sums += m + d;
        }
        // Nothing counted since the last merge: only the others' totals are read.
        merged = sums === 0 || (await op.commit()).ok;
      } catch { /* KV unavailable: the counts are kept below and merged next time */ }
      if (!merged) {
        for (const w of batch) {
          w.minute.inflight -= w.m;
          w.minute.pending += w.m;
          w.day.inflight -= w.d;
          w.day.pending += w.d;
        }
        continue;
      }
      // The totals read now include what was just merged: it leaves `inflight` as it joins `merged`.
      await Promise.all(
        chunks(batch, 5).map(async (part) => {
          const keys = part.flatMap(({ s, minute, day }) => [
            rateKey(s.name, "m", minute.start),
            rateKey(s.name, "d", day.start),
          ]);
          let totals: Deno.KvEntryMaybe<Deno.KvU64>[] | null = null;
          try {
            totals = await this.kv.getMany<Deno.KvU64[]>(keys);
          } catch { /* unread: keep the local view, which counts the merged requests */ }
          part.forEach(({ minute, day, m, d }, j) => {
            if (totals) {
              minute.merged = Math.max(minute.merged + m, Number(totals[2 * j].value?.value ?? 0n));
              day.merged = Math.max(day.merged + d, Number(totals[2 * j + 1].value?.value ?? 0n));
            } else {
              minute.merged += m;
              day.merged += d;
            }
            minute.inflight -= m;
            day.inflight -= d;
          });
        }),
      );
    }
  }

  /** Deletes counters of ended windows: those noted here, and every `SWEEP_MS` all of them in KV. */
  async #deleteStale(now: number): Promise<void> {
    if (now - this.#lastSweep >= SWEEP_MS) {
      this.#lastSweep = now;
      try {
        for await (const e of this.kv.list({ prefix: ratePrefix() })) {
          const [, , window, start] = e.key;
          // A minute of slack: another process may still be merging into a window just ended.
          const end = Number(start) + (window === "m" ? MINUTE : DAY);
          if (end < now - MINUTE) this.#stale.push(e.key);
          if (this.#stale.length >= 10 * SUMS_PER_COMMIT) break;
        }
      } catch { /* next sweep */ }
    }
    while (this.#stale.length > 0) {
      const batch = this.#stale.splice(0, SUMS_PER_COMMIT);
      const op = this.kv.atomic();
      for (const k of batch) op.delete(k);
      try {
        await op.commit();
      } catch {
        return; // KV unavailable: the next sweep finds them
      }
    }
  }

  /** Starts merging every `flushMs`. */
  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.opts.flushMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}

function fresh(start: number): Window {
  return { start, merged: 0, inflight: 0, pending: 0 };
}

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}
