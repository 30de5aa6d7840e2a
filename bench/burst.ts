/**
 * Seeded bursts: N event timers, all due at one instant, each with a webhook to a receiver in its
 * own process, written straight into a KV file with the project's Store (100 changes per commit)
 * before the server starts — so the burst, not the API, is what is measured. Used by the restart
 * section (SIGKILL mid-burst) and for profiling the burst (`deno run -A bench/burst.ts N`).
 */
import type { StoreOptions } from "../lib/kv/due.ts";
import { Store, type TimerChange } from "../lib/kv/store.ts";
import { newTimerId } from "../lib/ids.ts";
import { planTimerChange } from "../lib/timers/changes.ts";
import { newTimer } from "../lib/timers/model.ts";
import { log, type Proc, seedAccounts } from "./harness.ts";

export interface Arrival {
  at: number;
  id: string;
  timer_id: string;
  event: string;
}

/**
 * Seeds `n` idle event timers due at `deadline` (an event counts whether or not it was started).
 * `opts.store` for a KV without queues (KV Connect: `{ useQueue: false, limits }`); `opts.chained`:
 * each with an earlier delivery already sent, which its completion comes after (a server
 * restarted since has to read it once before sending: the order gate's worst case).
 */
export async function seedBurst(
  path: string,
  n: number,
  deadline: number,
  hook: string,
  opts: { accounts?: number; store?: StoreOptions; chained?: boolean } = {},
): Promise<string[]> {
  const accounts = await seedAccounts(path, opts.accounts ?? 32);
  const kv = await Deno.openKv(path);
  const store = new Store(kv, opts.store ?? { useQueue: true });
  const ids: string[] = [];
  try {
    for (let base = 0; base < n; base += 100) {
      const now = Date.now();
      const changes = [];
      for (let i = base; i < Math.min(n, base + 100); i++) {
        const t = newTimer({
          id: newTimerId(),
          account_id: accounts[i % accounts.length].accountId,
          type: "event",
          title: `burst ${i}`,
          duration: Math.ceil((deadline - now) / 1000),
          target_date: new Date(deadline).toISOString(),
          webhook_url: hook,
          control_token_hash: "0".repeat(64),
          created_at: now,
          expires_at: deadline + 7 * 86400_000,
        });
        ids.push(t.id);
        const earlier = opts.chained ? [{ type: "timer.started" as const, at: now, data: {} }] : [];
        const change = planTimerChange(null, null, t, earlier, { now, claimUntil: null });
        changes.push(opts.chained ? sentAlready(change, now) : change);
      }
      await store.timers.commitTimers(changes);
    }
  } finally {
    kv.close();
  }
  return ids;
}

/** The change with its deliveries already sent and succeeded (no due entries left for them). */
function sentAlready(c: TimerChange, now: number): TimerChange {
  const attempt = { n: 1, at: new Date(now).toISOString(), duration_ms: 1, status: 200, error: null };
  return {
    ...c,
    deliveries: c.deliveries.map((d) => ({ ...d, state: "succeeded", next_attempt_at: null, attempts: [attempt] })),
    dueSet: c.dueSet.filter((w) => w.item.kind !== "delivery"),
  };
}

export async function arrivals(rx: Proc): Promise<Arrival[]> {
  return await (await fetch(`${rx.base}/__dump`)).json();
}

export async function count(rx: Proc, event: string): Promise<number> {
  return (await (await fetch(`${rx.base}/__count?event=${event}`)).json()).n;
}

/** First arrival per timer, duplicates (same id again), and lateness against the deadline. */
export function tally(all: Arrival[], ids: string[], deadline: number, event = "timer.completed") {
  const mine = new Set(ids);
  const first = new Map<string, number>();
  const seen = new Set<string>();
  const idsPerTimer = new Map<string, Set<string>>();
  let duplicates = 0;
  const times: number[] = [];
  for (const a of all) {
    if (a.event !== event || !mine.has(a.timer_id)) continue;
    let set = idsPerTimer.get(a.timer_id);
    if (!set) idsPerTimer.set(a.timer_id, set = new Set());
    set.add(a.id);
    if (seen.has(a.id)) {
      duplicates++;
      continue;
    }
    seen.add(a.id);
    times.push(a.at);
    if (!first.has(a.timer_id)) first.set(a.timer_id, a.at);
  }
  const late = [...first.values()].map((at) => at - deadline);
  const span = times.length > 1 ? (Math.max(...times) - Math.min(...times)) / 1000 : null;
  return {
    arrived: first.size,
    lost: ids.length - first.size,
    duplicates,
    /** Distinct event ids that arrived (duplicates are counted against these). */
    distinct_ids: seen.size,
    /** Timers that got more than one distinct event id (must be 0: duplicates share the id). */
    timers_with_several_ids: [...idsPerTimer.values()].filter((s) => s.size > 1).length,
    late,
    last_at: times.length ? Math.max(...times) : null,
    deliveries_per_s: span ? Math.round(times.length / Math.max(span, 0.001)) : null,
  };
}

if (import.meta.main) {
  // Profiling helper: seed, run the server under --cpu-prof, report the burst.
  const { spawn, serverEnv, sleep, tempKv, dist, threadCpuMs } = await import("./harness.ts");
  const n = Number(Deno.args[0] ?? 10_000);
  const kv = await tempKv("burst");
  const rx = await spawn("receiver", "bench/receiver.ts", { DELAY_MS: "0" });
  const deadline = Math.ceil((Date.now() + 15000 + n * 0.5) / 1000) * 1000;
  const ids = await seedBurst(kv.path, n, deadline, `${rx.base}/hook`, { chained: Deno.args.includes("--chained") });
  log(`seeded ${n}; deadline in ${deadline - Date.now()} ms`);
  const dir = `${new URL(".", import.meta.url).pathname}profiles`;
  await Deno.mkdir(dir, { recursive: true });
  const app = await spawn(
    "app",
    "main.ts",
    serverEnv(kv.path, {
      ...(Deno.args.includes("--sweep") && { SCHEDULER: "sweep" }),
      ...(Deno.env.get("WC") && { WEBHOOK_CONCURRENCY: Deno.env.get("WC")! }),
    }),
    {
      v8Flags: Deno.env.get("V8FLAGS")?.split(",").filter(Boolean),
      denoArgs: Deno.args.includes("--prof")
        ? ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-name=burst.cpuprofile"]
        : [],
    },
  );
  log(
    `armed: ${await app.waitLine(/"msg":"scheduler armed"/, 60_000)} ${deadline - Date.now()} ms before the deadline`,
  );
  await sleep(Math.max(0, deadline - Date.now() - 200));
  const cpu0 = threadCpuMs(app.pid);
  // user nice system idle iowait irq softirq steal (guest time is already in user and nice)
  const stat = () => Deno.readTextFileSync("/proc/stat").split("\n")[0].split(/\s+/).slice(1, 9).map(Number);
  const machine0 = stat();
  const rx0 = threadCpuMs(rx.pid);
  while (Date.now() < deadline + 30_000 && await count(rx, "timer.completed") < n) await sleep(200);
  const cpu1 = threadCpuMs(app.pid);
  const machine1 = stat().map((v, i) => v - machine0[i]);
  const rxCpu = Object.values(threadCpuMs(rx.pid)).reduce((a, b) => a + b, 0) -
    Object.values(rx0).reduce((a, b) => a + b, 0);
  // The share of all cores busy over the wait.
  const machineBusyPct = Math.round(100 * (1 - (machine1[3] + machine1[4]) / machine1.reduce((a, b) => a + b, 0)));
  const cpu = Object.fromEntries(Object.entries(cpu1).map(([k, v]) => [k, v - (cpu0[k] ?? 0)]));
  const t = tally(await arrivals(rx), ids, deadline);
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  const per100 = new Array(Math.ceil(Math.max(1, ...t.late) / 100) + 1).fill(0);
  for (const ms of t.late) per100[Math.max(0, Math.floor(ms / 100))]++;
  log(
    JSON.stringify({
      ...t,
      late: dist(t.late),
      first_arrivals_per_100ms: per100,
      cpu_ms: cpu,
      cpu_ms_per_timer: total / n,
      receiver_cpu_ms: rxCpu,
      machine_busy_pct: machineBusyPct,
      load: Deno.loadavg(),
    }),
  );
  await app.stop();
  const stoppedAt = Date.now();
  if (Deno.args.includes("--prof")) {
    const { readProfile, summariseWithBusy } = await import("./profile.ts");
    const p = await readProfile(dir, "burst");
    if (p && t.last_at) {
      const w = { fromMsBeforeEnd: stoppedAt - deadline, toMsBeforeEnd: stoppedAt - t.last_at };
      log(JSON.stringify({ window: w, ...summariseWithBusy(p.profile, 20, w) }));
    }
  }
  await rx.stop();
  await kv.cleanup();
}
