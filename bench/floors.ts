/**
 * 2a. The machine's floors for completions, measured in the same run as the figures they bound:
 * local KV commits completing timers at 1, 10 and 100 per commit, and bare signed `fetch` POSTs to
 * a receiver in another process at concurrency 32–256. Memoised: the precision section divides by
 * the sender floor.
 */
import { cpuMs, log, spawn, tempKv } from "./harness.ts";
import type { Mode, Result } from "./result.ts";

export interface SenderFloor {
  per_s: Record<string, number>;
  best: number;
  sent: number;
  /** CPU (all threads) per POST of the sender and of the receiver. */
  cpu_ms_per_post: number;
  receiver_cpu_ms_per_post: number;
}

let sender: Promise<SenderFloor> | null = null;

/** Bare signed fetch POSTs/s to a receiver in its own process (best over concurrency 32–256), once per run. */
export function senderFloor(quick: boolean) {
  sender ??= (async () => {
    const rx = await spawn("receiver-floor", "bench/receiver.ts", { DELAY_MS: "0" });
    const rxCpu = cpuMs(rx.pid);
    const p = await spawn("floor-sender", "bench/floor_sender.ts", {
      RECEIVER: `${rx.base}/hook`,
      SECONDS: quick ? "1" : "1.5",
    }, { listen: false });
    try {
      const out = JSON.parse(await p.waitLine(/"msg":"sender_floor"/, 60_000));
      const receiver = (cpuMs(rx.pid) - rxCpu) / Math.max(1, out.sent);
      return { ...out, receiver_cpu_ms_per_post: Math.round(receiver * 1e4) / 1e4 } as SenderFloor;
    } finally {
      await p.stop();
      await rx.stop();
    }
  })();
  return sender;
}

export async function floors(mode: Mode): Promise<Result[]> {
  const kv = await tempKv("floor-commit");
  log("floors: local KV commits completing timers (check + 3 writes), 1/10/100 per commit");
  const p = await spawn("floor-commit", "bench/floor_commit.ts", {
    KV_PATH: kv.path,
    SECONDS: mode.quick ? "1" : "2",
  }, { listen: false });
  let commit: { per_s: Record<string, number> };
  try {
    commit = JSON.parse(await p.waitLine(/"msg":"commit_floor"/, 180_000));
  } finally {
    await p.stop();
    await kv.cleanup();
  }
  log("floors: bare signed fetch POSTs to a receiver in another process, concurrency 32–256");
  const send = await senderFloor(mode.quick);
  return [
    ...["1", "10", "100"].map((b) => ({
      name: `floor_kv_completions_per_s_batch${b}`,
      value: commit.per_s[b],
      unit: "timers/s",
      target: "report",
      met: null,
      note: b === "100" ? "local KV: check + 3 writes per timer, this many per commit" : undefined,
    })),
    {
      name: "floor_signed_fetch_posts_per_s",
      value: send.best,
      unit: "POST/s",
      target: "report",
      met: null,
      per_concurrency: send.per_s,
      cpu_ms_per_post: send.cpu_ms_per_post,
      receiver_cpu_ms_per_post: send.receiver_cpu_ms_per_post,
    },
  ];
}
