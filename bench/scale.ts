/**
 * 4. Scale: a KV file seeded (before the server starts) with the project's Store — 100 000
 * timers, 10 000 of them running (--quick: 10 000 / 1 000) — against a nearly empty one
 * (200 timers, 20 running). Both servers run side by side; GET /api/v1/timers/:id of random
 * stored timers is measured on both at the same time. Reports server RSS, KV file size
 * and the GET p99 latency at size as a ratio to the empty store's.
 */
import { Store } from "../lib/kv/store.ts";
import { applyAction, newTimer, type Timer, type TimerEvent } from "../lib/timers/model.ts";
import { planTimerChange } from "../lib/timers/changes.ts";
import { newTimerId } from "../lib/ids.ts";
import {
  cpuMs,
  dist,
  kvFileSize,
  load,
  log,
  median,
  memory,
  type Proc,
  round,
  seedAccounts,
  sleep,
  startServer,
  tempKv,
} from "./harness.ts";
import type { Mode, Result } from "./result.ts";

const SEED_WORKERS = 16;
/** Moderate, so that p99 shows service time more than queueing behind a noisy neighbour. */
const CONCURRENCY = 8;
const DAY = 86_400_000;

function hex64(): string {
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(32))) s += b.toString(16).padStart(2, "0");
  return s;
}

/** A record shaped like TimerService.create builds it (countdown, idle). */
function seedTimer(accountId: string, now: number, i: number): Timer {
  return newTimer({
    id: newTimerId(),
    account_id: accountId,
    type: "countdown",
    title: `Timer ${i}`,
    duration: 86_400,
    control_token_hash: hex64(),
    created_at: now,
    expires_at: now + 30 * DAY,
  });
}

interface Seeded {
  /** A sample of (timer id, owner's key) to read. */
  sample: { id: string; key: string }[];
  seconds: number;
}

/**
 * Seeds `total` timers over SEED_WORKERS accounts — every `runningEvery`-th one started, its
 * deadline between 1 h and 1 day ahead — with the due entries and queue wake-ups a server on
 * this file would write (useQueue), 100 changes per commit, and keeps a random sample.
 */
export async function seed(path: string, total: number, sampleSize: number, runningEvery = 1): Promise<Seeded> {
  const accounts = await seedAccounts(path, SEED_WORKERS);
  const kv = await Deno.openKv(path);
  const store = new Store(kv, { useQueue: true });
  const sample: { id: string; key: string }[] = [];
  const every = Math.max(1, Math.floor(total / sampleSize));
  const t0 = performance.now();
  try {
    for (let base = 0; base < total; base += 100) {
      const now = Date.now();
      const changes = [];
      for (let i = base; i < Math.min(total, base + 100); i++) {
        const acct = accounts[i % accounts.length];
        const idle: Timer = {
          ...seedTimer(acct.accountId, now, i),
          duration: 3600 + Math.floor(Math.random() * 82_800),
        };
        const events: TimerEvent[] = [];
        let timer = idle;
        if (i % runningEvery === 0) ({ timer, event: events[0] } = applyAction(idle, "start", now));
        changes.push(planTimerChange(null, null, timer, events, { now, claimUntil: null }));
        if (i % every === 0) sample.push({ id: idle.id, key: acct.apiKey });
      }
      await store.timers.commitTimers(changes);
      if (base > 0 && base % 20_000 === 0) log(`scale: seeded ${base} timers`);
    }
  } finally {
    kv.close();
  }
  // Shuffle so that reads do not walk the keys in creation order.
  for (let i = sample.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [sample[i], sample[j]] = [sample[j], sample[i]];
  }
  return { sample, seconds: (performance.now() - t0) / 1000 };
}

const mib = (kib: number) => round(kib / 1024, 1);

export async function scale(mode: Mode): Promise<Result[]> {
  const total = mode.quick ? 10_000 : 100_000;
  const emptyTotal = 200;
  const big = await tempKv("scale-big");
  const empty = await tempKv("scale-empty");
  const procs: Proc[] = [];
  try {
    log(`scale: seeding ${total} running timers with the Store, 100 changes per commit`);
    const bigSeed = await seed(big.path, total, 2000);
    const emptySeed = await seed(empty.path, emptyTotal, emptyTotal);
    const sizeSeeded = await kvFileSize(big.path);
    const emptySizeSeeded = await kvFileSize(empty.path);
    log(`scale: seeded in ${bigSeed.seconds.toFixed(1)} s; starting both servers`);

    // Starting on a seeded file is a restart: every deadline is armed again from the due index.
    const t0 = performance.now();
    const bigProc = await startServer("scale-big", big.path);
    const startupMs = performance.now() - t0;
    procs.push(bigProc);
    const armedLine = JSON.parse(await bigProc.waitLine(/"msg":"scheduler armed"/, 120_000));
    const armedAfterSpawnMs = performance.now() - t0;
    const emptyProc = await startServer("scale-empty", empty.path);
    procs.push(emptyProc);
    await emptyProc.waitLine(/"msg":"scheduler armed"/, 60_000);
    await sleep(1500); // first sweeps, queue listener
    const memIdle = { big: await memory(bigProc.pid), empty: await memory(emptyProc.pid) };

    const req = (p: Proc, s: Seeded) => (i: number) => {
      const t = s.sample[i % s.sample.length];
      return { url: `${p.base}/api/v1/timers/${t.id}`, headers: { authorization: `Bearer ${t.key}` } };
    };
    // Both stores are read at the same time (CONCURRENCY loops each), so that a neighbour's
    // burst on this shared machine hits both alike; p99 is pooled over the rounds.
    const rounds = mode.quick ? 2 : 4;
    const seconds = mode.quick ? 2.5 : 4;
    log(`scale: GET latency, ${rounds}×${seconds}s, both stores at once, concurrency ${CONCURRENCY} each`);
    const reqBig = req(bigProc, bigSeed), reqEmpty = req(emptyProc, emptySeed);
    await Promise.all([
      load({ concurrency: CONCURRENCY, durationMs: 1000, request: reqBig }),
      load({ concurrency: CONCURRENCY, durationMs: 1000, request: reqEmpty }),
    ]);
    const r = {
      big: { latencies: [] as number[], p99_rounds: [] as number[], rps: [] as number[], errors: 0, cpu: 0, n: 0 },
      empty: { latencies: [] as number[], p99_rounds: [] as number[], rps: [] as number[], errors: 0, cpu: 0, n: 0 },
    };
    for (let i = 0; i < rounds; i++) {
      const cpu0 = [cpuMs(bigProc.pid), cpuMs(emptyProc.pid)];
      const [b, e] = await Promise.all([
        load({ concurrency: CONCURRENCY, durationMs: seconds * 1000, request: reqBig, latencies: true }),
        load({ concurrency: CONCURRENCY, durationMs: seconds * 1000, request: reqEmpty, latencies: true }),
      ]);
      r.big.cpu += cpuMs(bigProc.pid) - cpu0[0];
      r.empty.cpu += cpuMs(emptyProc.pid) - cpu0[1];
      for (const [acc, res] of [[r.big, b], [r.empty, e]] as const) {
        acc.latencies.push(...res.latencies!);
        acc.p99_rounds.push(dist(res.latencies!).p99);
        acc.rps.push(res.rps);
        acc.errors += res.errors;
        acc.n += res.requests;
      }
    }
    const memLoaded = { big: await memory(bigProc.pid), empty: await memory(emptyProc.pid) };
    await Promise.all(procs.map((p) => p.stop()));
    const sizeAfter = await kvFileSize(big.path);
    const emptySizeAfter = await kvFileSize(empty.path);

    const lb = dist(r.big.latencies), le = dist(r.empty.latencies);
    const ratio = round(lb.p99 / le.p99, 3);
    const errors = r.big.errors + r.empty.errors;
    const label = total >= 100_000 ? "100k" : `${total / 1000}k`;
    return [
      {
        name: `scale_get_p99_${label}_vs_empty`,
        value: ratio,
        unit: "ratio",
        target: `≤ 1.5 (p99 at ${total} timers ≤ 1.5× p99 with an empty store), no errors`,
        met: ratio <= 1.5 && errors === 0,
        p99_ms_at_size: lb.p99,
        p99_ms_empty: le.p99,
        p99_ms_rounds_at_size: r.big.p99_rounds,
        p99_ms_rounds_empty: r.empty.p99_rounds,
        p50_ms_at_size: lb.p50,
        p50_ms_empty: le.p50,
        max_ms_at_size: lb.max,
        max_ms_empty: le.max,
        rps_at_size: round(median(r.big.rps), 1),
        rps_empty: round(median(r.empty.rps), 1),
        server_cpu_ms_per_get_at_size: round(r.big.cpu / Math.max(1, r.big.n), 4),
        server_cpu_ms_per_get_empty: round(r.empty.cpu / Math.max(1, r.empty.n), 4),
        errors,
        concurrency: CONCURRENCY,
        timers: total,
        running: total,
        empty_store_timers: emptyTotal,
      },
      {
        name: `scale_rss_growth_${label}`,
        value: mib(memIdle.big.rss_kib - memIdle.empty.rss_kib),
        unit: "MiB",
        target: `≤ 64 MiB (${total} running timers armed vs ${emptyTotal})`,
        met: memIdle.big.rss_kib - memIdle.empty.rss_kib <= 64 * 1024 && armedLine.armed >= total,
        armed: armedLine.armed,
        rss_mib_idle_at_size: mib(memIdle.big.rss_kib),
        anon_mib_idle_at_size: mib(memIdle.big.anon_kib),
        file_mib_idle_at_size: mib(memIdle.big.file_kib),
        anon_mib_idle_empty: mib(memIdle.empty.anon_kib),
        file_mib_idle_empty: mib(memIdle.empty.file_kib),
        rss_mib_after_load_at_size: mib(memLoaded.big.rss_kib),
        peak_rss_mib_at_size: mib(memLoaded.big.hwm_kib),
        rss_mib_idle_empty: mib(memIdle.empty.rss_kib),
        rss_mib_after_load_empty: mib(memLoaded.empty.rss_kib),
        ratio_to_empty: round(memLoaded.big.rss_kib / memLoaded.empty.rss_kib, 2),
      },
      {
        name: `scale_rearm_${label}`,
        value: round(armedAfterSpawnMs / 1000, 2),
        unit: "s",
        target: `≤ 3 s from process start to every deadline armed`,
        met: armedAfterSpawnMs <= 3000 && armedLine.armed >= total,
        scheduler_load_ms: armedLine.ms,
        heap_mib_when_armed: armedLine.heap_mib,
        rss_mib_when_armed: armedLine.rss_mib,
        listening_after_spawn_ms: round(startupMs, 0),
        armed: armedLine.armed,
      },
      {
        name: `scale_kv_file_${label}`,
        value: round(sizeAfter.total / 1048576, 1),
        unit: "MiB",
        target: "report",
        met: null,
        bytes_per_timer: round(sizeAfter.total / total, 0),
        after_seeding: sizeSeeded,
        after_server: sizeAfter,
        empty_store_after_seeding: emptySizeSeeded,
        empty_store_after_server: emptySizeAfter,
        seed_seconds: round(bigSeed.seconds, 1),
        seed_ms_per_timer: round((bigSeed.seconds * 1000) / total, 3),
      },
    ];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all([big.cleanup(), empty.cleanup()]);
  }
}
