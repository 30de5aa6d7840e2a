/**
 * Starts the test KV Connect server (./server.ts) in a subprocess on a free port, as tests start
 * every other real part, and stops it. `env` is what a client process needs to use it.
 */
import type { KvConnectStats } from "./server.ts";

const SERVER = new URL("./server.ts", import.meta.url).pathname;

export interface KvConnectProcess {
  url: string;
  token: string;
  /** `KV_PATH` and `DENO_KV_ACCESS_TOKEN` for a service process. */
  env: { KV_PATH: string; DENO_KV_ACCESS_TOKEN: string };
  /** Opens the KV in this process (sets DENO_KV_ACCESS_TOKEN, which Deno's client reads at open). */
  open(): Promise<Deno.Kv>;
  stats(): Promise<KvConnectStats>;
  stop(): Promise<void>;
}

export async function startKvConnect(opts: { path?: string; delayMs?: number } = {}): Promise<KvConnectProcess> {
  const token = `test-${crypto.randomUUID()}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      SERVER,
      `--path=${opts.path ?? ":memory:"}`,
      `--delay-ms=${opts.delayMs ?? 0}`,
      "--port=0",
    ],
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
  const env = { KV_PATH: url, DENO_KV_ACCESS_TOKEN: token };
  return {
    url,
    token,
    env,
    open() {
      Deno.env.set("DENO_KV_ACCESS_TOKEN", token);
      return Deno.openKv(url);
    },
    async stats() {
      return await (await fetch(`${url}/stats`)).json();
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await drained;
      await stderr;
    },
  };
}
