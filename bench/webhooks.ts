/**
 * 3. Webhook delivery throughput to a local receiver (its own process) that answers at once,
 * and to one that answers after 2 s: M countdown timers with a webhook are created, then all
 * started as fast as the API allows; each start causes one `timer.started` delivery.
 * deliveries/s = arrivals / (last − first arrival). Nothing may be lost (every timer's delivery
 * arrives), nothing duplicated (ids checked), and no delivery may have more attempts than the
 * schedule allows (read from the KV file afterwards: one attempt each, since every answer is 2xx).
 */
import { Api, log, parallel, type Proc, round, seedAccounts, sleep, spawn, startServer, tempKv } from "./harness.ts";
import { loadConfig } from "../config.ts";
import type { Mode, Result } from "./result.ts";

const CONCURRENCY = 32;
/** The server's default (WEBHOOK_CONCURRENCY unset), as its configuration reads it. */
const DEFAULT_WEBHOOK_CONCURRENCY = loadConfig({}).webhookConcurrency;

interface Arrival {
  at: number;
  id: string;
  timer_id: string;
  event: string;
  webhook_id: string | null;
}

interface StoredDelivery {
  id: string;
  timer_id: string;
  state: string;
  attempts: unknown[];
  payload: { event: string };
}

async function count(rx: Proc, event: string): Promise<number> {
  return (await (await fetch(`${rx.base}/__count?event=${event}`)).json()).n;
}

async function runDeliveries(m: number, delayMs: number, waitMs: number) {
  const kv = await tempKv(`wh-${delayMs}`);
  const accounts = await seedAccounts(kv.path, CONCURRENCY);
  const rx = await spawn(`receiver-${delayMs}`, "bench/receiver.ts", { DELAY_MS: String(delayMs) });
  const app = await startServer("app", kv.path);
  const apis = accounts.map((a) => new Api(app.base, a.apiKey));
  const hook = `${rx.base}/hook`;
  try {
    const ids: string[] = await parallel(Array.from({ length: m }), CONCURRENCY, async (_, i) => {
      const t = await apis[i % apis.length].create({ type: "countdown", duration: 86_400, webhook_url: hook });
      return t.timer_id as string;
    });
    let startErrors = 0;
    const s0 = Date.now();
    await parallel(ids, CONCURRENCY, async (id, i) => {
      const r = await apis[i % apis.length].act(id, "start");
      if (r.status !== 200) startErrors++;
    });
    const s1 = Date.now();
    const until = s1 + waitMs;
    while (Date.now() < until && await count(rx, "timer.started") < m) await sleep(100);
    const allBy = Date.now();
    await sleep(Math.min(3000, delayMs + 1000)); // duplicates arriving late
    const arrivals: Arrival[] = (await (await fetch(`${rx.base}/__dump`)).json()).filter((a: Arrival) =>
      a.event === "timer.started"
    );
    for (const a of apis) a.close();
    await app.stop();

    // Attempts as recorded by the server.
    const db = await Deno.openKv(kv.path);
    const deliveries: StoredDelivery[] = [];
    for await (const e of db.list<StoredDelivery>({ prefix: ["delivery"] })) deliveries.push(e.value);
    db.close();
    const started = deliveries.filter((d) => d.payload?.event === "timer.started");
    const extraAttempts = started.reduce((s, d) => s + Math.max(0, d.attempts.length - 1), 0);
    const notSucceeded = started.filter((d) => d.state !== "succeeded").length;

    const mine = new Set(ids);
    const seen = new Map<string, number>();
    const timersSeen = new Set<string>();
    let dups = 0;
    const times: number[] = [];
    /** For duplicated ids: when the first copy arrived (after the first start) and the gap to the next. */
    const dupFirstAfterStart: number[] = [], dupGap: number[] = [];
    for (const a of arrivals) {
      if (!mine.has(a.timer_id)) continue;
      if (seen.has(a.id)) {
        dups++;
        dupFirstAfterStart.push(seen.get(a.id)! - s0);
        dupGap.push(a.at - seen.get(a.id)!);
      } else {
        seen.set(a.id, a.at);
        times.push(a.at);
      }
      timersSeen.add(a.timer_id);
    }
    const lost = m - timersSeen.size;
    const first = Math.min(...times), last = Math.max(...times);
    // From the first arrival to the last answer: a receiver that answers after `delayMs` frees
    // the sender's slot only then (with delayMs = 0, simply first-to-last arrival).
    const rate = times.length > 1 ? times.length / ((last - first + delayMs) / 1000) : null;
    return {
      m,
      receiver_delay_ms: delayMs,
      deliveries_per_s: rate === null ? null : round(rate, 1),
      arrived_unique: seen.size,
      lost,
      duplicates: dups,
      extra_attempts_recorded: extraAttempts,
      deliveries_recorded: started.length,
      deliveries_not_succeeded: notSucceeded,
      start_errors: startErrors,
      starts_per_s: round(m / ((s1 - s0) / 1000), 1),
      first_arrival_after_first_start_ms: Number.isFinite(first) ? first - s0 : null,
      last_arrival_after_last_start_ms: Number.isFinite(last) ? last - s1 : null,
      waited_for_all_ms: allBy - s1,
      webhook_concurrency: DEFAULT_WEBHOOK_CONCURRENCY,
      ...(dups
        ? {
          duplicates_first_copy_after_first_start_ms: {
            min: Math.min(...dupFirstAfterStart),
            max: Math.max(...dupFirstAfterStart),
          },
          duplicates_gap_between_copies_ms: { min: Math.min(...dupGap), max: Math.max(...dupGap) },
        }
        : {}),
      ideal_per_s_at_this_delay: delayMs > 0 ? round(DEFAULT_WEBHOOK_CONCURRENCY / (delayMs / 1000), 1) : null,
    };
  } finally {
    for (const a of apis) a.close();
    await app.stop();
    await rx.stop();
    await kv.cleanup();
  }
}

export async function webhooks(mode: Mode): Promise<Result[]> {
  const results: Result[] = [];
  const plans = mode.quick
    ? [{ label: "instant", m: 500, delay: 0, wait: 30_000 }, { label: "slow_2s", m: 200, delay: 2000, wait: 40_000 }]
    : [{ label: "instant", m: 2000, delay: 0, wait: 60_000 }, { label: "slow_2s", m: 500, delay: 2000, wait: 60_000 }];
  for (const p of plans) {
    log(`webhooks: ${p.m} deliveries to a receiver answering after ${p.delay} ms`);
    const r = await runDeliveries(p.m, p.delay, p.wait);
    const ok = r.lost === 0 && r.duplicates === 0 && r.extra_attempts_recorded === 0 && r.start_errors === 0;
    const startBound = r.deliveries_per_s !== null && r.deliveries_per_s >= 0.9 * r.starts_per_s;
    const problems = [
      r.lost && `${r.lost} lost`,
      r.duplicates &&
      `${r.duplicates} duplicate arrivals (first copies ${
        JSON.stringify(r.duplicates_first_copy_after_first_start_ms)
      } ms after the first start, second copies ${JSON.stringify(r.duplicates_gap_between_copies_ms)} ms later)`,
      r.extra_attempts_recorded && `${r.extra_attempts_recorded} attempts beyond the first (all answers were 2xx)`,
      r.start_errors && `${r.start_errors} start errors`,
    ].filter(Boolean);
    results.push({
      name: `webhook_deliveries_per_s_${p.label}`,
      value: r.deliveries_per_s,
      unit: "deliveries/s",
      target: "report; none lost, none duplicated, no extra attempt",
      met: ok,
      ...r,
      note: problems.length
        ? problems.join(", ")
        : startBound
        ? `deliveries kept pace with the API's start rate (${r.starts_per_s} starts/s; the last arrived ${r.last_arrival_after_last_start_ms} ms after the last start): this figure is bounded by the starts, see precision_*'s deliveries_per_s for a burst`
        : undefined,
    });
  }
  return results;
}
