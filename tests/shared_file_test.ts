/**
 * One server per local KV file unless KV_SHARED_FILE=1: on a shared file each process's kv.watch
 * sees only its own writes, so a second server's live pages would go stale.
 */
import assert from "node:assert/strict";
import { lockKvFile } from "../lib/kv/open.ts";

const ROOT = new URL("..", import.meta.url).pathname;

function spawnMain(env: Record<string, string>) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    // Restart slots (several instances on a shared file) beside the test's KV file, not in ./data.
    env: {
      PORT: "0",
      HOSTNAME: "127.0.0.1",
      LOG_REQUESTS: "0",
      NO_COLOR: "1",
      INSTANCE_DIR: `${env.KV_PATH}.instances`,
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Starts main.ts and waits until it listens. */
async function startMain(env: Record<string, string>) {
  const child = spawnMain(env);
  const stderr = new Response(child.stderr).text();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  while (!buf.includes('"msg":"listening"')) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`server exited before listening: ${await stderr}`);
    buf += value;
  }
  const drained = (async () => {
    while (!(await lines.read().catch(() => ({ done: true }))).done) { /* drain */ }
  })();
  return {
    async stop() {
      child.kill("SIGTERM");
      const { code } = await child.status;
      await drained;
      await stderr;
      return code;
    },
  };
}

/** Runs main.ts expecting it to exit; resolves its status and stderr. */
async function runMain(env: Record<string, string>) {
  const child = spawnMain(env);
  const [status, , stderr] = await Promise.all([
    child.status,
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
  ]);
  return { code: status.code, stderr };
}

Deno.test("a second server on the same local KV file refuses to start unless KV_SHARED_FILE=1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shared-file-" });
  const kvPath = `${dir}/data/kv.sqlite3`;
  try {
    const first = await startMain({ KV_PATH: kvPath });
    const refused = await runMain({ KV_PATH: kvPath });
    assert.equal(refused.code, 1);
    const lines = refused.stderr.trim().split("\n");
    assert.equal(lines.length, 1, refused.stderr);
    assert.match(lines[0], /KV_PATH=.*kv\.sqlite3 is in use by another server.*set KV_SHARED_FILE=1/);
    // The first counts on being alone: one that would share refuses too, and so does a symlink's.
    const sharing = await runMain({ KV_PATH: kvPath, KV_SHARED_FILE: "1" });
    assert.equal(sharing.code, 1);
    assert.match(sharing.stderr, /in use by a server started without KV_SHARED_FILE=1/);
    await Deno.symlink(`${dir}/data`, `${dir}/alias`);
    assert.equal((await runMain({ KV_PATH: `${dir}/alias/kv.sqlite3` })).code, 1);
    assert.equal(await first.stop(), 0);
    // Told explicitly, servers share the file; then one that counts on being alone refuses.
    const a = await startMain({ KV_PATH: kvPath, KV_SHARED_FILE: "1" });
    const b = await startMain({ KV_PATH: kvPath, KV_SHARED_FILE: "1" });
    assert.equal((await runMain({ KV_PATH: kvPath })).code, 1);
    assert.equal(await b.stop(), 0);
    assert.equal(await a.stop(), 0);
    // Once they are gone, the file is free again.
    const next = await startMain({ KV_PATH: kvPath });
    assert.equal(await next.stop(), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the lock beside a KV file is held while its file is open, and free once closed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shared-file-" });
  try {
    const held = await lockKvFile(`${dir}/kv.sqlite3`);
    assert.ok(held);
    assert.equal(await lockKvFile(`${dir}/kv.sqlite3`), null);
    assert.ok(await lockKvFile(`${dir}/other.sqlite3`).then((f) => (f?.close(), f)), "another file has its own lock");
    held.close();
    const again = await lockKvFile(`${dir}/kv.sqlite3`);
    assert.ok(again);
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
