/**
 * `deno task chaos [--minutes=15] [--instances=3] [--kv=<file, KV Connect URL or kvconnect>] [--burst=N] …` —
 * several server processes on one KV, a receiver process recording every POST, the mixed load of
 * chaos_driver.ts spread over the instances, and a SIGKILL of a random instance every 20–60 s
 * followed by a restart; `--kv=kvconnect` runs them on the test KV Connect server (+20 ms a call),
 * restarted once halfway on the same URL, and over a remote KV the live-page check of
 * chaos_live.ts runs beside the load. Then it waits for what is due to settle, computes the ledger
 * (chaos_ledger.ts), prints a summary, writes bench/chaos.json (every answer and kill in
 * bench/chaos-log.jsonl) and exits 1 when a promise is broken: an event lost, an event of a deleted
 * timer arriving after the DELETE answered (beyond the in-flight allowance), a duplicate with no
 * kill between its arrivals, an event out of order (unless `--order=report`), a live-page change
 * not seen on another instance within 1 s.
 */
import { BENCH_DIR, dist, killAll, log, machine, round, seedAccounts, sleep, spawn, tempKv } from "./harness.ts";
import { type BurstInfo, Driver } from "./chaos_driver.ts";
import { type Arrival, broken, ledger } from "./chaos_ledger.ts";
import { chaosKvConnect, Cluster, jsonLines, killKvServer } from "./chaos_cluster.ts";
import { brokenLive, judgeLive, LiveProbe, type Outage } from "./chaos_live.ts";

export interface ChaosOptions {
  seconds: number;
  instances: number;
  /**
   * A KV file path or a KV Connect URL; `kvconnect`: the test KV Connect server (tests/kvconnect)
   * on a temp file at +`kvDelayMs` per call, restarted once halfway (same port, token and file);
   * unset: a fresh temp file.
   */
  kv?: string;
  kvDelayMs: number;
  /** How long the `kvconnect` server stays stopped in its restart (ms). */
  kvDownMs: number;
  /**
   * The cross-instance live-page check (chaos_live.ts); unset: on over a remote KV (on a shared
   * local file a page sees only its own process's changes).
   */
  liveCheck?: boolean;
  /** Out-of-order arrivals break the promise (the order gate, issue 30 item 3); false: reported only. */
  strictOrder: boolean;
  burst: number;
  burstEverySeconds: number;
  killEverySeconds: [number, number];
  actors: number;
  inflightMs: number;
  /** After the last restart, how long a killed instance's claims may take to be taken over (ms). */
  takeoverMs: number;
  settleTimeoutMs: number;
  out?: string;
  logPath?: string;
  serverEnv: Record<string, string>;
  /**
   * Restarts the KV server once, halfway through the load (issue 30: a KV Connect server). The CLI's
   * `--kv-restart-cmd` runs a shell command for it.
   */
  kvRestart?: () => Promise<void>;
  quiet?: boolean;
}

export const DEFAULTS: ChaosOptions = {
  seconds: 15 * 60,
  instances: 3,
  kvDelayMs: 20,
  kvDownMs: 1000,
  strictOrder: true,
  burst: 0, // chosen by the KV: 2 000 over a URL, 300 on a file (2 cores)
  burstEverySeconds: 60,
  killEverySeconds: [20, 60],
  actors: 16,
  inflightMs: 1000,
  takeoverMs: 45_000,
  settleTimeoutMs: 180_000,
  serverEnv: {},
};

export async function runChaos(o: ChaosOptions) {
  const say = (m: string) => o.quiet || log(m);
  const temp = o.kv ? null : await tempKv("chaos");
  const kvc = o.kv === "kvconnect" ? await chaosKvConnect(o.kvDelayMs, o.kvDownMs) : null;
  const kvRestart = o.kvRestart ?? (kvc ? async () => void await kvc.restart() : undefined);
  const kvPath = kvc?.url ?? o.kv ?? temp!.path;
  const remote = /^https?:\/\//.test(kvPath);
  const liveCheck = (o.liveCheck ?? remote) && o.instances >= 2;
  const burstSize = o.burst || (remote ? 2000 : 300);
  const logPath = o.logPath ?? `${BENCH_DIR}chaos-log.jsonl`;
  const lines = jsonLines(logPath);
  const keys = (await seedAccounts(kvPath, 4)).map((a) => a.apiKey);
  const rx = await spawn("chaos-receiver", "bench/receiver.ts", { DELAY_MS: "0" });
  // Several servers on one local file must say so (each refuses to start beside one that does not).
  const env = {
    WEBHOOK_RETRY_DELAYS: "1,5,10,30",
    ...(!remote && { KV_SHARED_FILE: "1" }),
    ...kvc?.env,
    ...o.serverEnv,
  };
  const cluster = new Cluster(kvPath, env, o.instances, lines.write);
  const startedAt = Date.now();
  try {
    await cluster.start();
    const where = kvc ? `the test KV Connect server (+${o.kvDelayMs} ms a call)` : remote ? "a KV Connect URL" : kvPath;
    say(`chaos: ${o.instances} instances on ${where}; ${o.seconds} s of load`);
    const driver = new Driver({ instances: cluster, keys, hook: `${rx.base}/hook`, log: lines.write });
    const probe = liveCheck ? new LiveProbe({ instances: cluster, key: keys[0], log: lines.write }) : null;
    const end = Date.now() + o.seconds * 1000;
    const stopped = () => Date.now() >= end;
    const bursts: Promise<BurstInfo>[] = [];
    // Bursts at planned starts; the killer aims at some of their instants.
    const burstStarts: number[] = [];
    for (let at = Date.now() + Math.min(15_000, o.seconds * 250); at < end - 10_000; at += o.burstEverySeconds * 1000) {
      burstStarts.push(at);
    }
    const burstLoop = (async () => {
      for (const at of burstStarts) {
        await sleep(at - Date.now());
        say(`chaos: burst of ${burstSize}`);
        bursts.push(driver.burst(burstSize, 16, remote ? 20 : 12));
      }
    })();
    const killLoop = (async () => {
      const [lo, hi] = o.killEverySeconds;
      let last = Date.now();
      for (;;) {
        // Every lo–hi s; every other time, if a burst starts in that span, just after its instant.
        let at = last + (lo + Math.random() * (hi - lo)) * 1000;
        const aim = Math.random() < 0.5
          ? burstStarts.findIndex((s) =>
            s >= Date.now() && s >= last + lo * 1000 - 8000 && s <= last + hi * 1000 - 8000
          )
          : -1;
        if (aim >= 0) {
          while (driver.burstTargets.length <= aim && Date.now() < end) await sleep(250);
          if (driver.burstTargets.length > aim) at = driver.burstTargets[aim] + 20 + Math.random() * 300;
        }
        if (at > end - 5_000) return;
        await sleep(at - Date.now());
        await cluster.killOne();
        last = Date.now();
      }
    })();
    const kvRestarts: { at: string; ms: number }[] = [];
    const outages: Outage[] = [];
    const kvRestartLoop = (async () => {
      if (!kvRestart) return;
      await sleep(o.seconds * 500);
      const at = Date.now();
      lines.write({ kind: "kv-restart", at });
      await kvRestart();
      lines.write({ kind: "kv-restarted", at: Date.now() });
      kvRestarts.push({ at: new Date(at).toISOString(), ms: Date.now() - at });
      outages.push({ from: at, to: Date.now() });
      say(`chaos: KV server restarted in ${Date.now() - at} ms${kvc ? ` on the same URL` : ""}`);
    })();
    await Promise.all([
      ...Array.from({ length: o.actors }, () => driver.actor(stopped)),
      burstLoop,
      killLoop,
      kvRestartLoop,
      probe?.run(stopped),
    ]);
    const burstInfo = await Promise.all(bursts);
    const loadEnded = Date.now();
    say(`chaos: load over (${driver.timers.length} timers, ${cluster.kills.length} kills); settling`);

    // Settled: nothing expected is missing, nothing arrived for 3 s, and a killed instance's claims
    // have had time to be taken over (or the settle time ran out).
    const lastRestart = Math.max(startedAt, ...cluster.kills.map((k) => k.restartedAt ?? k.at));
    let arrivals: Arrival[] = [];
    let l = ledger(driver.timers, [], cluster.kills, { inflightMs: o.inflightMs, killSlackMs: 2000, now: Date.now() });
    let lastCount = -1, quietSince = Date.now();
    for (;;) {
      arrivals = await (await fetch(`${rx.base}/__dump`)).json();
      const now = Date.now();
      if (arrivals.length !== lastCount) (lastCount = arrivals.length, quietSince = now);
      l = ledger(driver.timers, arrivals, cluster.kills, { inflightMs: o.inflightMs, killSlackMs: 2000, now });
      const calm = now - quietSince >= 3000 && now >= lastRestart + o.takeoverMs && now >= loadEnded + 20_000;
      if ((l.lost === 0 && calm) || now > loadEnded + o.settleTimeoutMs) break;
      await sleep(1000);
    }
    const settledAfterMs = Date.now() - loadEnded;
    // Every POST the receiver recorded, beside the answers and kills (for diagnosis).
    for (const a of arrivals) lines.write({ kind: "arrival", ...a });
    driver.close();
    probe?.close();
    const live = probe ? judgeLive(probe.rounds, probe.unanswered, cluster.kills, outages) : null;

    const firstArrival = new Map<string, number>();
    for (const a of arrivals) if (!firstArrival.has(a.timer_id)) firstArrival.set(a.timer_id, a.at);
    const deletedIds = new Set(driver.timers.filter((t) => t.deletedAt !== undefined).map((t) => t.id));
    const burstFigures = burstInfo.map((b) => {
      const live = b.ids.filter((id) => !deletedIds.has(id));
      const late = live.flatMap((id) => firstArrival.has(id) ? [(firstArrival.get(id)! - b.target) / 1000] : []);
      return {
        size: b.size,
        created: b.created,
        refused: b.refused,
        deleted: b.deleted,
        arrived: late.length,
        lateness_s: dist(late),
      };
    });
    const lat = Float64Array.from(driver.latencies).sort();
    const problems = [
      ...broken(l, { order: o.strictOrder }),
      ...(live ? brokenLive(live) : []),
    ];
    const report = {
      ok: problems.length === 0,
      broken: problems,
      config: {
        ...o,
        kvRestart: kvRestart !== undefined,
        kv: kvc ? "kvconnect (test server on a temp file)" : remote ? "(KV Connect URL)" : kvPath,
        liveCheck,
        burst: burstSize,
      },
      started_at: new Date(startedAt).toISOString(),
      load_seconds: round((loadEnded - startedAt) / 1000, 1),
      settled_after_s: round(settledAfterMs / 1000, 1),
      machine: machine(),
      kills: cluster.kills.map((k) => ({
        instance: k.instance,
        at: new Date(k.at).toISOString(),
        restart_ms: k.restartedAt === undefined ? null : k.restartedAt - k.at,
      })),
      api: {
        requests: Object.values(driver.statuses).reduce((a, b) => a + b, 0),
        statuses: driver.statuses,
        latency_ms: dist(Array.from(lat)),
      },
      kv_restarts: kvRestarts,
      bursts: burstFigures,
      ledger: l,
      live,
      log: logPath,
    };
    if (o.out) await Deno.writeTextFile(o.out, JSON.stringify(report, null, 2) + "\n");
    return report;
  } finally {
    try {
      await cluster.stop();
    } finally {
      lines.close(); // after the instances' last log lines
    }
    await rx.stop();
    await temp?.cleanup();
    await kvc?.cleanup();
  }
}

export function summary(r: Awaited<ReturnType<typeof runChaos>>): string {
  const l = r.ledger;
  const pct = (x: number) => `${round(100 * x, 3)} %`;
  const out = [
    `chaos: ${r.config.instances} instances, ${r.load_seconds} s of load, ${r.kills.length} SIGKILLs + restarts, ` +
    `settled ${r.settled_after_s} s after the load`,
    `api: ${r.api.requests} requests ${JSON.stringify(r.api.statuses)}, p50 ${r.api.latency_ms.p50} ms, ` +
    `p99 ${r.api.latency_ms.p99} ms`,
    `timers: ${l.timers.total} (${l.timers.alive} alive: ${l.timers.checked} fully checked, ${l.timers.open} with an ` +
    `unanswered action; ${l.timers.deleted} deleted)`,
    `deliveries: ${l.arrivals} POSTs, ${l.distinct_ids} distinct ids; ${l.expected_min} events implied by answers ` +
    `and clocks (${l.ambiguous_instants} instants ambiguous)`,
    `bursts: ${
      r.bursts.map((b) => `${b.created}/${b.size} created, ${b.arrived} arrived, late p99 ${b.lateness_s.p99} s`).join(
        "; ",
      ) || "none"
    }`,
    `LOST: ${l.lost}${l.lost ? ` e.g. ${JSON.stringify(l.lost_examples.slice(0, 3))}` : ""}`,
    `AFTER DELETE: ${l.after_delete} (beyond ${r.config.inflightMs} ms in flight; ${l.in_flight_at_delete} within, ` +
    `max ${l.in_flight_max_ms ?? "–"} ms)${
      l.after_delete ? ` e.g. ${JSON.stringify(l.after_delete_examples.slice(0, 3))}` : ""
    }`,
    `DUPLICATES: ${l.duplicates} (${pct(l.duplicate_ratio)} of distinct ids), ${l.duplicates_explained} explained by ` +
    `a kill, ${l.duplicates_unexplained} unexplained${
      l.duplicates_unexplained ? ` e.g. ${JSON.stringify(l.unexplained_examples.slice(0, 3))}` : ""
    }`,
    `OUT OF ORDER: ${l.out_of_order}${r.config.strictOrder ? "" : " (reported, not judged)"}${
      l.out_of_order ? ` e.g. ${JSON.stringify(l.out_of_order_examples.slice(0, 2))}` : ""
    }`,
    `more than implied: ${l.more_than_implied}${
      l.more_than_implied ? ` e.g. ${JSON.stringify(l.more_than_implied_examples.slice(0, 3))}` : ""
    }; orphan POSTs (a creation whose answer was lost): ${l.orphans}`,
    `kv restarts: ${r.kv_restarts.map((k) => `${k.at} (down ${k.ms} ms)`).join(", ") || "none"}`,
    liveLine(r.live),
    r.ok ? "promises kept" : `BROKEN: ${r.broken.join("; ")}`,
  ];
  return out.join("\n");
}

function liveLine(v: ReturnType<typeof judgeLive> | null): string {
  if (!v) return "LIVE PAGES: not checked (a local file: pages see only their own process)";
  const lat = v.latency_ms;
  return `LIVE PAGES (a change answered on A, seen on B's stream): ${v.within_1s}/${v.judged} within 1 s = ` +
    `${round(100 * v.share_within_1s, 2)} %; latency p50 ${lat?.p50 ?? "–"} ms, p99 ${lat?.p99 ?? "–"} ms, max ` +
    `${lat?.max ?? "–"} ms; ${v.missed} missed; ${v.excused} excused (A killed or the KV down during the wait, ` +
    `or B killed since its stream opened), ${v.changes_unanswered} changes unanswered, ${v.streams_failed} streams without a first snapshot ` +
    `(${v.streams_failed_unexcused} unexcused); ${v.rounds} rounds${
      v.late_examples.length ? ` e.g. ${JSON.stringify(v.late_examples.slice(0, 3))}` : ""
    }${v.failed_stream_examples.length ? ` streams: ${JSON.stringify(v.failed_stream_examples.slice(0, 3))}` : ""}`;
}

export function parseArgs(args: string[]): ChaosOptions {
  const o: ChaosOptions = { ...DEFAULTS, serverEnv: {}, out: `${BENCH_DIR}chaos.json` };
  for (const a of args) {
    const [k, ...rest] = a.replace(/^--/, "").split("=");
    const v = rest.join("=");
    if (k === "minutes") o.seconds = Number(v) * 60;
    else if (k === "seconds") o.seconds = Number(v);
    else if (k === "instances") o.instances = Number(v);
    else if (k === "kv") o.kv = v;
    else if (k === "kv-delay-ms") o.kvDelayMs = Number(v);
    else if (k === "kv-down-ms") o.kvDownMs = Number(v);
    else if (k === "live-check") o.liveCheck = v !== "off";
    else if (k === "order") o.strictOrder = v !== "report";
    else if (k === "burst") o.burst = Number(v);
    else if (k === "burst-every") o.burstEverySeconds = Number(v);
    else if (k === "kill-every") o.killEverySeconds = v.split("-").map(Number) as [number, number];
    else if (k === "actors") o.actors = Number(v);
    else if (k === "inflight-ms") o.inflightMs = Number(v);
    else if (k === "takeover-ms") o.takeoverMs = Number(v);
    else if (k === "out") o.out = v;
    else if (k === "log") o.logPath = v;
    else if (k === "kv-restart-cmd") {
      o.kvRestart = async () => {
        const r = await new Deno.Command("sh", { args: ["-c", v] }).output();
        if (!r.success) throw new Error(`--kv-restart-cmd exited with ${r.code}`);
      };
    } else if (k === "server-env") {
      const [name, ...value] = v.split("=");
      o.serverEnv[name] = value.join("=");
    } else {
      throw new Error(
        `unknown argument ${a}; usage: deno task chaos [--minutes=15] [--instances=3] [--kv=<file, url or kvconnect>] ` +
          `[--kv-delay-ms=20] [--kv-down-ms=1000] [--live-check=on|off] [--order=promise|report] ` +
          `[--burst=N] [--burst-every=60] [--kill-every=20-60] [--actors=8] [--inflight-ms=1000] ` +
          `[--takeover-ms=45000] [--out=bench/chaos.json] [--log=bench/chaos-log.jsonl] [--server-env=NAME=value] ` +
          `[--kv-restart-cmd="shell command restarting the KV server"]`,
      );
    }
  }
  return o;
}

if (import.meta.main) {
  Deno.addSignalListener("SIGINT", () => (killAll(), killKvServer(), Deno.exit(130)));
  const r = await runChaos(parseArgs(Deno.args));
  // deno-lint-ignore no-console
  console.log(summary(r));
  Deno.exit(r.ok ? 0 : 1);
}
