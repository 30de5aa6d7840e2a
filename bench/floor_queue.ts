/**
 * Reference for completion precision: bare Deno KV queue messages on a fresh KV file.
 * Enqueues N messages (CONCURRENCY at a time) whose delay makes each arrive at DEADLINE
 * (epoch ms), listens with kv.listenQueue and records Date.now() − DEADLINE per message.
 * Prints one JSON line {"msg":"queue_result", …} and exits when all arrived or after WAIT_MS.
 */
const n = Number(Deno.env.get("N") ?? 1000);
const deadline = Number(Deno.env.get("DEADLINE"));
const waitMs = Number(Deno.env.get("WAIT_MS") ?? 60_000);
const concurrency = Number(Deno.env.get("CONCURRENCY") ?? 32);
const kv = await Deno.openKv(Deno.env.get("KV_PATH")!);

const lateness: number[] = [];
const seen = new Set<number>();
let duplicates = 0;
const { promise: all, resolve } = Promise.withResolvers<void>();
kv.listenQueue((msg: { i: number }) => {
  const late = Date.now() - deadline;
  if (seen.has(msg.i)) duplicates++;
  else {
    seen.add(msg.i);
    lateness.push(late);
  }
  if (seen.size >= n) resolve();
});

const t0 = Date.now();
let next = 0;
let enqueuedLate = 0;
await Promise.all(Array.from({ length: concurrency }, async () => {
  for (;;) {
    const i = next++;
    if (i >= n) return;
    const d = deadline - Date.now();
    if (d < 0) enqueuedLate++;
    await kv.enqueue({ i }, { delay: Math.max(0, d) });
  }
}));
const enqueueEnd = Date.now();
const enqueueMs = enqueueEnd - t0;
const timeout = setTimeout(resolve, Math.max(0, deadline - Date.now()) + waitMs);
await all;
clearTimeout(timeout);
// deno-lint-ignore no-console
console.log(JSON.stringify({
  msg: "queue_result",
  n,
  received: seen.size,
  duplicates,
  enqueue_ms: enqueueMs,
  lead_ms: deadline - enqueueEnd,
  enqueued_after_deadline: enqueuedLate,
  lateness,
}));
kv.close();
Deno.exit(0);
