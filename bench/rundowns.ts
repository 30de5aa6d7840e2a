/**
 * Linked rundowns advancing at one instant: N linked rundowns of two countdowns, each with a
 * webhook to the local receiver (its own process), created and started through the API so that
 * every first item ends within one second. The figure: `rundown.advanced` arrival − the first
 * item's due instant (the event's timestamp: the completion's instant, which the second item's
 * started_at equals). From the KV file once the server stopped: how many second items started at
 * their predecessor's completed_at exactly, and the commit's lateness (changed_at − due).
 */
import {
  Api,
  dist,
  getManyValues,
  log,
  parallel,
  round,
  seedAccounts,
  sleep,
  spawn,
  startServer,
  tempKv,
} from "./harness.ts";
import type { Mode, Result } from "./result.ts";

/** Setup requests in flight (one account each: many users' shows ending at once is the case). */
const SETUP_CONCURRENCY = 32;
/** Margin after the estimated setup time, before the shared second. */
const MARGIN_MS = 5_000;
const SAFETY = 1.7;
/** How long after the instant we wait for every advance to arrive. */
const WAIT_MS = 60_000;
/** The second item's length: long enough not to end during the measurement. */
const SECOND_S = 600;

interface Arrival {
  at: number;
  id: string;
  event: string;
  rundown_id?: string;
  timestamp?: string;
}

interface StoredTimer {
  state: string;
  started_at: number | null;
  completed_at: number | null;
  changed_at?: number;
}

const secs = (xs: number[]) => {
  const d = dist(xs);
  return {
    p50_s: round(d.p50 / 1000),
    p90_s: round(d.p90 / 1000),
    p99_s: round(d.p99 / 1000),
    max_s: round(d.max / 1000),
    min_s: round(d.min / 1000),
  };
};

async function count(base: string, event: string): Promise<number> {
  return (await (await fetch(`${base}/__count?event=${event}`)).json()).n;
}

export async function rundowns(mode: Mode): Promise<Result[]> {
  const n = mode.quick ? 100 : 1000;
  log(`rundowns: ${n} linked rundowns of two items, first items ending in one second`);
  const kv = await tempKv(`rundowns-${n}`);
  const accounts = await seedAccounts(kv.path, SETUP_CONCURRENCY);
  const rx = await spawn("receiver", "bench/receiver.ts", { DELAY_MS: "0" });
  const app = await startServer("app", kv.path);
  const apis = accounts.map((a) => new Api(app.base, a.apiKey));
  const hook = `${rx.base}/hook`;
  const body = (first: number, i: number) => ({
    title: `show ${i}`,
    mode: "linked",
    webhook_url: hook,
    items: [
      { type: "countdown", title: `first ${i}`, duration: first },
      { type: "countdown", title: `second ${i}`, duration: SECOND_S },
    ],
  });
  try {
    // Calibrate: one create + start at this concurrency (a far end; these are left out).
    const calib = Math.min(100, Math.max(20, Math.floor(n / 10)));
    const c0 = performance.now();
    await parallel(Array.from({ length: calib }), SETUP_CONCURRENCY, async (_, i) => {
      const api = apis[i % apis.length];
      const r = await api.call("POST", "/rundowns", body(3600, -i));
      await api.call("POST", `/rundowns/${r.json.rundown_id}/actions/start`);
    });
    const perMs = (performance.now() - c0) / calib;
    const instant = Math.ceil((Date.now() + perMs * n * SAFETY + MARGIN_MS) / 1000) * 1000;
    log(`rundowns: ~${perMs.toFixed(1)} ms per create+start; the first items end ${instant - Date.now()} ms from now`);

    const shows: { id: string; first: string; second: string }[] = new Array(n);
    let errors = 0;
    const samples: string[] = [];
    const fail = (e: string) => {
      errors++;
      if (samples.length < 5) samples.push(e.slice(0, 200));
    };
    const s0 = Date.now();
    await parallel(Array.from({ length: n }), SETUP_CONCURRENCY, async (_, i) => {
      const api = apis[i % apis.length];
      // Whole seconds that end the first item within the shared second, counted from the start about to be sent.
      const first = Math.max(1, Math.round((instant - Date.now() - 10) / 1000));
      const r = await api.call("POST", "/rundowns", body(first, i));
      if (r.status !== 201) return fail(`create: HTTP ${r.status} ${JSON.stringify(r.json).slice(0, 150)}`);
      const items = r.json.items as { timer_id: string }[];
      shows[i] = { id: r.json.rundown_id as string, first: items[0].timer_id, second: items[1].timer_id };
      const s = await api.call("POST", `/rundowns/${shows[i].id}/actions/start`);
      if (s.status !== 200) fail(`start: HTTP ${s.status} ${JSON.stringify(s.json).slice(0, 150)}`);
    });
    const setupEnd = Date.now();
    if (setupEnd > instant) log(`rundowns: setup overran the instant by ${setupEnd - instant} ms`);
    await sleep(Math.max(0, instant + 1000 - Date.now()));
    while (Date.now() < instant + WAIT_MS) {
      if (await count(rx.base, "rundown.advanced") >= n) break;
      await sleep(100);
    }
    await sleep(1000); // late duplicates
    const arrivals: Arrival[] = await (await fetch(`${rx.base}/__dump`)).json();
    for (const a of apis) a.close();
    await app.stop();

    const mine = new Map(shows.filter(Boolean).map((s) => [s.id, s]));
    const seen = new Set<string>();
    const late: number[] = [];
    const dueOf = new Map<string, number>();
    let dups = 0;
    for (const a of arrivals) {
      if (a.event !== "rundown.advanced" || !a.rundown_id || !mine.has(a.rundown_id)) continue;
      if (seen.has(a.id)) {
        dups++;
        continue;
      }
      seen.add(a.id);
      const due = Date.parse(a.timestamp ?? "");
      dueOf.set(a.rundown_id, due);
      late.push(a.at - due);
    }
    const db = await Deno.openKv(kv.path);
    const list = [...mine.values()];
    const firsts = await getManyValues<StoredTimer>(db, list.map((s) => ["timer", s.first]));
    const seconds = await getManyValues<StoredTimer>(db, list.map((s) => ["timer", s.second]));
    db.close();
    let exact = 0;
    const commitLate: number[] = [];
    const ends: number[] = [];
    list.forEach((_, i) => {
      const a = firsts[i], b = seconds[i];
      if (a?.completed_at == null || b?.started_at == null) return;
      ends.push(a.completed_at);
      if (b.started_at === a.completed_at) exact++;
      if (b.changed_at !== undefined) commitLate.push(b.changed_at - a.completed_at);
    });
    const hook99 = secs(late), state = secs(commitLate);
    const spread = ends.length ? round((Math.max(...ends) - Math.min(...ends)) / 1000) : null;
    const setup = {
      setup_s: round((setupEnd - s0) / 1000, 1),
      setup_errors: errors,
      setup_error_samples: samples,
      setup_overran_ms: Math.max(0, setupEnd - instant),
      first_items_end_spread_s: spread,
      calibration_ms: round(perMs, 1),
      server_stderr_tail: app.stderrTail().slice(-600),
    };
    const ok = errors === 0 && setupEnd <= instant;
    return [
      {
        name: `rundowns_advanced_n${n}`,
        value: exact,
        unit: "rundowns",
        target: `= ${n}: next item started at the completion's instant, each rundown.advanced once`,
        met: exact === n && seen.size === n && dups === 0 && ok,
        advanced_webhooks: seen.size,
        duplicates: dups,
        ...setup,
        note: ok ? undefined : `setup problem: ${JSON.stringify(setup)}`,
      },
      {
        name: `rundowns_advance_webhook_p99_n${n}`,
        value: hook99.p99_s,
        unit: "s late",
        target: "≤ 1 s",
        met: hook99.p99_s <= 1 && seen.size === n,
        ...hook99,
        arrived: seen.size,
        note: hook99.p99_s <= 1
          ? undefined
          : `rundown.advanced arrival − due p50/p99/max ${hook99.p50_s}/${hook99.p99_s}/${hook99.max_s} s; ` +
            `the advance commits p99 ${state.p99_s} s after the due instant`,
      },
      {
        name: `rundowns_advance_commit_p99_n${n}`,
        value: state.p99_s,
        unit: "s late",
        target: "report",
        met: null,
        ...state,
        note: "the second item's commit (changed_at) − the first's completed_at",
      },
    ];
  } finally {
    for (const a of apis) a.close();
    await app.stop();
    await rx.stop();
    await kv.cleanup();
  }
}
