/**
 * The real service over KV Connect: two `main.ts` processes on the test KV Connect server (denokv's
 * storage and limits, +20 ms per call), timers created, started and completed with webhooks, and a
 * live stream on one instance seeing a change made on the other (kv.watch over KV Connect).
 */
import assert from "node:assert/strict";
import { createAccount } from "../lib/accounts/accounts.ts";
import { Store } from "../lib/kv/store.ts";
import { receiver } from "./helpers.ts";
import { type KvConnectProcess, startKvConnect } from "./kvconnect/helper.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function startInstance(kvc: KvConnectProcess) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: {
      ...kvc.env,
      PORT: "0",
      WEBHOOK_ALLOW_PRIVATE: "1",
      SWEEP_INTERVAL_MS: "200",
      LOG_REQUESTS: "0",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`server exited before listening: ${await stderr}`);
    buf += value;
    const line = buf.split("\n").find((l) => l.includes('"msg":"listening"'));
    if (line) {
      const drained = (async () => {
        while (!(await lines.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      const listening = JSON.parse(line);
      return {
        base: `http://127.0.0.1:${listening.port}`,
        listening,
        async stop() {
          child.kill("SIGTERM");
          const { code } = await child.status;
          await drained;
          await stderr;
          return code;
        },
      };
    }
  }
}

/** Reads an SSE stream until `match` accepts a `timer` event's data; resolves with the time it arrived. */
async function waitForTimerEvent(res: Response, match: (data: { timer: { state: string } }) => boolean) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the live stream ended");
      buf += value;
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === "timer" && data && match(JSON.parse(data))) return performance.now();
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

Deno.test("two instances on one KV Connect server (+20 ms a call): timers complete with webhooks, live pages follow the other instance", async () => {
  const kvc = await startKvConnect({ delayMs: 20 });
  const rx = receiver();
  const kv = await kvc.open();
  const { apiKey } = await createAccount(new Store(kv), { plan: "pro", name: "KV Connect" });
  kv.close();
  const [a, b] = await Promise.all([startInstance(kvc), startInstance(kvc)]);
  try {
    // The start-up probe found denokv's limit, a round trip to cover with commits in flight, and no queues.
    assert.equal(a.listening.kv_checks_per_commit, 10);
    assert.equal(a.listening.kv_commits_in_flight, 32);
    assert.equal(a.listening.scheduler, "sweep");
    const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };

    // Created and started on A, completed by either instance, read back on B.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${a.base}/api/v1/timers`, {
        method: "POST",
        headers,
        body: JSON.stringify({ type: "countdown", duration: 1, webhook_url: rx.url }),
      });
      assert.equal(res.status, 201);
      const { timer_id } = await res.json();
      ids.push(timer_id);
      const started = await fetch(`${a.base}/api/v1/timers/${timer_id}/state`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ action: "start" }),
      });
      assert.equal(started.status, 200);
      await started.body?.cancel();
    }
    await rx.waitFor(6, 20_000);
    for (const id of ids) {
      const events = rx.received.filter((r) => r.json.timer_id === id).map((r) => r.json.event);
      assert.deepEqual(events.sort(), ["timer.completed", "timer.started"], id);
      const res = await fetch(`${b.base}/api/v1/timers/${id}`, { headers });
      assert.equal((await res.json()).state, "completed");
    }

    // A live stream on B sees a start made on A within a second.
    const created = await fetch(`${b.base}/api/v1/timers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "countdown", duration: 3600 }),
    });
    const { timer_id } = await created.json();
    const live = await fetch(`${b.base}/live/${timer_id}`);
    assert.equal(live.status, 200);
    const seen = waitForTimerEvent(live, (d) => d.timer.state === "running");
    // The stream's first snapshot (idle) came from B's watch; the start happens on A.
    const startedAt = performance.now();
    const started = await fetch(`${a.base}/api/v1/timers/${timer_id}/state`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ action: "start" }),
    });
    assert.equal(started.status, 200);
    await started.body?.cancel();
    const lag = (await seen) - startedAt;
    assert.ok(lag < 1000, `B's live stream saw A's start after ${Math.round(lag)} ms`);
  } finally {
    assert.equal(await a.stop(), 0);
    assert.equal(await b.stop(), 0);
    await rx.close();
    await kvc.stop();
  }
});
