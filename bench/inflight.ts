/**
 * Commits per second by the number kept in flight (`KvLimits.inFlight`), through `commitWrites`:
 * completion-shaped writes (one check, three ~700-byte records), over the test KV Connect server
 * (denokv's storage and limits, `--delay-ms` per call, 20 by default) and on a local KV file.
 *
 *   deno run -A bench/inflight.ts [--delay-ms=20] [--writes=2000]
 */
import { commitWrites, emptyWrite, type KvLimits, LOCAL_KV_LIMITS, REMOTE_KV_LIMITS } from "../lib/kv/batch.ts";
import { startKvConnect } from "../tests/kvconnect/helper.ts";

const arg = (name: string, def: number) =>
  Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? def);

function writes(run: number, n: number) {
  return Array.from({ length: n }, (_, i) => {
    const w = emptyWrite();
    w.checks.push({ key: ["bench", run, i], versionstamp: null });
    for (let s = 0; s < 3; s++) w.sets.push({ key: ["bench", run, i, s], value: { pad: "x".repeat(700) } });
    return w;
  });
}

async function measure(kv: Deno.Kv, limits: KvLimits, label: string, n: number, run: { n: number }) {
  const rows = [];
  for (const inFlight of limits === LOCAL_KV_LIMITS ? [1, 2, 4, 8] : [1, 2, 4, 8, 16, 32, 64]) {
    const batch = writes(run.n++, n);
    const t0 = performance.now();
    const stamps = await commitWrites(kv, batch, { ...limits, inFlight });
    const s = (performance.now() - t0) / 1000;
    const commits = Math.ceil(n / limits.checks);
    if (stamps.some((x) => x === null)) throw new Error("a write failed its check");
    rows.push({
      kv: label,
      in_flight: inFlight,
      commits_per_s: Math.round(commits / s),
      writes_per_s: Math.round(n / s),
    });
  }
  return rows;
}

if (import.meta.main) {
  const delayMs = arg("delay-ms", 20);
  const n = arg("writes", 2000);
  const run = { n: 0 };
  const server = await startKvConnect({ delayMs });
  const remote = await server.open();
  const rows = await measure(remote, REMOTE_KV_LIMITS, `kvconnect +${delayMs} ms`, n, run);
  remote.close();
  await server.stop();
  const dir = await Deno.makeTempDir({ prefix: "inflight-" });
  const local = await Deno.openKv(`${dir}/kv.sqlite3`);
  rows.push(...await measure(local, LOCAL_KV_LIMITS, "local file", n * 5, run));
  local.close();
  await Deno.remove(dir, { recursive: true });
  // deno-lint-ignore no-console
  console.table(rows);
  // deno-lint-ignore no-console
  console.log(`load average: ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
}
