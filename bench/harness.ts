/**
 * Benchmark plumbing: subprocesses (the server under test, floors, receivers), a fixed-concurrency
 * keep-alive load generator, /proc readings (RSS, CPU time) and order statistics.
 * Everything talks to 127.0.0.1 only.
 */
import { createAccount } from "../lib/accounts/accounts.ts";
import { Store } from "../lib/kv/store.ts";

export const ROOT = new URL("..", import.meta.url).pathname;
export const BENCH_DIR = new URL(".", import.meta.url).pathname;

/** Plan override that keeps rate limiting on but never refuses the bench account. */
export const BENCH_PLANS = '{"enterprise":{"per_minute":100000000,"per_day":null}}';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function log(msg: string): void {
  // deno-lint-ignore no-console
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);
}

// ── subprocesses ─────────────────────────────────────────────────────────────────────────────

/** Every subprocess still running, so an interrupted run can end them. */
export const running = new Set<Deno.ChildProcess>();

/** Ends the subprocesses this run started (on Ctrl-C / SIGTERM). */
export function killAll(): void {
  for (const c of running) {
    try {
      c.kill("SIGKILL");
    } catch { /* gone */ }
  }
}

export interface Proc {
  name: string;
  child: Deno.ChildProcess;
  pid: number;
  port: number;
  base: string;
  /** Every stdout line after the listening one (bounded). */
  lines: string[];
  /** Resolves with the first stdout line matching `re` (already seen or future). */
  waitLine(re: RegExp, ms: number): Promise<string>;
  /** Last few KB of stderr, for diagnosis. */
  stderrTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number>;
  exited: Promise<Deno.CommandStatus>;
}

/**
 * Spawns `deno run -A <script>` from the project root and waits for its JSON "listening" line
 * (the server's own log format; the floor and receiver scripts print the same). `script` is
 * relative to the project root. PORT defaults to 0.
 */
export async function spawn(
  name: string,
  script: string,
  env: Record<string, string>,
  opts: { listen?: boolean; v8Flags?: string[]; denoArgs?: string[] } = {},
): Promise<Proc> {
  const args = [
    "run",
    "-A",
    ...(opts.denoArgs ?? []),
    ...(opts.v8Flags?.length ? [`--v8-flags=${opts.v8Flags.join(",")}`] : []),
    script,
  ];
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { PORT: "0", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  running.add(child);
  child.status.finally(() => running.delete(child));
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let stderr = "";
  let closed = false;
  const exited = child.status;
  (async () => {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      buf += value;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (lines.length < 2000) lines.push(line);
        for (const w of waiters.filter((w) => w.re.test(line))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
    closed = true;
  })();
  (async () => {
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      stderr = (stderr + value).slice(-4000);
    }
  })();
  const waitLine = (re: RegExp, ms: number) => {
    const seen = lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    const { promise, resolve, reject } = Promise.withResolvers<string>();
    const t = setTimeout(
      () => reject(new Error(`${name}: no line matching ${re} within ${ms} ms; stderr: ${stderr.slice(-1500)}`)),
      ms,
    );
    waiters.push({ re, resolve: (l) => (clearTimeout(t), resolve(l)) });
    exited.then((s) => {
      if (waiters.some((w) => w.re === re)) {
        clearTimeout(t);
        setTimeout(
          () => reject(new Error(`${name} exited (${s.code}) before ${re}; stderr: ${stderr.slice(-1500)}`)),
          50,
        );
      }
    });
    return promise;
  };
  let port = 0;
  if (opts.listen !== false) {
    const line = await waitLine(/"msg":"listening"/, 60_000);
    port = JSON.parse(line).port;
  }
  const stop = async (graceMs = 15_000) => {
    if (!closed) {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
    }
    const t = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, graceMs);
    const s = await exited;
    clearTimeout(t);
    return s.code;
  };
  return {
    name,
    child,
    pid: child.pid,
    port,
    base: `http://127.0.0.1:${port}`,
    lines,
    waitLine,
    stderrTail: () => stderr,
    stop,
    exited,
  };
}

/** A fresh temp dir with a KV file path inside; `cleanup` removes it. */
export async function tempKv(label: string) {
  const dir = await Deno.makeTempDir({ prefix: `bench-${label}-` });
  return { dir, path: `${dir}/kv.sqlite3`, cleanup: () => Deno.remove(dir, { recursive: true }).catch(() => {}) };
}

/** Creates the bench account in a KV file before the server opens it. */
export async function seedAccount(kvPath: string): Promise<{ apiKey: string; accountId: string }> {
  return (await seedAccounts(kvPath, 1))[0];
}

/** Creates `n` enterprise accounts in a KV file before the server opens it. */
export async function seedAccounts(kvPath: string, n: number): Promise<{ apiKey: string; accountId: string }[]> {
  const kv = await Deno.openKv(kvPath);
  try {
    const store = new Store(kv);
    const out = [];
    for (let i = 0; i < n; i++) {
      const { account, apiKey } = await createAccount(store, { plan: "enterprise", name: `bench ${i}` });
      out.push({ apiKey, accountId: account.id });
    }
    return out;
  } finally {
    kv.close();
  }
}

/** Extra environment for every server under test (`--server-env=NAME=value`, for experiments). */
export const extraServerEnv: Record<string, string> = {};

/** The instances' restart slots (INSTANCE_DIR), one folder for the bench's process, not ./data. */
let slotsDir: string | undefined;
function benchSlots(): string {
  if (!slotsDir) {
    const dir = slotsDir = Deno.makeTempDirSync({ prefix: "bench-slots-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
  }
  return slotsDir;
}

/** Environment of the server under test (rate limiting on, never refusing). */
export function serverEnv(kvPath: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    KV_PATH: kvPath,
    INSTANCE_DIR: benchSlots(),
    LOG_REQUESTS: "0",
    WEBHOOK_ALLOW_PRIVATE: "1",
    PLANS: BENCH_PLANS,
    ...extraServerEnv,
    ...extra,
  };
}

export async function startServer(name: string, kvPath: string, extra: Record<string, string> = {}) {
  return await spawn(name, "main.ts", serverEnv(kvPath, extra));
}

/** Sizes of a KV file and its SQLite companions (-wal, -shm), in bytes. */
export async function kvFileSize(path: string): Promise<{ main: number; wal: number; shm: number; total: number }> {
  const size = async (p: string) => (await Deno.stat(p).catch(() => ({ size: 0 }))).size;
  const [main, wal, shm] = await Promise.all([size(path), size(`${path}-wal`), size(`${path}-shm`)]);
  return { main, wal, shm, total: main + wal + shm };
}

// ── /proc ────────────────────────────────────────────────────────────────────────────────────

/** VmRSS (and its anonymous and file-backed parts) and VmHWM of a process, in KiB. */
export async function memory(
  pid: number,
): Promise<{ rss_kib: number; hwm_kib: number; anon_kib: number; file_kib: number }> {
  const text = await Deno.readTextFile(`/proc/${pid}/status`);
  const field = (n: string) => Number(new RegExp(`^${n}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? NaN);
  return { rss_kib: field("VmRSS"), hwm_kib: field("VmHWM"), anon_kib: field("RssAnon"), file_kib: field("RssFile") };
}

/** User + system CPU time of a process (all its threads), in ms (assumes CLK_TCK = 100). */
export function cpuMs(pid: number | "self"): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * CPU ms per thread name of a process (threads of one name summed: "deno" is the JS main
 * thread, "sw-*" Deno KV's SQLite workers, "tokio-*" I/O, "V8 DefaultWorke" GC/compiler).
 */
export function threadCpuMs(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        const s = Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/stat`);
        const name = s.slice(s.indexOf("(") + 1, s.lastIndexOf(")")).replace(/[-_ ]?\d+$/, "");
        const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
        out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) * 10;
      } catch { /* thread ended */ }
    }
  } catch { /* process ended */ }
  return out;
}

/** Per-thread CPU between two threadCpuMs readings, as a share of `wallMs` (100 = one core). */
export function threadShare(a: Record<string, number>, b: Record<string, number>, wallMs: number) {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(b)) {
    const d = v - (a[k] ?? 0);
    if (d > 0) out[k] = round((100 * d) / Math.max(1, wallMs), 0);
  }
  return out;
}

export function machine() {
  const cpuinfo = Deno.readTextFileSync("/proc/cpuinfo");
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? "unknown";
  const meminfo = Deno.readTextFileSync("/proc/meminfo");
  const memKib = Number(/^MemTotal:\s+(\d+)/m.exec(meminfo)?.[1] ?? 0);
  const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  return {
    cpus: navigator.hardwareConcurrency,
    cpu_model: model,
    mem_gib: Math.round(memKib / 1024 / 1024 * 10) / 10,
    loadavg_at_start: load,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
  };
}

// ── statistics ──────────────────────────────────────────────────────────────────────────────

/** Nearest-rank percentile of an ascending array. */
export function pct(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export interface Dist {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  min: number;
  mean: number;
}

export function dist(xs: number[]): Dist {
  const s = Float64Array.from(xs).sort();
  const arr = Array.from(s);
  return {
    n: arr.length,
    p50: round(pct(arr, 50)),
    p90: round(pct(arr, 90)),
    p99: round(pct(arr, 99)),
    max: round(arr[arr.length - 1] ?? NaN),
    min: round(arr[0] ?? NaN),
    mean: round(arr.reduce((a, b) => a + b, 0) / (arr.length || 1)),
  };
}

export function round(x: number, digits = 3): number {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

// ── load generation ──────────────────────────────────────────────────────────────────────────

export interface Req {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
  rps: number;
  /** Milliseconds per request, when asked for. */
  latencies?: number[];
  first_error?: string;
}

/**
 * `concurrency` keep-alive loops, each sending one request at a time until `durationMs` has
 * passed (or `maxRequests` were sent in all). Any non-2xx answer or network error is an error.
 */
export async function load(opts: {
  concurrency: number;
  durationMs: number;
  maxRequests?: number;
  request: (i: number) => Req;
  latencies?: boolean;
}): Promise<LoadResult> {
  const client = Deno.createHttpClient({});
  const statuses: Record<string, number> = {};
  const lat: number[] = [];
  let sent = 0, ok = 0, errors = 0;
  let firstError: string | undefined;
  const max = opts.maxRequests ?? Infinity;
  const t0 = performance.now();
  const end = t0 + opts.durationMs;
  await Promise.all(Array.from({ length: opts.concurrency }, async () => {
    while (sent < max && performance.now() < end) {
      const r = opts.request(sent++);
      const a = performance.now();
      try {
        const res = await fetch(r.url, { method: r.method ?? "GET", headers: r.headers, body: r.body, client });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 200 && res.status < 300) ok++;
        else {
          errors++;
          firstError ??= `HTTP ${res.status} ${r.method ?? "GET"} ${new URL(r.url).pathname}`;
        }
      } catch (e) {
        errors++;
        statuses.network = (statuses.network ?? 0) + 1;
        firstError ??= String(e).slice(0, 200);
      }
      if (opts.latencies) lat.push(performance.now() - a);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  client.close();
  return {
    requests: ok + errors,
    ok,
    errors,
    statuses,
    seconds: round(seconds),
    rps: round((ok + errors) / seconds, 1),
    latencies: opts.latencies ? lat : undefined,
    first_error: firstError,
  };
}

export interface Contender {
  name: string;
  proc: Proc;
  request: (i: number) => Req;
}

export interface ContenderResult {
  name: string;
  rps_rounds: number[];
  rps_median: number;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  server_cpu_ms_per_req: number;
  /** CPU the load generator (this process) spent per request: fetch is not free. */
  client_cpu_ms_per_req: number;
  first_error?: string;
  latencies?: number[];
  /** p99 latency (ms) of each round, when latencies are recorded. */
  p99_rounds?: number[];
}

/**
 * Measures contenders in interleaved rounds (A B C A B C …) so that a noisy neighbour hurts all
 * of them alike; each contender is warmed up once first. Reports the median req/s of the rounds.
 */
export async function compare(
  contenders: Contender[],
  o: { rounds: number; seconds: number; warmupSeconds: number; concurrency: number; latencies?: boolean },
): Promise<Record<string, ContenderResult>> {
  const out: Record<string, ContenderResult> = {};
  for (const c of contenders) {
    await load({ concurrency: o.concurrency, durationMs: o.warmupSeconds * 1000, request: c.request });
    out[c.name] = {
      name: c.name,
      rps_rounds: [],
      rps_median: 0,
      requests: 0,
      errors: 0,
      statuses: {},
      server_cpu_ms_per_req: 0,
      client_cpu_ms_per_req: 0,
      latencies: o.latencies ? [] : undefined,
      p99_rounds: o.latencies ? [] : undefined,
    };
  }
  const cpu: Record<string, number> = {};
  const selfCpu: Record<string, number> = {};
  for (let r = 0; r < o.rounds; r++) {
    // Alternate the order each round so neither side always runs right after the other.
    const order = r % 2 === 0 ? contenders : [...contenders].reverse();
    for (const c of order) {
      const before = cpuMs(c.proc.pid);
      const selfBefore = cpuMs("self");
      const res = await load({
        concurrency: o.concurrency,
        durationMs: o.seconds * 1000,
        request: c.request,
        latencies: o.latencies,
      });
      cpu[c.name] = (cpu[c.name] ?? 0) + (cpuMs(c.proc.pid) - before);
      selfCpu[c.name] = (selfCpu[c.name] ?? 0) + (cpuMs("self") - selfBefore);
      const acc = out[c.name];
      acc.rps_rounds.push(res.rps);
      acc.requests += res.requests;
      acc.errors += res.errors;
      for (const [k, v] of Object.entries(res.statuses)) acc.statuses[k] = (acc.statuses[k] ?? 0) + v;
      acc.first_error ??= res.first_error;
      if (o.latencies) {
        acc.latencies!.push(...res.latencies!);
        acc.p99_rounds!.push(round(pct(Float64Array.from(res.latencies!).sort(), 99), 3));
      }
    }
  }
  for (const c of contenders) {
    const acc = out[c.name];
    acc.rps_median = round(median(acc.rps_rounds), 1);
    acc.server_cpu_ms_per_req = round(cpu[c.name] / Math.max(1, acc.requests), 4);
    acc.client_cpu_ms_per_req = round(selfCpu[c.name] / Math.max(1, acc.requests), 4);
  }
  return out;
}

/**
 * The ratio of two contenders' throughput: the median over rounds of A's req/s over B's in the
 * same round (measured back to back), which cancels slow drifts of a shared machine's load.
 */
export function pairedRatio(a: ContenderResult, b: ContenderResult): number {
  const ratios = a.rps_rounds.map((x, i) => x / b.rps_rounds[i]).filter(Number.isFinite);
  return round(median(ratios), 3);
}

/** Runs `fn` over `items` with at most `concurrency` in flight. */
export async function parallel<T, R>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i], i);
    }
  }));
  return out;
}

// ── the API ─────────────────────────────────────────────────────────────────────────────────

/** A small API client for setup work (not for measured loops). */
export class Api {
  readonly client = Deno.createHttpClient({});
  constructor(readonly base: string, readonly key: string) {}

  headers(json = false): Record<string, string> {
    return json
      ? { authorization: `Bearer ${this.key}`, "content-type": "application/json" }
      : { authorization: `Bearer ${this.key}` };
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${this.base}/api/v1${path}`, {
      method,
      headers: this.headers(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      client: this.client,
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, json };
  }

  async create(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const r = await this.call("POST", "/timers", body);
    if (r.status !== 201) throw new Error(`create: HTTP ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
    return r.json;
  }

  async act(id: string, action: string): Promise<{ status: number; json: Record<string, unknown> }> {
    return await this.call("PATCH", `/timers/${id}/state`, { action });
  }

  #closed = false;
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.client.close();
  }
}

/** Reads many KV entries (getMany takes at most 10 keys). */
export async function getManyValues<T>(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<(T | null)[]> {
  const out: (T | null)[] = [];
  for (let i = 0; i < keys.length; i += 10) {
    const entries = await kv.getMany<T[]>(keys.slice(i, i + 10));
    for (const e of entries) out.push(e.value);
  }
  return out;
}
