/**
 * The real service over KV Connect: two `main.ts` processes on the test KV Connect server (denokv's
 * storage and limits, +20 ms per call), timers created, started and completed with webhooks, and a
 * live stream on one instance seeing a change made on the other (kv.watch over KV Connect); and an
 * instance killed mid-delivery whose restart, holding its slot of the machine, takes over at once.
 */
import assert from "node:assert/strict";
import { createAccount } from "../lib/accounts/accounts.ts";
import { Store } from "../lib/kv/store.ts";
import { STOPPED } from "../lib/webhooks/lease.ts";
import { receiver } from "./helpers.ts";
import { type KvConnectProcess, startKvConnect } from "./kvconnect/helper.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function startInstance(kvc: KvConnectProcess, env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: {
      ...kvc.env,
      PORT: "0",
      WEBHOOK_ALLOW_PRIVATE: "1",
      SWEEP_INTERVAL_MS: "200",
      LOG_REQUESTS: "0",
      ...env,
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
      // Every line the server writes, kept for the test to read.
      const log = buf.split("\n");
      const drained = (async () => {
        for (;;) {
          const { value, done } = await lines.read().catch(() => ({ value: "", done: true }));
          if (done) return;
          const parts = (log.pop() + value).split("\n");
          log.push(...parts);
        }
      })();
      const listening = JSON.parse(line);
      return {
        base: `http://127.0.0.1:${listening.port}`,
        listening,
        log,
        kill: async () => {
          child.kill("SIGKILL");
          await child.status;
        },
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

/** Resolves with the first line of `inst`'s log whose `msg` is `msg`, once written (rejects after `ms`). */
async function logLine(inst: { log: string[] }, msg: string, ms = 20_000): Promise<string> {
  const until = performance.now() + ms;
  for (;;) {
    const line = inst.log.find((l) => l.includes(`"msg":"${msg}"`));
    if (line) return line;
    if (performance.now() > until) throw new Error(`no "${msg}" line in ${ms} ms: ${inst.log.join("\n")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates a countdown with a webhook through the API at `base` and starts it; resolves with its id. */
async function startCountdown(base: string, apiKey: string, duration: number, webhookUrl: string): Promise<string> {
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const res = await fetch(`${base}/api/v1/timers`, {
    method: "POST",
    headers,
    body: JSON.stringify({ type: "countdown", duration, webhook_url: webhookUrl }),
  });
  assert.equal(res.status, 201);
  const { timer_id } = await res.json();
  const started = await fetch(`${base}/api/v1/timers/${timer_id}/state`, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ action: "start" }),
  });
  assert.equal(started.status, 200);
  await started.body?.cancel();
  return timer_id;
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
  const slots = await Deno.makeTempDir();
  const [a, b] = await Promise.all([
    startInstance(kvc, { INSTANCE_DIR: slots }),
    startInstance(kvc, { INSTANCE_DIR: slots }),
  ]);
  try {
    // The start-up probe found denokv's limit, a round trip to cover with commits in flight, and no queues.
    assert.equal(a.listening.kv_checks_per_commit, 10);
    assert.equal(a.listening.kv_commits_in_flight, 32);
    assert.equal(a.listening.scheduler, "sweep");
    const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };

    // Created and started on A, completed by either instance, read back on B.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await startCountdown(a.base, apiKey, 1, rx.url));
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
    await Deno.remove(slots, { recursive: true });
  }
});

Deno.test("over KV Connect, an instance killed mid-delivery and started again in its slot sends that delivery again at once, not after the liveness bound", async () => {
  const kvc = await startKvConnect();
  const dir = await Deno.makeTempDir();
  // The first attempt of each delivery hangs (the process is killed meanwhile); the rest succeed.
  const hung = Promise.withResolvers<void>();
  const firstSeen = new Set<string>();
  const rx = receiver(async (_n, req) => {
    const id = req.headers.get("webhook-id")!;
    if (firstSeen.has(id)) return new Response("ok");
    firstSeen.add(id);
    await hung.promise;
    return new Response("late");
  });
  const kv = await kvc.open();
  const { apiKey } = await createAccount(new Store(kv), { plan: "pro", name: "Slots" });
  kv.close();
  const env = { INSTANCE_DIR: dir };
  const a = await startInstance(kvc, env);
  let next: Awaited<ReturnType<typeof startInstance>> | null = null;
  try {
    await startCountdown(a.base, apiKey, 3600, rx.url);
    await rx.waitFor(1, 20_000); // timer.started, claimed by A and hanging
    await a.kill();
    const killedAt = performance.now();
    next = await startInstance(kvc, env);
    // Without the slot's proof, A's claim would wait for A's heartbeat to stand still ~28 s; with
    // it, for A's heartbeat to read the same for 3 s (STILL_MS).
    await rx.waitFor(2, 12_000);
    const again = performance.now() - killedAt;
    const [first, second] = rx.received;
    assert.equal(second.headers.get("webhook-id"), first.headers.get("webhook-id"));
    assert.equal(second.json.event, "timer.started");
    assert.ok(again < 12_000, `sent again ${Math.round(again)} ms after the kill`);
    const told = JSON.parse(await logLine(next, "predecessor gone"));
    assert.equal(told.slot, 0);
    assert.equal(told.predecessor, a.listening.instance);
  } finally {
    hung.resolve();
    await a.kill().catch(() => {});
    if (next) assert.equal(await next.stop(), 0);
    await rx.close();
    await kvc.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("over KV Connect, a slot file that names a running instance (a folder shared with another machine) marks nothing: its heartbeat still beats", async () => {
  const kvc = await startKvConnect();
  const [dirA, dirB] = [await Deno.makeTempDir(), await Deno.makeTempDir()];
  const a = await startInstance(kvc, { INSTANCE_DIR: dirA });
  let b: Awaited<ReturnType<typeof startInstance>> | null = null;
  try {
    await logLine(a, "instance slot");
    // B's folder holds, in a file of its own (as a lock that did not keep B out would leave it), A's line.
    const [name] = [...Deno.readDirSync(dirA)].map((e) => e.name);
    const file = `${dirB}/${name}`;
    Deno.writeTextFileSync(file, "");
    const { dev, ino } = Deno.statSync(file);
    Deno.writeTextFileSync(file, `${a.listening.instance} ${dev} ${ino}\n`);
    b = await startInstance(kvc, { INSTANCE_DIR: dirB });
    assert.equal(JSON.parse(await logLine(b, "instance slot")).predecessor, a.listening.instance);
    const warned = JSON.parse(await logLine(b, "predecessor still beating"));
    assert.equal(warned.predecessor, a.listening.instance);
    assert.ok(!b.log.some((l) => l.includes('"msg":"predecessor gone"')));
    const kv = await kvc.open();
    const beat = await kv.get(["instance", a.listening.instance]);
    kv.close();
    assert.notEqual(beat.value, STOPPED);
    assert.equal(typeof beat.value, "string");
  } finally {
    await a.stop();
    if (b) await b.stop();
    await kvc.stop();
    for (const d of [dirA, dirB]) await Deno.remove(d, { recursive: true });
  }
});
