/**
 * The delivery half alone, for quick A/B runs of lib/webhooks (not a section of `deno task bench`):
 * N deliveries written claimed by this process in a fresh KV file, as a burst's completions leave
 * them, handed to the app's Sender at once; each is checked, signed, POSTed to bench/receiver.ts
 * (its own process) and its outcome recorded. Prints the CPU of this process per delivery, all
 * threads, from the first hand-over until every outcome is recorded:
 * {"msg":"delivery_half","n","cpu_ms_per_delivery","wall_ms","succeeded"}.
 *
 *   deno run -A bench/delivery_half.ts [N=10000]
 *
 * Run it from two checkouts in turn, several times each: one run varies by ±15 % on a shared machine.
 */
import process from "node:process";
import { setup } from "../tests/helpers.ts";
import type { Delivery } from "../lib/webhooks/delivery_model.ts";
import { key } from "../lib/kv/keys.ts";
import { spawn } from "./harness.ts";

const n = Number(Deno.args[0] ?? 10_000);
const rx = await spawn("receiver", "bench/receiver.ts", { DELAY_MS: "0" });
const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
const s = await setup({ realTime: true, kvPath, config: { webhookAllowPrivate: true } });
try {
  const sender = s.app.scheduler.sender;
  // A beat landed before the claims, as in a running process: waited first attempts may go unread (sender.ts).
  await s.app.scheduler.beat();
  const now = Date.now();
  const deliveries: Delivery[] = Array.from({ length: n }, (_, i) => {
    const id = `evt_${now.toString(36)}${String(i).padStart(14, "0")}`;
    const timerId = `tmr_bench${String(i).padStart(11, "0")}`;
    const at = new Date(now).toISOString();
    return {
      id,
      timer_id: timerId,
      account_id: s.pro.account.id,
      url: `${rx.base}/hook`,
      payload: {
        id,
        event: "timer.completed",
        timestamp: at,
        timer_id: timerId,
        title: `Bench ${i}`,
        type: "event",
        data: {},
      },
      state: "pending",
      attempts: [],
      next_attempt_at: now + sender.leaseMs,
      claimed: true,
      claimed_by: sender.deps.lease.instance,
      created_at: now,
    };
  });
  const stamps: string[] = [];
  for (let i = 0; i < n; i += 200) {
    const part = deliveries.slice(i, i + 200);
    const op = s.kv.atomic();
    for (const d of part) op.set(key.delivery(d.timer_id, d.id), d);
    const res = await op.commit();
    if (!res.ok) throw new Error("could not write the deliveries");
    for (const _ of part) stamps.push(res.versionstamp);
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  deliveries.forEach((d, i) => sender.submit(d, stamps[i]));
  await sender.settled();
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  let succeeded = 0;
  for await (const e of s.kv.list<Delivery>({ prefix: ["delivery"] })) if (e.value.state === "succeeded") succeeded++;
  // deno-lint-ignore no-console
  console.log(JSON.stringify({
    msg: "delivery_half",
    n,
    cpu_ms_per_delivery: Math.round((used.user + used.system) / n) / 1000,
    wall_ms: Math.round(wall),
    succeeded,
  }));
} finally {
  await s.close();
  await rx.stop();
  for (const p of [kvPath, `${kvPath}-wal`, `${kvPath}-shm`]) await Deno.remove(p).catch(() => {});
}
