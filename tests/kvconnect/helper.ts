/**
 * Starts the test KV Connect server (./server.ts) in a subprocess on a free port, as tests start
 * every other real part, and stops it. `env` is what a client process needs to use it; `restart`
 * stops it and starts it again on the same port with the same token and storage, so clients keep
 * their URL.
 */
import type { KvConnectStats } from "./server.ts";

const SERVER = new URL("./server.ts", import.meta.url).pathname;

export interface KvConnectProcess {
  url: string;
  /** The server process's id (a new one after `restart`). */
  readonly pid: number;
  token: string;
  /** `KV_PATH` and `DENO_KV_ACCESS_TOKEN` for a service process. */
  env: { KV_PATH: string; DENO_KV_ACCESS_TOKEN: string };
  /** Opens the KV in this process (sets DENO_KV_ACCESS_TOKEN, which Deno's client reads at open). */
  open(): Promise<Deno.Kv>;
  stats(): Promise<KvConnectStats>;
  /**
   * Stops the server (SIGTERM, SIGKILL after `graceMs`) and starts it again on the same port, token
   * and path (a file keeps its data; `:memory:` does not), after `pauseMs` stopped (0). Tries the port
   * for up to `bindMs`, then throws.
   */
  restart(
    opts?: { graceMs?: number; bindMs?: number; pauseMs?: number },
  ): Promise<{ downMs: number; signal: "SIGTERM" | "SIGKILL" }>;
  stop(): Promise<void>;
}

interface Child {
  url: string;
  pid: number;
  stop(graceMs?: number): Promise<"SIGTERM" | "SIGKILL">;
}

async function launch(path: string, delayMs: number, port: number, token: string): Promise<Child> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SERVER, `--path=${path}`, `--delay-ms=${delayMs}`, `--port=${port}`],
    env: { DENO_KV_ACCESS_TOKEN: token },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let url: string | undefined;
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the KV Connect server exited before listening: ${await stderr}`);
    buf += value;
    url = /\{"listening":"([^"]+)"\}/.exec(buf)?.[1];
  }
  // Keep reading so the child never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })();
  return {
    url,
    pid: child.pid,
    async stop(graceMs = 10_000) {
      let signal: "SIGTERM" | "SIGKILL" = "SIGTERM";
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      const t = setTimeout(() => {
        signal = "SIGKILL";
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, graceMs);
      await child.status;
      clearTimeout(t);
      await drained;
      await stderr;
      return signal;
    },
  };
}

export async function startKvConnect(
  opts: { path?: string; delayMs?: number; port?: number; token?: string } = {},
): Promise<KvConnectProcess> {
  const token = opts.token ?? `test-${crypto.randomUUID()}`;
  const path = opts.path ?? ":memory:";
  const delayMs = opts.delayMs ?? 0;
  let current = await launch(path, delayMs, opts.port ?? 0, token);
  const url = current.url;
  const port = Number(new URL(url).port);
  const env = { KV_PATH: url, DENO_KV_ACCESS_TOKEN: token };
  return {
    url,
    token,
    env,
    get pid() {
      return current.pid;
    },
    open() {
      Deno.env.set("DENO_KV_ACCESS_TOKEN", token);
      return Deno.openKv(url);
    },
    async stats() {
      return await (await fetch(`${url}/stats`)).json();
    },
    async restart(o = {}) {
      const down = Date.now();
      const signal = await current.stop(o.graceMs ?? 10_000);
      await new Promise((r) => setTimeout(r, o.pauseMs ?? 0));
      const until = Date.now() + (o.bindMs ?? 10_000);
      for (;;) {
        try {
          current = await launch(path, delayMs, port, token);
          break;
        } catch (e) {
          if (Date.now() >= until) {
            throw new Error(`the KV Connect server could not listen on port ${port} again: ${e}`);
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      return { downMs: Date.now() - down, signal };
    },
    async stop() {
      await current.stop();
    },
  };
}
