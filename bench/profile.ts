/**
 * CPU profiles of the server under test (`deno run --cpu-prof`), summarised as the functions
 * with the most self time — printed where a throughput target is missed.
 */
import { BENCH_DIR, load, type Req, ROOT, round, seedAccount, serverEnv, sleep, spawn, tempKv } from "./harness.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Hotspot {
  fn: string;
  where: string;
  self_pct: number;
}

/**
 * Self time per function (by name and location), largest first, as a share of the main
 * thread's busy time ("(idle)" — waiting for I/O, KV or the network — is left out).
 * `window` keeps only samples taken from `fromMs` to `toMs` before the profile's end.
 */
export function summarise(
  profile: CpuProfile,
  top = 12,
  window?: { fromMsBeforeEnd: number; toMsBeforeEnd: number },
): Hotspot[] {
  return summariseWithBusy(profile, top, window).hotspots;
}

export function summariseWithBusy(
  profile: CpuProfile,
  top = 12,
  window?: { fromMsBeforeEnd: number; toMsBeforeEnd: number },
): { hotspots: Hotspot[]; busy_pct: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0, idle = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (window) {
      const beforeEnd = (profile.endTime - t) / 1000;
      if (beforeEnd > window.fromMsBeforeEnd || beforeEnd < window.toMsBeforeEnd) continue;
    }
    if (!node) continue;
    const f = node.callFrame;
    const url = f.url.replace(`file://${ROOT}`, "").replace(
      /^.*\/node_modules\/|^.*\/npm\/registry\.npmjs\.org\//,
      "npm:",
    );
    if (f.functionName === "(idle)") {
      idle += dt;
      continue;
    }
    const key = `${f.functionName || "(anonymous)"}\t${url ? `${url}:${f.lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  }
  const hotspots = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => {
      const [fn, where] = k.split("\t");
      return { fn, where, self_pct: round((100 * v) / Math.max(1, total), 1) };
    });
  return { hotspots, busy_pct: round((100 * total) / Math.max(1, total + idle), 1) };
}

/** The newest `.cpuprofile` in `dir` whose name starts with `prefix`. */
export async function readProfile(dir: string, prefix: string): Promise<{ file: string; profile: CpuProfile } | null> {
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
    n.startsWith(prefix) && n.endsWith(".cpuprofile")
  ).sort();
  if (!names.length) return null;
  const file = `${dir}/${names.at(-1)}`;
  return { file: file.replace(BENCH_DIR, "bench/"), profile: JSON.parse(await Deno.readTextFile(file)) };
}

/**
 * Runs the server under test with --cpu-prof on a fresh KV file, drives `makeRequest` against it
 * for `seconds`, stops it (SIGTERM: the profile is written at exit) and summarises the profile.
 */
export async function profileServer(
  label: string,
  setup: (base: string, apiKey: string) => Promise<(i: number) => Req>,
  o: { seconds: number; concurrency: number; dir: string },
): Promise<{ file: string | null; hotspots: Hotspot[] }> {
  const kv = await tempKv(`prof-${label}`);
  const { apiKey } = await seedAccount(kv.path);
  await Deno.mkdir(o.dir, { recursive: true });
  const before = new Set([...Deno.readDirSync(o.dir)].map((e) => e.name));
  const proc = await spawn(`profile-${label}`, "main.ts", serverEnv(kv.path), {
    denoArgs: ["--cpu-prof", `--cpu-prof-dir=${o.dir}`, `--cpu-prof-name=${label}-${Date.now()}.cpuprofile`],
  });
  try {
    const request = await setup(proc.base, apiKey);
    await load({ concurrency: o.concurrency, durationMs: o.seconds * 1000, request });
  } finally {
    await proc.stop();
    await kv.cleanup();
  }
  await sleep(200);
  const fresh = [...Deno.readDirSync(o.dir)].map((e) => e.name).filter((n) =>
    !before.has(n) && n.startsWith(label) && n.endsWith(".cpuprofile")
  );
  if (fresh.length === 0) return { file: null, hotspots: [] };
  const file = `${o.dir}/${fresh[0]}`;
  const profile = JSON.parse(await Deno.readTextFile(file)) as CpuProfile;
  return { file: file.replace(BENCH_DIR, "bench/"), hotspots: summarise(profile) };
}
