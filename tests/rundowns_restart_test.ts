/**
 * A linked rundown whose process is killed with SIGKILL during item 2 and restarted after item 2's
 * end: the new process starts item 3 at item 2's due instant (not at its own start), once.
 */
import assert from "node:assert/strict";
import { createAccount } from "../lib/accounts/accounts.ts";
import { Store } from "../lib/kv/store.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function startServer(kvPath: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: { PORT: "0", KV_PATH: kvPath, SWEEP_INTERVAL_MS: "200", LOG_REQUESTS: "0" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await lines.read();
    if (done) throw new Error("server exited before listening");
    buf += value;
    const m = /"msg":"listening"[^\n]*"port":(\d+)/.exec(buf);
    if (m) {
      (async () => {
        while (!(await lines.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      return { child, base: `http://127.0.0.1:${m[1]}` };
    }
  }
}

/** Polls `read` until `ok` holds of its answer (a real process on its own clock: no injected time here). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("after SIGKILL during item 2, a new process starts item 3 at item 2's end", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  const kv = await Deno.openKv(kvPath);
  const { apiKey } = await createAccount(new Store(kv), { plan: "pro", name: "Stage" });
  kv.close();
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };

  const first = await startServer(kvPath);
  const created = await (await fetch(`${first.base}/api/v1/rundowns`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      mode: "linked",
      items: [1, 3, 60].map((duration, i) => ({ type: "countdown", title: `Item ${i + 1}`, duration })),
    }),
  })).json();
  const id = created.rundown_id as string;
  const ids = created.items.map((i: { timer_id: string }) => i.timer_id) as string[];
  const started = await fetch(`${first.base}/api/v1/rundowns/${id}/state`, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ action: "start" }),
  });
  assert.equal(started.status, 200);
  await started.body?.cancel();
  const rundown = (base: string) => async () =>
    await (await fetch(`${base}/api/v1/rundowns/${id}`, { headers })).json();
  const during = await until(rundown(first.base), (r) => r.current === 1, 5000);
  assert.equal(during.current, 1, "item 2 is live before the kill");
  first.child.kill("SIGKILL");
  await first.child.status;

  // Down past item 2's end (3 s after it started), then a new process on the same KV file.
  const timer = async (base: string, n: number) =>
    await (await fetch(`${base}/api/v1/timers/${ids[n]}`, { headers })).json();
  const kv2 = await Deno.openKv(kvPath);
  const two = (await kv2.get<{ started_at: number }>(["timer", ids[1]])).value!;
  kv2.close();
  const wait = two.started_at + 3000 + 500 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const second = await startServer(kvPath);
  try {
    const after = await until(rundown(second.base), (r) => r.current === 2, 10_000);
    assert.equal(after.current, 2, JSON.stringify(after));
    const [t1, t2, t3] = [await timer(second.base, 0), await timer(second.base, 1), await timer(second.base, 2)];
    assert.equal(t1.state, "completed");
    assert.equal(t2.state, "completed");
    assert.equal(t3.state, "running");
    assert.equal(t2.started_at, t1.completed_at, "item 2 started at item 1's end");
    assert.equal(t3.started_at, t2.completed_at, "item 3 started at item 2's end, not at the restart");
    assert.equal(Date.parse(t2.completed_at) - Date.parse(t2.started_at), 3000);
  } finally {
    second.child.kill("SIGTERM");
    await second.child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
