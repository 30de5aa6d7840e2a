/**
 * The chaos run's moving parts: the instance slots (started, SIGKILLed and started again), the KV
 * (`--kv=kvconnect`: the test KV Connect server on a temp file, +20 ms per call, restarted once on
 * the same port) and the JSON-lines log.
 */
import { type KvConnectProcess, startKvConnect } from "../tests/kvconnect/helper.ts";
import type { Kill } from "./chaos_ledger.ts";
import type { LiveInstance } from "./chaos_live.ts";
import { log, type Proc, serverEnv, sleep, spawn } from "./harness.ts";

/** A fixed set of instance slots on one KV: any of them may be killed and started again. */
export class Cluster {
  readonly procs: (Proc | null)[];
  readonly kills: Kill[] = [];
  constructor(
    readonly kv: string,
    readonly env: Record<string, string>,
    n: number,
    readonly note: (r: unknown) => void,
  ) {
    this.procs = new Array(n).fill(null);
  }

  async #start(i: number): Promise<Proc> {
    for (let attempt = 1;; attempt++) {
      try {
        const p = await spawn(`chaos-${i}`, "main.ts", serverEnv(this.kv, this.env));
        this.procs[i] = p;
        this.note({ kind: "started", instance: i, pid: p.pid, port: p.port, at: Date.now() });
        return p;
      } catch (e) {
        // A server exits 1 when its KV cannot be opened (the KV server restarting): again, 0.5 s apart.
        if (attempt >= 20) throw e;
        log(`chaos: instance ${i} did not start (${String(e).slice(0, 200)}); again`);
        await sleep(500);
      }
    }
  }

  async start(): Promise<void> {
    // One after another: the first creates the KV file's schema.
    for (let i = 0; i < this.procs.length; i++) await this.#start(i);
  }

  /** The live instances (for the live-page check). */
  live(): LiveInstance[] {
    return this.procs.flatMap((p, instance) => p ? [{ instance, base: p.base }] : []);
  }

  pick(): string | null {
    const live = this.procs.filter((p): p is Proc => p !== null);
    return live.length ? live[Math.floor(Math.random() * live.length)].base : null;
  }

  async killOne(): Promise<void> {
    const i = Math.floor(Math.random() * this.procs.length);
    const p = this.procs[i];
    if (!p) return;
    this.procs[i] = null;
    const kill: Kill = { instance: i, pid: p.pid, at: Date.now() };
    p.child.kill("SIGKILL");
    this.kills.push(kill);
    await p.exited;
    this.note({ kind: "kill", instance: i, pid: p.pid, port: p.port, at: kill.at });
    // What the killed process logged (its slot, shards gained and lost…), for reading a slow burst.
    this.note({ kind: "instance_log", instance: i, pid: p.pid, lines: p.lines });
    const q = await this.#start(i);
    kill.restartedAt = Date.now();
    this.note({ kind: "restart", instance: i, pid: q.pid, port: q.port, at: kill.restartedAt });
    log(`chaos: killed instance ${i} (pid ${p.pid}); restarted in ${kill.restartedAt - kill.at} ms`);
  }

  async stop(): Promise<void> {
    this.procs.forEach((p, i) => p && this.note({ kind: "instance_log", instance: i, pid: p.pid, lines: p.lines }));
    await Promise.all(this.procs.map((p) => p?.stop()));
  }
}

/** Appends JSON lines to a file every second (every answer and every kill, with times). */
export function jsonLines(path: string) {
  let buf: string[] = [];
  Deno.writeTextFileSync(path, "");
  const flush = () => {
    if (!buf.length) return;
    Deno.writeTextFileSync(path, buf.join(""), { append: true });
    buf = [];
  };
  const t = setInterval(flush, 1000);
  return {
    write: (r: unknown) => buf.push(JSON.stringify(r) + "\n"),
    close: () => (clearInterval(t), flush()),
  };
}

/** The test KV Connect server of the run under way (killed with the rest on Ctrl-C). */
let kvServer: KvConnectProcess | null = null;

/** SIGKILLs the run's KV Connect server, if any (the CLI's Ctrl-C). */
export function killKvServer(): void {
  try {
    if (kvServer) Deno.kill(kvServer.pid, "SIGKILL");
  } catch { /* gone */ }
}

/** The test KV Connect server for a chaos run: started on a temp file, restarted once on the same port. */
export async function chaosKvConnect(delayMs: number, downMs: number) {
  const dir = await Deno.makeTempDir({ prefix: "chaos-kvconnect-" });
  const kvc = await startKvConnect({ path: `${dir}/kv.sqlite3`, delayMs });
  kvServer = kvc;
  // This process seeds the accounts through Deno's client, which reads the token at open.
  Deno.env.set("DENO_KV_ACCESS_TOKEN", kvc.token);
  return {
    url: kvc.url,
    env: { DENO_KV_ACCESS_TOKEN: kvc.token },
    /** Stops the server (SIGTERM; SIGKILL after 10 s) and, `downMs` later, starts it on the same port, token and file. */
    restart: () => kvc.restart({ pauseMs: downMs }),
    async cleanup() {
      await kvc.stop();
      kvServer = null;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
