/**
 * `wrk` (an external HTTP load generator, Debian's package) as the bench's load source: it sends
 * several times what a Deno `fetch` client can on the same core, so the server, not the client,
 * is what saturates. Rounds interleave the contenders like harness.ts's `compare`, and each round
 * records the load average, since the machine is shared.
 */
import { type ContenderResult, cpuMs, median, type Proc, type Req, round } from "./harness.ts";

/** The wrk binary, or null when it is not installed. */
export async function findWrk(): Promise<string | null> {
  for (const bin of [Deno.env.get("WRK") ?? "", "/usr/bin/wrk", "/usr/local/bin/wrk", "wrk"]) {
    if (!bin) continue;
    try {
      // `wrk -v` prints its version and exits with status 1; running at all is what counts.
      await new Deno.Command(bin, { args: ["-v"], stdout: "null", stderr: "null" }).output();
      return bin;
    } catch { /* not here */ }
  }
  return null;
}

export interface WrkRun {
  requests: number;
  rps: number;
  /** Answers outside 2xx/3xx plus socket errors. */
  errors: number;
  latency_ms: { p50: number; p99: number };
}

const luaString = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal here

/**
 * A Lua script sending `reqs` in turn (the same method, headers and body each time; paths vary).
 * wrk takes the host from the URL on its command line.
 */
function script(reqs: Req[]): string {
  const first = reqs[0];
  const lines = [
    `wrk.method = ${luaString(first.method ?? "GET")}`,
    ...Object.entries(first.headers ?? {}).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`),
    first.body !== undefined ? `wrk.body = ${luaString(first.body)}` : "",
    `local paths = { ${reqs.map((r) => luaString(new URL(r.url).pathname + new URL(r.url).search)).join(", ")} }`,
    "local i = 0",
    "request = function()",
    "  i = i % #paths + 1",
    "  return wrk.format(nil, paths[i])",
    "end",
    "done = function(summary, latency, requests)",
    '  io.write(string.format("WRK %d %d %d %d %d %d %f %f\\n", summary.requests, summary.duration,',
    "    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write,",
    "    summary.errors.timeout, 0, latency:percentile(50) / 1000, latency:percentile(99) / 1000))",
    "end",
  ];
  return lines.filter(Boolean).join("\n") + "\n";
}

/** One wrk run of `seconds` at `connections` over one thread. */
export async function wrk(
  bin: string,
  reqs: Req[],
  o: { seconds: number; connections: number },
): Promise<WrkRun> {
  const file = await Deno.makeTempFile({ suffix: ".lua" });
  try {
    await Deno.writeTextFile(file, script(reqs));
    const url = new URL(reqs[0].url);
    const out = await new Deno.Command(bin, {
      // wrk takes whole seconds.
      args: [
        "-t1",
        `-c${o.connections}`,
        `-d${Math.max(1, Math.round(o.seconds))}s`,
        "--timeout",
        "5s",
        "-s",
        file,
        url.origin,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const m = /^WRK (\d+) (\d+) (\d+) (\d+) (\d+) \d+ ([\d.]+) ([\d.]+)$/m.exec(text);
    if (!m) throw new Error(`wrk gave no summary: ${text.slice(-400)} ${new TextDecoder().decode(out.stderr)}`);
    const requests = Number(m[1]);
    const micros = Number(m[2]);
    return {
      requests,
      rps: round(requests / (micros / 1e6), 1),
      errors: Number(m[3]) + Number(m[4]) + Number(m[5]),
      latency_ms: { p50: round(Number(m[6])), p99: round(Number(m[7])) },
    };
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

export interface WrkContender {
  name: string;
  proc: Proc;
  /** The requests to cycle through (paths may differ; method, headers and body are the first's). */
  requests: Req[];
}

/** The 1-minute load average now. */
export function loadavg(): number {
  return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
}

/**
 * Interleaved rounds (A B A B …, order alternating) of every contender, after one warm-up run
 * each; per contender: req/s per round, its median, server CPU per request, and the load average
 * at each round.
 */
export async function compareWrk(
  bin: string,
  contenders: WrkContender[],
  o: { rounds: number; seconds: number; warmupSeconds: number; connections: number },
): Promise<{ results: Record<string, ContenderResult>; loadavg: number[] }> {
  const out: Record<string, ContenderResult> = {};
  const cpu: Record<string, number> = {};
  const loads: number[] = [];
  for (const c of contenders) {
    await wrk(bin, c.requests, { seconds: o.warmupSeconds, connections: o.connections });
    out[c.name] = {
      name: c.name,
      rps_rounds: [],
      rps_median: 0,
      requests: 0,
      errors: 0,
      statuses: {},
      server_cpu_ms_per_req: 0,
      client_cpu_ms_per_req: 0,
      p99_rounds: [],
    };
    cpu[c.name] = 0;
  }
  for (let r = 0; r < o.rounds; r++) {
    loads.push(loadavg());
    for (const c of r % 2 === 0 ? contenders : [...contenders].reverse()) {
      const before = cpuMs(c.proc.pid);
      const res = await wrk(bin, c.requests, { seconds: o.seconds, connections: o.connections });
      cpu[c.name] += cpuMs(c.proc.pid) - before;
      const acc = out[c.name];
      acc.rps_rounds.push(res.rps);
      acc.requests += res.requests;
      acc.errors += res.errors;
      acc.p99_rounds!.push(res.latency_ms.p99);
      if (res.errors) acc.statuses.errors = (acc.statuses.errors ?? 0) + res.errors;
      acc.first_error ??= res.errors ? `${res.errors} non-2xx answers or socket errors` : undefined;
    }
  }
  for (const c of contenders) {
    const acc = out[c.name];
    acc.rps_median = round(median(acc.rps_rounds), 1);
    acc.server_cpu_ms_per_req = round(cpu[c.name] / Math.max(1, acc.requests), 4);
  }
  return { results: out, loadavg: loads };
}
