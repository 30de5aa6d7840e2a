/**
 * Sender floor: bare Deno `fetch` POSTs, each signed like a webhook (HMAC included, the project's
 * signDelivery), to a receiver in another process (RECEIVER), over one keep-alive client, at each
 * concurrency of CONCURRENCIES for SECONDS. Prints {"msg":"sender_floor", "per_s": {"32":…, …}, "best",
 * "sent", "cpu_ms_per_post"} (this process's CPU, all threads, per POST).
 */
import { signDelivery } from "../lib/webhooks/signing.ts";
import { cpuMs } from "./harness.ts";

const url = Deno.env.get("RECEIVER")!;
const seconds = Number(Deno.env.get("SECONDS") ?? 1.5);
const levels = (Deno.env.get("CONCURRENCIES") ?? "32,64,128,256").split(",").map(Number);
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const perS: Record<string, number> = {};
let total = 0;
const cpu0 = cpuMs("self");
const client = Deno.createHttpClient({});
let n = 0;
for (const c of [levels[0], ...levels]) {
  let sent = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: c }, async () => {
    while (performance.now() - t0 < seconds * 1000) {
      const id = `evt_floor${n++}`;
      const payload = {
        id,
        event: "timer.completed",
        timestamp: new Date().toISOString(),
        timer_id: `tmr_floor${n % 1000}`,
        title: "floor",
        type: "event" as const,
        data: { state: "completed", duration: 60, actual_duration: 60, started_at: null, completed_at: null },
      };
      const req = signDelivery(payload, [secret], Date.now());
      const res = await fetch(url, { method: "POST", headers: req.headers, body: req.body, client });
      await res.arrayBuffer();
      sent++;
      total++;
    }
  }));
  perS[c] = Math.round(sent / ((performance.now() - t0) / 1000)); // the first level runs twice: warm-up
}
client.close();
// deno-lint-ignore no-console
console.log(JSON.stringify({
  msg: "sender_floor",
  per_s: perS,
  best: Math.max(...Object.values(perS)),
  sent: total,
  cpu_ms_per_post: Math.round((cpuMs("self") - cpu0) / total * 1e4) / 1e4,
}));
