/**
 * 2. Completion precision: N event timers with one shared target_date, each with a webhook to a
 * local receiver (its own process), created and started through the API. After the deadline:
 * state-change lateness (changed_at − deadline, read from the KV file once the server stopped)
 * and webhook arrival lateness (arrival − deadline). Reference: bare kv.enqueue messages with
 * the same delays on a fresh KV file.
 */
import {
  Api,
  cpuMs,
  type Dist,
  dist,
  getManyValues,
  log,
  parallel,
  type Proc,
  round,
  seedAccounts,
  serverEnv,
  sleep,
  spawn,
  startServer,
  tempKv,
  threadCpuMs,
  threadShare,
} from "./harness.ts";
import { senderFloor, sendRecordFloor } from "./floors.ts";
import { readProfile, summariseWithBusy } from "./profile.ts";
import type { Mode, Result } from "./result.ts";

/** Setup requests in flight. */
const SETUP_CONCURRENCY = 32;
/** Margin after the estimated setup time, before the shared deadline. */
const MARGIN_MS = 5_000;
/** Setup time estimate = calibrated time per timer × N × SAFETY. */
const SAFETY = 1.7;
/** How long after the deadline we wait for every completion to arrive. */
const WAIT_MS = 60_000;
/**
 * The zone row's `warn_at`: every timer crosses its warning threshold this many seconds before
 * the shared deadline, after the setup ended, so N `timer.warning` webhooks go out in one second
 * too. Long enough for them to drain before the deadline: the row asks whether carrying the zone
 * instants (more due entries, more steps) costs the completion burst, not whether two bursts can
 * overlap.
 */
const WARN_AT_S = 10;

interface Arrival {
  at: number;
  id: string;
  timer_id: string;
  event: string;
}

interface StoredTimer {
  state: string;
  completed_at: number | null;
  changed_at?: number;
  started_at: number | null;
}

async function count(rx: Proc, event: string): Promise<number> {
  return (await (await fetch(`${rx.base}/__count?event=${event}`)).json()).n;
}

/** Summary of lateness in seconds. */
function secs(d: Dist) {
  return {
    p50_s: round(d.p50 / 1000),
    p90_s: round(d.p90 / 1000),
    p99_s: round(d.p99 / 1000),
    max_s: round(d.max / 1000),
    min_s: round(d.min / 1000),
  };
}

interface Run {
  n: number;
  completed_state: number;
  completed_at_exact: number;
  webhooks_arrived: number;
  webhook_duplicates: number;
  state: ReturnType<typeof secs>;
  webhook: ReturnType<typeof secs>;
  setup: Record<string, unknown>;
  lead_ms: number;
  completions_per_s: number | null;
  deliveries_per_s: number | null;
  profile?: Record<string, unknown>;
  burst_server_thread_cpu_pct: Record<string, number>;
  burst_cpu_ms: {
    server_per_timer: number;
    server_per_timer_by_thread: Record<string, number>;
    receiver_per_timer: number;
  };
  /** With `warnAt`: the `timer.warning` webhooks, late against the warning instant. */
  warnings?: { arrived: number; duplicates: number } & ReturnType<typeof secs>;
}

/** First arrival per timer of `event` (among `mine`), and how many arrivals repeated an id. */
function firstArrivals(arrivals: Arrival[], event: string, mine: Set<string>) {
  const first = new Map<string, number>();
  const seenIds = new Set<string>();
  const times: number[] = [];
  let dups = 0;
  for (const a of arrivals) {
    if (a.event !== event || !mine.has(a.timer_id)) continue;
    if (seenIds.has(a.id)) {
      dups++;
      continue;
    }
    seenIds.add(a.id);
    times.push(a.at);
    if (!first.has(a.timer_id)) first.set(a.timer_id, a.at);
  }
  return { first, dups, times };
}

/** `warnAt`: every timer also carries `warn_at` (seconds), crossed after the setup ended. */
async function runPrecision(n: number, mode: Mode, warnAt?: number): Promise<Run> {
  const kv = await tempKv(`prec-${n}`);
  // One account per setup worker: creations of one account contend on its sequence key, and
  // many users' timers ending at one instant is the case that matters here.
  const accounts = await seedAccounts(kv.path, SETUP_CONCURRENCY);
  const rx = await spawn("receiver", "bench/receiver.ts", { DELAY_MS: "0" });
  const profName = `precision${n}-${Date.now()}`;
  if (mode.profilePrecision) await Deno.mkdir(mode.profileDir, { recursive: true });
  const app = mode.profilePrecision
    ? await spawn("app", "main.ts", serverEnv(kv.path), {
      denoArgs: ["--cpu-prof", `--cpu-prof-dir=${mode.profileDir}`, `--cpu-prof-name=${profName}.cpuprofile`],
    })
    : await startServer("app", kv.path);
  let profile: Record<string, unknown> | undefined;
  const apis = accounts.map((a) => new Api(app.base, a.apiKey));
  const hook = `${rx.base}/hook`;
  try {
    // Calibrate: how long one create + start takes at this concurrency (with its webhook).
    const calib = Math.max(100, Math.min(500, Math.floor(n / 20)));
    const far = new Date(Date.now() + 3600_000).toISOString();
    const c0 = performance.now();
    await parallel(Array.from({ length: calib }), SETUP_CONCURRENCY, async (_, i) => {
      const api = apis[i % apis.length];
      const t = await api.create({ type: "event", target_date: far, webhook_url: hook });
      await api.act(t.timer_id as string, "start");
    });
    const perTimerMs = (performance.now() - c0) / calib;
    // Setup slows down as started webhooks pile up and neighbours come and go: leave room.
    const estimateMs = perTimerMs * n * SAFETY;
    const lead = MARGIN_MS + (warnAt ?? 0) * 1000;
    const deadline = Math.ceil((Date.now() + estimateMs + lead) / 1000) * 1000;
    const target = new Date(deadline).toISOString();
    log(
      `precision N=${n}: ~${perTimerMs.toFixed(2)} ms per create+start; deadline in ${
        ((deadline - Date.now()) / 1000).toFixed(1)
      } s`,
    );

    // Setup: create and start every timer (pipelined per worker).
    const ids: string[] = new Array(n);
    /** Started after the deadline (answered completed at once): not a scheduler figure. */
    const lateStart = new Set<string>();
    let errors = 0, notRunning = 0;
    const errorSamples: string[] = [];
    const fail = (e: string) => {
      errors++;
      if (errorSamples.length < 5) errorSamples.push(e.slice(0, 200));
    };
    const s0 = Date.now();
    await parallel(Array.from({ length: n }), SETUP_CONCURRENCY, async (_, i) => {
      const api = apis[i % apis.length];
      try {
        const t = await api.create({
          type: "event",
          target_date: target,
          webhook_url: hook,
          title: `p${i}`,
          ...(warnAt ? { warn_at: warnAt } : {}),
        });
        ids[i] = t.timer_id as string;
        const r = await api.act(ids[i], "start");
        if (r.status !== 200) fail(`start: HTTP ${r.status} ${JSON.stringify(r.json).slice(0, 150)}`);
        else if (r.json.state !== "running") {
          notRunning++;
          lateStart.add(ids[i]);
        }
      } catch (e) {
        fail(String(e));
      }
    });
    const setupEnd = Date.now();
    const startedBeforeDeadline = await count(rx, "timer.started");
    if (setupEnd > deadline) log(`precision N=${n}: setup overran the deadline by ${setupEnd - deadline} ms`);

    // Wait for the deadline, then for every completion (bounded).
    await sleep(Math.max(0, deadline - Date.now()));
    const cpuAtDeadline = threadCpuMs(app.pid);
    const appCpuAtDeadline = cpuMs(app.pid);
    const rxCpuAtDeadline = cpuMs(rx.pid);
    const startedAtDeadline = await count(rx, "timer.started");
    while (Date.now() < deadline + WAIT_MS) {
      if (await count(rx, "timer.completed") >= n) break;
      await sleep(100);
    }
    const waited = Date.now() - deadline;
    const cpuAfter = threadCpuMs(app.pid);
    const appCpuAfter = cpuMs(app.pid);
    const burstCpu = threadShare(cpuAtDeadline, cpuAfter, Date.now() - deadline);
    // CPU the burst cost, all threads, per timer: the server's (by thread) and the receiver's.
    const perTimer = (ms: number) => round(ms / n, 3); // /proc counts 10-ms ticks
    const byThread = Object.fromEntries(
      Object.entries(cpuAfter).map(([k, v]) => [k, perTimer(v - (cpuAtDeadline[k] ?? 0))] as const).filter(([, v]) =>
        v > 0
      ),
    );
    const burstCpuMs = {
      server_per_timer: perTimer(appCpuAfter - appCpuAtDeadline),
      server_per_timer_by_thread: byThread,
      receiver_per_timer: perTimer(cpuMs(rx.pid) - rxCpuAtDeadline),
    };
    await sleep(1000); // late duplicates
    const arrivals: Arrival[] = await (await fetch(`${rx.base}/__dump`)).json();
    for (const a of apis) a.close();
    await app.stop();
    const exitAt = Date.now();
    if (mode.profilePrecision) {
      // The main thread during the burst: from the deadline until everything had arrived.
      const p = await readProfile(mode.profileDir, profName);
      if (p) {
        const burst = summariseWithBusy(p.profile, 15, {
          fromMsBeforeEnd: exitAt - deadline,
          toMsBeforeEnd: exitAt - (deadline + waited),
        });
        profile = { file: p.file, window_s: round(waited / 1000, 1), ...burst };
      }
    }

    // The KV file, as the server left it.
    const db = await Deno.openKv(kv.path);
    const valid = ids.filter((id) => id && !lateStart.has(id));
    const stored = await getManyValues<StoredTimer>(db, valid.map((id) => ["timer", id]));
    db.close();
    const stateLate: number[] = [];
    let exact = 0;
    const changedAts: number[] = [];
    for (const t of stored) {
      if (t?.state !== "completed" || t.changed_at === undefined) continue;
      stateLate.push(t.changed_at - deadline);
      changedAts.push(t.changed_at);
      if (t.completed_at === deadline) exact++;
    }
    const mine = new Set(valid);
    const { first, dups, times: arrivalTimes } = firstArrivals(arrivals, "timer.completed", mine);
    const hookLate = [...first.values()].map((at) => at - deadline);
    let warnings: Run["warnings"];
    if (warnAt) {
      const w = firstArrivals(arrivals, "timer.warning", mine);
      const at = deadline - warnAt * 1000;
      warnings = { arrived: w.first.size, duplicates: w.dups, ...secs(dist([...w.first.values()].map((t) => t - at))) };
    }
    const span = (xs: number[]) => xs.length > 1 ? (Math.max(...xs) - Math.min(...xs)) / 1000 : null;
    const cSpan = span(changedAts), dSpan = span(arrivalTimes);
    return {
      n,
      completed_state: stateLate.length,
      completed_at_exact: exact,
      webhooks_arrived: first.size,
      webhook_duplicates: dups,
      state: secs(dist(stateLate)),
      webhook: secs(dist(hookLate)),
      lead_ms: deadline - setupEnd,
      completions_per_s: cSpan ? round(changedAts.length / Math.max(cSpan, 0.001), 0) : null,
      deliveries_per_s: dSpan ? round(arrivalTimes.length / Math.max(dSpan, 0.001), 0) : null,
      profile,
      warnings,
      burst_server_thread_cpu_pct: burstCpu,
      burst_cpu_ms: burstCpuMs,
      setup: {
        calibration_ms_per_timer: round(perTimerMs, 2),
        setup_s: round((setupEnd - s0) / 1000, 1),
        setup_errors: errors,
        setup_error_samples: errorSamples,
        server_stderr_tail: app.stderrTail().slice(-600),
        started_not_running: notRunning,
        setup_overran_deadline_ms: Math.max(0, setupEnd - deadline),
        started_webhooks_at_setup_end: startedBeforeDeadline,
        started_webhooks_at_deadline: startedAtDeadline,
        waited_after_deadline_s: round(waited / 1000, 1),
      },
    };
  } finally {
    for (const a of apis) a.close();
    await app.stop();
    await rx.stop();
    await kv.cleanup();
  }
}

/** Bare kv.enqueue messages due at one deadline `leadMs` ahead (after enqueueing). */
async function runQueueReference(n: number, leadMs: number) {
  const kv = await tempKv(`queue-${n}`);
  // Enqueueing takes a while; give it the same lead the timers had once set up.
  const enqueueEstimate = n * 0.6;
  const deadline = Math.ceil((Date.now() + enqueueEstimate + leadMs) / 1000) * 1000;
  const proc = await spawn("queue-ref", "bench/floor_queue.ts", {
    KV_PATH: kv.path,
    N: String(n),
    DEADLINE: String(deadline),
    WAIT_MS: String(WAIT_MS),
  }, { listen: false });
  try {
    const line = await proc.waitLine(/"msg":"queue_result"/, leadMs + enqueueEstimate + WAIT_MS + 60_000);
    const r = JSON.parse(line) as {
      received: number;
      duplicates: number;
      enqueue_ms: number;
      lead_ms: number;
      enqueued_after_deadline: number;
      lateness: number[];
    };
    return {
      n,
      received: r.received,
      duplicates: r.duplicates,
      enqueue_ms: r.enqueue_ms,
      enqueued_after_deadline: r.enqueued_after_deadline,
      lead_ms: r.lead_ms,
      ...secs(dist(r.lateness)),
    };
  } finally {
    await proc.stop();
    await kv.cleanup();
  }
}

export async function precision(mode: Mode): Promise<Result[]> {
  const sizes = mode.precisionSizes ?? (mode.quick ? [1000] : [1000, 10_000]);
  const results: Result[] = [];
  let last: Run | undefined;
  for (const n of sizes) {
    log(`precision: N=${n} event timers`);
    const r = last = await runPrecision(n, mode);
    log(`precision: N=${n} bare kv.enqueue reference`);
    const ref = await runQueueReference(n, MARGIN_MS);
    // Targets: at 10 000 state p99 ≤ 1 s, webhook p99 ≤ 2 s and max ≤ 3 s; at 1 000 both p99 ≤ 250 ms.
    const big = n >= 10_000;
    const stateMax = big ? 1 : 0.25, hookMax = big ? 2 : 0.25;
    const common = { n, setup: r.setup, lead_before_deadline_ms: r.lead_ms };
    const setupOk = r.setup.setup_errors === 0 && r.setup.started_not_running === 0;
    const noteSetup = setupOk ? undefined : `setup problem: ${JSON.stringify(r.setup)}`;
    const floor = await senderFloor(mode.quick).catch(() => null);
    const ratio = floor && r.deliveries_per_s ? round(r.deliveries_per_s / floor.best, 3) : null;
    const both = big ? await sendRecordFloor(mode.quick).catch(() => null) : null;
    const bounded = both?.per_s_bounded ?? null;
    // The most this machine's cores allow at the CPU this burst cost per timer (server and
    // receiver, from the deadline to the last arrival), as a ratio to the floor.
    const cores = navigator.hardwareConcurrency;
    const perTimerMs = r.burst_cpu_ms.server_per_timer + r.burst_cpu_ms.receiver_per_timer;
    const ceiling = floor && perTimerMs > 0 ? round((cores * 1000) / perTimerMs / floor.best, 3) : null;
    results.push(
      {
        name: `precision_completed_n${n}`,
        value: r.completed_state,
        unit: "timers",
        target: `= ${n}, each webhook exactly once`,
        met: r.completed_state === n && setupOk && r.webhooks_arrived === n && r.webhook_duplicates === 0,
        completed_at_equals_deadline: r.completed_at_exact,
        webhooks_arrived: r.webhooks_arrived,
        webhook_duplicates: r.webhook_duplicates,
        ...common,
        note: noteSetup,
      },
      {
        name: `precision_state_p99_n${n}`,
        value: r.state.p99_s,
        unit: "s late",
        target: `≤ ${stateMax} s`,
        met: r.state.p99_s <= stateMax && r.completed_state === n,
        ...r.state,
        completions_per_s: r.completions_per_s,
        burst_server_thread_cpu_pct: r.burst_server_thread_cpu_pct,
        ...(r.profile ? { burst_profile: r.profile } : {}),
        ...common,
      },
      {
        name: `precision_webhook_p99_n${n}`,
        value: r.webhook.p99_s,
        unit: "s late",
        target: big ? `≤ ${hookMax} s, max ≤ 3 s` : `≤ ${hookMax} s`,
        met: r.webhook.p99_s <= hookMax && (!big || r.webhook.max_s <= 3) && r.webhooks_arrived === n,
        ...r.webhook,
        arrived: r.webhooks_arrived,
        duplicates: r.webhook_duplicates,
        deliveries_per_s: r.deliveries_per_s,
        ...common,
      },
      {
        name: `precision_deliveries_vs_sender_floor_n${n}`,
        value: ratio,
        unit: "ratio",
        target: "report",
        met: null,
        deliveries_per_s: r.deliveries_per_s,
        sender_floor_per_s: floor?.best ?? null,
        sender_floor_per_concurrency: floor?.per_s ?? null,
        burst_cpu_ms: r.burst_cpu_ms,
        sender_floor_cpu_ms_per_post: floor?.cpu_ms_per_post ?? null,
        sender_floor_receiver_cpu_ms_per_post: floor?.receiver_cpu_ms_per_post ?? null,
        cpu_ceiling_ratio: ceiling,
        send_record_floor_per_s: both?.per_s ?? null,
      },
      ...(big
        ? [{
          name: `precision_deliveries_vs_send_record_floor_n${n}`,
          // DECISIONS.md ("Benchmarks: which floor"): the floor held to the service's bound on a crash's duplicates.
          value: bounded && r.deliveries_per_s ? round(r.deliveries_per_s / bounded, 3) : null,
          unit: "ratio",
          target: "≥ 0.8 of the bounded floor",
          met: bounded !== null && r.deliveries_per_s !== null && r.deliveries_per_s / bounded >= 0.8,
          deliveries_per_s: r.deliveries_per_s,
          send_record_floor: both,
          note: both
            ? `recording each completion and outcome, bare, with at most ${both.bound} POSTed and unrecorded, this machine delivers ${
              both.per_s_bounded ?? "?"
            }/s (${both.per_s}/s unbounded): ${floor ? round(both.per_s / floor.best, 3) : "?"} of the sender floor`
            : undefined,
        }]
        : []),
      {
        name: `precision_kv_queue_ref_p99_n${n}`,
        value: ref.p99_s,
        unit: "s late",
        target: "report",
        met: null,
        ...ref,
      },
    );
    const rows = results.slice(big ? -6 : -5);
    const [, st, wh, , sr] = rows;
    if (big && sr.met === false && floor && ceiling !== null) {
      const c = r.burst_cpu_ms;
      sr.note =
        `the burst cost ${c.server_per_timer} ms of server CPU per timer (${
          Object.entries(c.server_per_timer_by_thread).map(([k, v]) => `${k} ${v}`).join(", ")
        }) and ${c.receiver_per_timer} ms of the receiver's; the bare sender ${floor.cpu_ms_per_post} ms per POST and ` +
        `its receiver ${floor.receiver_cpu_ms_per_post} ms. At that cost ${cores} cores finish at most ${
          Math.round((cores * 1000) / perTimerMs)
        } timers/s: a ceiling of ${ceiling} of the floor at this CPU per timer`;
    }
    if (st.met === false) {
      st.note = `state p50/p99/max ${r.state.p50_s}/${r.state.p99_s}/${r.state.max_s} s; the store committed ${
        r.completions_per_s ?? "?"
      } completions/s (N / (last − first changed_at)); bare kv.enqueue p99 ${ref.p99_s} s`;
    }
    if (wh.met === false) {
      wh.note =
        `webhook p50/p99/max ${r.webhook.p50_s}/${r.webhook.p99_s}/${r.webhook.max_s} s, ${r.webhooks_arrived}/${n} arrived; ${
          r.deliveries_per_s ?? "?"
        } deliveries/s first-to-last`;
    }
  }
  if (last) results.push(...await zoneRows(last, mode));
  return results;
}

/**
 * The same burst again with every timer carrying `warn_at`: the completion lateness against the
 * run without zones (the last size above, same run), and the warnings' own lateness.
 */
async function zoneRows(plain: Run, mode: Mode): Promise<Result[]> {
  const n = plain.n;
  log(`precision: N=${n} event timers with warn_at=${WARN_AT_S}`);
  const z = await runPrecision(n, mode, WARN_AT_S);
  const w = z.warnings!;
  const ratio = plain.webhook.p99_s > 0 ? round(z.webhook.p99_s / plain.webhook.p99_s, 3) : null;
  const big = n >= 10_000;
  return [
    {
      name: `precision_zones_webhook_p99_vs_plain_n${n}`,
      value: ratio,
      unit: "ratio",
      target: big ? "≤ 1.10" : "report",
      met: big ? ratio !== null && ratio <= 1.1 && z.webhooks_arrived === n : null,
      with_warn_at: z.webhook,
      without: plain.webhook,
      state_with_warn_at: z.state,
      state_without: plain.state,
      webhooks_arrived: z.webhooks_arrived,
      webhook_duplicates: z.webhook_duplicates,
      deliveries_per_s: z.deliveries_per_s,
      warn_at_s: WARN_AT_S,
      setup: z.setup,
    },
    {
      name: `precision_zones_warning_p99_n${n}`,
      value: w.p99_s,
      unit: "s late",
      target: `= ${n} warnings, each once, p99 ≤ ${big ? 2 : 0.25} s`,
      met: w.arrived === n && w.duplicates === 0 && w.p99_s <= (big ? 2 : 0.25),
      ...w,
    },
  ];
}
