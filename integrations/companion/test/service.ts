/**
 * The real service for the module's tests, in its own process as it runs in production: main.ts
 * on 127.0.0.1 with a KV file, and a pro API key made by scripts/keys.ts beforehand.
 */

export const ROOT = new URL("../../../", import.meta.url).pathname;

/** Runs a command to its end; throws with its output when it fails. */
export async function run(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: opts.cwd ?? ROOT,
    env: opts.env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${text}\n${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** Starts the service with a fresh KV and a pro key; `stop` ends it and removes its files. */
export async function startService() {
  const tmp = await Deno.makeTempDir({ prefix: "companion-" });
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const site = `http://127.0.0.1:${port}`;
  const env = { KV_PATH: `${tmp}/kv.sqlite3`, PORT: String(port), HOSTNAME: "127.0.0.1", SITE_URL: site };
  const keys = JSON.parse(
    await run(Deno.execPath(), ["run", "-A", "scripts/keys.ts", "create", "--plan", "pro", "--name", "cmp", "--json"], {
      env,
    }),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const deadline = Date.now() + 60_000;
  while (!/"msg":"listening"/.test(buffered)) {
    if (Date.now() > deadline) throw new Error(`the service did not start: ${buffered}`);
    const { value, done } = await lines.read();
    if (done) throw new Error(`the service exited: ${buffered}`);
    buffered += value;
  }
  // Keep draining its log so it never blocks on a full pipe.
  (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })().catch(() => {});
  child.stderr.cancel().catch(() => {});

  /** Calls the API with a key or a control token. */
  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${site}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    // deno-lint-ignore no-explicit-any
    return { status: res.status, body: await res.json() as any };
  };
  return {
    site,
    apiKey: keys.api_key as string,
    api,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    },
  };
}
