/** A process killed with SIGKILL mid-flight: a new one on the same KV file finishes everything once. */
import assert from "node:assert/strict";
import { createAccount } from "../lib/accounts/accounts.ts";
import { Store } from "../lib/kv/store.ts";
import { receiver } from "./helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function startServer(kvPath: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: {
      PORT: "0",
      KV_PATH: kvPath,
      WEBHOOK_ALLOW_PRIVATE: "1",
      WEBHOOK_RETRY_DELAYS: "1,1,1,1",
      WEBHOOK_TIMEOUT_MS: "2000",
      SWEEP_INTERVAL_MS: "200",
      LOG_REQUESTS: "0",
    },
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
      // Keep draining stdout so the child never blocks on a full pipe.
      (async () => {
        while (!(await lines.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      return { child, base: `http://127.0.0.1:${m[1]}` };
    }
  }
}

Deno.test("after SIGKILL a new process completes every timer once and finishes every delivery", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  const kv = await Deno.openKv(kvPath);
  const { apiKey } = await createAccount(new Store(kv), { plan: "pro", name: "Restart" });
  kv.close();

  // Each delivery's first attempt fails, so retries are pending when the process dies.
  const seen = new Set<string>();
  const rx = receiver((_n, req) => {
    const id = req.headers.get("webhook-id")!;
    const first = !seen.has(id);
    seen.add(id);
    return new Response(first ? "try later" : "ok", { status: first ? 503 : 200 });
  });

  const first = await startServer(kvPath);
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${first.base}/api/v1/timers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "countdown", duration: 2, webhook_url: rx.url }),
    });
    const t = await res.json();
    ids.push(t.timer_id);
    const started = await fetch(`${first.base}/api/v1/timers/${t.timer_id}/state`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ action: "start" }),
    });
    await started.body?.cancel();
  }
  await rx.waitFor(5);
  first.child.kill("SIGKILL");
  await first.child.status;
  const killedAt = Date.now();

  const second = await startServer(kvPath);
  // 5 started + 5 completed, each failing once then succeeding: at least 20 requests. An attempt the
  // killed process had in flight is taken over once its heartbeat stood still for KV's busy budget
  // (15 s) + a lease (5 s here), timed from the new process's first look: up to ~25 s.
  const deadline = Date.now() + 45_000;
  const done = () => {
    const ids = new Set(rx.received.map((r) => r.json.id as string));
    return ids.size >= 10 && rx.received.length >= 20;
  };
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 1500));

  for (const id of ids) {
    const res = await fetch(`${second.base}/api/v1/timers/${id}`, { headers });
    assert.equal((await res.json()).state, "completed");
    const log = await (await fetch(`${second.base}/api/v1/timers/${id}/deliveries`, { headers })).json();
    assert.deepEqual(
      log.deliveries.map((d: { event: string; state: string }) => `${d.event}:${d.state}`).sort(),
      ["timer.completed:succeeded", "timer.started:succeeded"],
    );
    const completions = new Set(
      rx.received.filter((r) => r.json.timer_id === id && r.json.event === "timer.completed").map((r) => r.json.id),
    );
    assert.equal(completions.size, 1, "one completion per timer");
  }
  // Each id is POSTed twice (503, then 200); a third POST only for an attempt the killed process may
  // have had in flight (its first POST before the kill): no duplicate without a crash.
  const posts = Map.groupBy(rx.received, (r) => r.json.id as string);
  for (const [id, got] of posts) {
    if (got.length === 2) continue;
    assert.ok(got.length === 3 && got[0].at <= killedAt, `${id} POSTed ${got.length} times`);
  }
  second.child.kill("SIGTERM");
  await second.child.status;
  await rx.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("SIGTERM ends the open live streams at once and the process exits (browsers reconnect to the next one)", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  const kv = await Deno.openKv(kvPath);
  const { apiKey } = await createAccount(new Store(kv), { plan: "pro", name: "Shutdown" });
  kv.close();
  const server = await startServer(kvPath);
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const created = await fetch(`${server.base}/api/v1/timers`, {
    method: "POST",
    headers,
    body: JSON.stringify({ type: "countdown", duration: 3600 }),
  });
  const { timer_id } = await created.json();
  // Two viewers of the timer; each stream must end, not wait for its browser to leave.
  const streams = await Promise.all([1, 2].map(() => fetch(`${server.base}/live/${timer_id}`)));
  const ended = streams.map(async (res) => {
    assert.equal(res.status, 200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: "", done: true }));
      if (done) return text;
      text += value;
    }
  });
  // The first snapshot has arrived before the signal: the stream was really open.
  await new Promise((r) => setTimeout(r, 500));
  const sent = Date.now();
  server.child.kill("SIGTERM");
  let timeout: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timeout = setTimeout(() => reject(new Error("streams or process still open 3 s after SIGTERM")), 3000);
  });
  try {
    const [texts, status] = await Promise.race([Promise.all([Promise.all(ended), server.child.status]), limit]);
    for (const text of texts) assert.match(text, /event: timer/);
    assert.equal(status.code, 0);
    assert.ok(Date.now() - sent < 3000);
  } finally {
    clearTimeout(timeout);
    try {
      server.child.kill("SIGKILL");
    } catch { /* exited */ }
    await server.child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
