/**
 * Several processes on one KV file: servers taking writes and the keys CLI writing meanwhile.
 * SQLite answers "database is locked" when another process holds the write lock; every KV call
 * retries it (lib/kv/open.ts), so no request fails and no write is lost.
 */
import assert from "node:assert/strict";
import { openKv } from "../lib/kv/open.ts";
import { Store } from "../lib/kv/store.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const PLANS = '{"enterprise":{"per_minute":100000000,"per_day":null}}';

async function startServer(kvPath: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    // The default configuration, request logs included.
    // Several servers on one file on purpose (their live pages see only their own writes).
    env: {
      PORT: "0",
      KV_PATH: kvPath,
      KV_SHARED_FILE: "1",
      PLANS,
      WEBHOOK_ALLOW_PRIVATE: "1",
      INSTANCE_DIR: `${kvPath}.instances`,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = new Response(child.stderr).text();
  let buf = "";
  for (;;) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`server exited before listening: ${await stderr}`);
    buf += value;
    const m = /"msg":"listening"[^\n]*"port":(\d+)/.exec(buf);
    if (m) {
      let errors = 0;
      // Keep draining stdout (so the child never blocks on a full pipe), counting 5xx log lines.
      const drained = (async () => {
        for (;;) {
          const r = await lines.read().catch(() => ({ done: true, value: undefined }));
          if (r.done) return;
          errors += (r.value!.match(/"level":"error"/g) ?? []).length;
        }
      })();
      return {
        base: `http://127.0.0.1:${m[1]}`,
        errorLines: () => errors,
        async stop() {
          child.kill("SIGTERM");
          const status = await child.status;
          await drained;
          await stderr;
          return status.code;
        },
      };
    }
  }
}

async function keysCli(kvPath: string, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/keys.ts", ...args],
    cwd: ROOT,
    env: { KV_PATH: kvPath },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Writes through every server until `stop` resolves: creates timers and starts them. */
async function writeLoad(bases: string[], key: string, stop: Promise<void>, perServer = 12) {
  const statuses: Record<number, number> = {};
  const created: string[] = [];
  const started: string[] = [];
  let done = false;
  stop.then(() => done = true);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  await Promise.all(bases.flatMap((base) =>
    Array.from({ length: perServer }, async () => {
      while (!done) {
        const r = await fetch(`${base}/api/v1/timers`, {
          method: "POST",
          headers,
          body: JSON.stringify({ type: "countdown", duration: 3600, title: "load" }),
        });
        const body = await r.json();
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status !== 201) continue;
        created.push(body.timer_id);
        const s = await fetch(`${base}/api/v1/timers/${body.timer_id}/state`, {
          method: "PATCH",
          headers,
          body: JSON.stringify({ action: "start" }),
        });
        await s.body?.cancel();
        statuses[s.status] = (statuses[s.status] ?? 0) + 1;
        if (s.status === 200) started.push(body.timer_id);
      }
    })
  ));
  return { statuses, created, started };
}

/** Runs the CLI `runs` times while the load goes on; returns every run's result. */
async function cliDuringLoad(kvPath: string, runs: number) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    results.push(await keysCli(kvPath, ["create", "--plan", "pro", "--name", `cli ${i}`, "--json"]));
  }
  return results;
}

async function check(kvPath: string, servers: Awaited<ReturnType<typeof startServer>>[], runs: number) {
  const first = await keysCli(kvPath, ["create", "--plan", "enterprise", "--name", "load", "--json"]);
  assert.equal(first.code, 0, first.stderr);
  const { api_key } = JSON.parse(first.stdout);
  const stop = Promise.withResolvers<void>();
  const loading = writeLoad(servers.map((s) => s.base), api_key, stop.promise);
  // Let the load reach its pace before the CLI joins.
  await new Promise((r) => setTimeout(r, 500));
  const [cli] = await Promise.all([cliDuringLoad(kvPath, runs), new Promise((r) => setTimeout(r, 2000))]);
  stop.resolve();
  const load = await loading;
  const errorLines = servers.reduce((n, s) => n + s.errorLines(), 0);
  for (const s of servers) assert.equal(await s.stop(), 0);

  for (const r of cli) assert.equal(r.code, 0, `a keys CLI run failed: ${r.stderr}`);
  assert.deepEqual(Object.keys(load.statuses).filter((s) => Number(s) >= 300), [], JSON.stringify(load.statuses));
  assert.equal(errorLines, 0, "no error lines in the servers' logs");
  assert.ok(load.created.length > 50, `only ${load.created.length} timers created`);

  // Nothing lost: every timer answered 201 is stored, every answered start is recorded, every CLI account exists.
  const kv = await openKv({ kvPath });
  const store = new Store(kv);
  const startedSet = new Set(load.started);
  for (const id of load.created) {
    const e = await store.getTimer(id);
    assert.ok(e, `timer ${id} answered 201 but is not stored`);
    if (startedSet.has(id)) assert.equal(e.timer.state, "running", id);
  }
  kv.close();
  const list = await keysCli(kvPath, ["list", "--json"]);
  assert.equal(list.code, 0, list.stderr);
  const names = (JSON.parse(list.stdout) as { name: string }[]).map((a) => a.name);
  for (let i = 0; i < runs; i++) assert.ok(names.includes(`cli ${i}`), `account "cli ${i}" is missing`);
  return load;
}

Deno.test("the keys CLI writes while a server takes writes on the same KV file: no 500, no failed run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "multiprocess-" });
  const kvPath = `${dir}/kv.sqlite3`;
  try {
    // The file exists (and its schema) before the server opens it.
    assert.equal((await keysCli(kvPath, ["list"])).code, 0);
    const servers = [await startServer(kvPath)];
    await check(kvPath, servers, 6);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("three servers on one KV file with the keys CLI writing meanwhile: no 500, no lost write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "multiprocess-" });
  const kvPath = `${dir}/kv.sqlite3`;
  try {
    assert.equal((await keysCli(kvPath, ["list"])).code, 0);
    const servers = await Promise.all([startServer(kvPath), startServer(kvPath), startServer(kvPath)]);
    await check(kvPath, servers, 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
