/**
 * 2a. The machine's floors for completions, measured in the same run as the figures they bound:
 * local KV commits completing timers at 1, 10 and 100 per commit, and bare signed `fetch` POSTs to
 * a receiver in another process at concurrency 32–256, and both together (completions and outcomes
 * recorded around bare signed POSTs). Memoised: the precision section divides by the two delivery floors.
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

export interface SendRecordFloor {
  /** Deliveries/s with every completion and outcome recorded, best setting, answers unrecorded unbounded. */
  per_s: number;
  /**
   * The same with at most `bound` deliveries POSTed and not yet recorded (the service's bound on a
   * crash's duplicates, lib/webhooks/unrecorded.ts MAX_OPEN).
   */
  per_s_bounded: number | null;
  bound: number;
  by_setting: Record<string, number>;
  cpu_ms_per_timer: number;
}

let sendRecord: Promise<SendRecordFloor> | null = null;

/** Bare signed POSTs with each completion and outcome recorded in local KV (floor_send_record.ts), once per run. */
export function sendRecordFloor(quick: boolean) {
  sendRecord ??= (async () => {
    const rx = await spawn("receiver-floor2", "bench/receiver.ts", { DELAY_MS: "0" });
    try {
      const p = await spawn("floor-send-record", "bench/floor_send_record.ts", {
        RECEIVER: `${rx.base}/hook`,
        N: quick ? "2000" : "10000",
        CONCURRENCIES: quick ? "32" : "32,64",
      }, { listen: false });
      try {
        return JSON.parse(await p.waitLine(/"msg":"send_record_floor"/, 120_000)) as SendRecordFloor;
      } finally {
        await p.stop();
      }
    } finally {
      await rx.stop();
    }
  })();
  return sendRecord;
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
  log("floors: the same POSTs with each completion and outcome recorded in local KV (send and record)");
  const both = await sendRecordFloor(mode.quick);
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
    {
      name: "floor_send_and_record_per_s",
      value: both.per_s,
      unit: "deliveries/s",
      target: "report",
      met: null,
      note:
        "signed fetch POSTs, each completion (check + 3 writes, 100 per commit) and outcome (check + write) recorded",
      per_s_bounded: both.per_s_bounded,
      bound: both.bound,
      by_setting: both.by_setting,
      cpu_ms_per_timer: both.cpu_ms_per_timer,
      vs_sender_floor: Math.round((both.per_s / send.best) * 1000) / 1000,
    },
  ];
}
