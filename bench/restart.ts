/**
 * 5. SIGKILL in the middle of a burst: N event timers (10 000; quick 2 000) due at one instant,
 * seeded into a KV file, each with a webhook to a receiver in its own process. Once half of the
 * completions arrived the server is killed with SIGKILL and a new one started at once on the same
 * file. Nothing may be lost; a delivery sent again carries the same event id; duplicates (POSTs of an
 * id already received) stay ≤ 0.5 % of the distinct ids delivered (issue 27); all done soon after.
 */
import { dist, log, round, serverEnv, sleep, spawn, tempKv } from "./harness.ts";
import { arrivals, count, seedBurst, tally } from "./burst.ts";
import type { Mode, Result } from "./result.ts";

export async function restart(mode: Mode): Promise<Result[]> {
  const n = mode.quick ? 2000 : 10_000;
  const kv = await tempKv("restart");
  const rx = await spawn("receiver-restart", "bench/receiver.ts", { DELAY_MS: "0" });
  const procs = [];
  try {
    const deadline = Math.ceil((Date.now() + 6000 + n * 0.5) / 1000) * 1000;
    const ids = await seedBurst(kv.path, n, deadline, `${rx.base}/hook`);
    log(`restart: ${n} timers due in ${deadline - Date.now()} ms; SIGKILL once half have arrived`);
    const first = await spawn("app-restart-1", "main.ts", serverEnv(kv.path));
    procs.push(first);
    let before = 0;
    while (Date.now() < deadline + 60_000 && (before = await count(rx, "timer.completed")) < n / 2) await sleep(5);
    first.child.kill("SIGKILL");
    const killedAt = Date.now();
    await first.exited;
    const second = await spawn("app-restart-2", "main.ts", serverEnv(kv.path));
    procs.push(second);
    const restartedAt = Date.now();
    while (Date.now() < restartedAt + 60_000 && await count(rx, "timer.completed") < n) await sleep(100);
    await sleep(2000); // late duplicates
    const t = tally(await arrivals(rx), ids, deadline);
    const doneAfterRestart = t.last_at === null ? null : round((t.last_at - restartedAt) / 1000, 2);
    // Duplicates as a share of the distinct event ids delivered: every POST beyond the first of an id.
    const dupRatio = t.distinct_ids ? t.duplicates / t.distinct_ids : 0;
    const dupShare = round(100 * dupRatio, 3);
    const ok = t.lost === 0 && t.timers_with_several_ids === 0 && dupShare <= 0.5 && doneAfterRestart !== null &&
      doneAfterRestart <= 15;
    return [{
      name: `restart_sigkill_mid_burst_n${n}`,
      value: doneAfterRestart,
      unit: "s after restart",
      target: "all done ≤ 15 s; 0 lost; duplicates ≤ 0.5 % of distinct ids, same event id",
      met: ok,
      lost: t.lost,
      duplicates: t.duplicates,
      distinct_ids: t.distinct_ids,
      duplicates_ratio: round(dupRatio, 5),
      duplicates_pct: dupShare,
      timers_with_several_event_ids: t.timers_with_several_ids,
      arrived_before_kill: before,
      killed_after_deadline_ms: killedAt - deadline,
      restart_after_kill_ms: restartedAt - killedAt,
      lateness_s: dist(t.late.map((x) => x / 1000)),
      note: ok
        ? undefined
        : `${t.lost} lost, ${t.duplicates} duplicates (${dupShare} % of ${t.distinct_ids} distinct ids), ${t.timers_with_several_ids} timers with several ids, done ${doneAfterRestart} s after the restart`,
    }];
  } finally {
    for (const p of procs) await p.stop();
    await rx.stop();
    await kv.cleanup();
  }
}
