/**
 * `deno task bench [--quick] [--only=a,b]` — what users pay for, measured against references
 * taken in the same run. Prints a table and writes bench/results.json.
 *
 * Sections: throughput, floors, precision, restart, webhooks, scale, widget, live, rundowns, kvconnect (see
 * bench/README.md).
 */
import { BENCH_DIR, extraServerEnv, killAll, log, machine, round } from "./harness.ts";
import { floors } from "./floors.ts";
import { kvconnect } from "./kvconnect.ts";
import { live } from "./live.ts";
import { precision } from "./precision.ts";
import { restart } from "./restart.ts";
import { rundowns } from "./rundowns.ts";
import type { Mode, Result } from "./result.ts";
import { scale } from "./scale.ts";
import { throughput } from "./throughput.ts";
import { webhooks } from "./webhooks.ts";
import { widget } from "./widget.ts";

const SECTIONS: Record<string, (mode: Mode) => Promise<Result[]>> = {
  throughput,
  floors,
  precision,
  restart,
  webhooks,
  scale,
  widget,
  live,
  rundowns,
  kvconnect,
};

function parseArgs(args: string[]) {
  let quick = false;
  let only: string[] | null = null;
  let out = `${BENCH_DIR}results.json`;
  let precisionSizes: number[] | undefined;
  let profilePrecision = false;
  for (const a of args) {
    if (a === "--quick") quick = true;
    else if (a.startsWith("--only=")) only = a.slice(7).split(",").filter(Boolean);
    else if (a.startsWith("--out=")) out = a.slice(6);
    else if (a.startsWith("--precision-sizes=")) precisionSizes = a.slice(18).split(",").map(Number);
    else if (a === "--profile-precision") profilePrecision = true;
    else if (a.startsWith("--server-env=")) {
      const [k, ...v] = a.slice(13).split("=");
      extraServerEnv[k] = v.join("=");
    } else if (a === "--help" || a === "-h") {
      // deno-lint-ignore no-console
      console.log(
        `usage: deno task bench [--quick] [--only=${
          Object.keys(SECTIONS).join(",")
        }] [--out=file] [--precision-sizes=1000,10000] [--profile-precision] [--server-env=NAME=value]`,
      );
      Deno.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  for (const s of only ?? []) if (!(s in SECTIONS)) throw new Error(`unknown section ${s}`);
  return { quick, only, out, precisionSizes, profilePrecision };
}

function fmt(v: unknown): string {
  if (v === null || v === undefined) return "–";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(round(v, 3));
  return String(v);
}

export function table(results: Result[]): string {
  const rows = [
    ["name", "value", "unit", "target", "met"],
    ...results.map((r) => [
      r.name,
      fmt(r.value),
      r.unit,
      r.target,
      r.met === null ? "(ref)" : r.met ? "yes" : "NO",
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  const line = (r: string[]) => r.map((c, i) => c + " ".repeat(widths[i] - [...c].length)).join("  ");
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

if (import.meta.main) {
  const { quick, only, out, precisionSizes, profilePrecision } = parseArgs(Deno.args);
  const mode: Mode = { quick, profileDir: `${BENCH_DIR}profiles`, precisionSizes, profilePrecision };
  // Profiles of earlier runs would be mistaken for this one's.
  try {
    for (const e of Deno.readDirSync(mode.profileDir)) {
      if (e.name.endsWith(".cpuprofile")) Deno.removeSync(`${mode.profileDir}/${e.name}`);
    }
  } catch { /* no folder yet */ }
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(sig, () => {
      log(`${sig}: stopping the servers this run started`);
      killAll();
      Deno.exit(130);
    });
  }
  const started = performance.now();
  const host = machine();
  log(`${quick ? "quick" : "full"} run on ${host.cpus} CPU(s), ${host.cpu_model}, load ${host.loadavg_at_start}`);
  const results: Result[] = [];
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (only && !only.includes(name)) continue;
    const t0 = performance.now();
    try {
      results.push(...await run(mode));
    } catch (e) {
      log(`${name} failed: ${(e as Error).stack ?? e}`);
      results.push({
        name: `${name}_section`,
        value: null,
        unit: "",
        target: "runs",
        met: false,
        note: `section failed: ${String(e).slice(0, 500)}`,
      });
    }
    log(`${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const elapsed = round((performance.now() - started) / 1000, 1);
  await Deno.writeTextFile(out, JSON.stringify(results, null, 2) + "\n");
  // deno-lint-ignore no-console
  const print = console.log;
  print(`\nTimer service benchmark (${quick ? "--quick" : "full"}), ${elapsed} s`);
  const loadEnd = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  print(
    `machine: ${host.cpus} CPU(s), ${host.cpu_model}, ${host.mem_gib} GiB, Deno ${host.deno}; load average ${host.loadavg_at_start} at start, ${loadEnd} at end`,
  );
  if (Object.keys(extraServerEnv).length) print(`server environment overrides: ${JSON.stringify(extraServerEnv)}`);
  print("");
  print(table(results));
  const notes = results.filter((r) => r.note || r.hotspots);
  if (notes.length) print("\nWhat holds back missed targets / notes:");
  for (const r of notes) {
    print(`- ${r.name}${r.note ? `: ${r.note}` : ""}`);
    const hot = r.hotspots as { fn: string; where: string; self_pct: number }[] | undefined;
    if (hot?.length) {
      print(`  server CPU profile (${r.profile}), top self time, % of the main thread's busy time:`);
      for (const h of hot) print(`    ${String(h.self_pct).padStart(5)}%  ${h.fn}  ${h.where}`);
    }
  }
  print(`\nwrote ${out.replace(BENCH_DIR, "bench/")}`);
  Deno.exit(0);
}
