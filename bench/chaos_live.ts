/**
 * The chaos run's cross-instance live-page check (issue 30: over a shared remote KV a live page
 * follows changes made through any instance). Round after round the prober creates a countdown,
 * holds its viewer stream (`GET /live/:id`, Server-Sent Events fed by kv.watch) open on one live
 * instance B, waits for its first snapshot, then changes the timer through other instances A
 * (start, pause, resume, stop, reset) one after another. A sample is one change answered 200:
 *
 *   latency = the instant the driver read, on B's stream, the first `timer` event in the state A
 *             answered − the instant A's answer reached the driver.
 *
 * It can be ≤ 0 (B's page showed it before A's answer arrived). No event within `timeoutMs` is a
 * miss. `judgeLive` (pure) excuses a sample only when its instance A was killed, or the KV server
 * was down, between the change's send and the end of its wait, or its B was killed between the
 * stream's opening and the end of the wait; every other sample counts.
 */
import type { Kill } from "./chaos_ledger.ts";

/** A live instance: its slot in the cluster and base URL. */
export interface LiveInstance {
  instance: number;
  base: string;
}

export interface LiveInstances {
  live(): LiveInstance[];
}

export interface LiveSample {
  /** Instance slots: the change went to A, the stream was held on B. */
  a: number;
  b: number;
  action: string;
  /** Driver clock (ms): the PATCH sent, its answer, the event read on B (null: none). */
  sent: number;
  answered: number;
  seen: number | null;
  /** When the wait ended without the event: the stream ended (B gone…) or the timeout passed. */
  ended?: number;
  why?: "stream ended" | "timeout";
}

/** A span during which the KV server was down (stopped … listening again). */
export interface Outage {
  from: number;
  to: number;
}

export interface LiveLedger {
  rounds: number;
  /** Streams that gave no first snapshot (B killed or the KV down while opening, else a failure: counted below). */
  streams_failed: number;
  streams_failed_unexcused: number;
  /** Changes through A answered something else than 200 (A killed, KV down): no sample. */
  changes_unanswered: number;
  samples: number;
  excused: number;
  judged: number;
  within_1s: number;
  /** within_1s / judged (1 when nothing was judged). */
  share_within_1s: number;
  missed: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number; min: number } | null;
  late_examples: { a: number; b: number; action: string; latency_ms: number | null; why?: string }[];
  failed_stream_examples: { b: number; why?: string }[];
}

export interface LiveRound {
  samples: LiveSample[];
  /** The stream gave no first snapshot within the timeout (null: it did). */
  failedAt: number | null;
  /** Why it failed: the stream's HTTP status, or how the wait for its first snapshot ended. */
  why?: string;
  b: number;
  opened: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Reads Server-Sent Events from a response, one at a time, with a timeout per read. */
class SseReader {
  #reader: ReadableStreamDefaultReader<string>;
  #buf = "";
  #pending: Promise<ReadableStreamReadResult<string>> | null = null;
  #done = false;
  constructor(res: Response) {
    this.#reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next event; "end" when the stream ended, "timeout" past `deadline` (driver clock). */
  async next(deadline: number): Promise<{ event: string; data: string; at: number } | "end" | "timeout"> {
    for (;;) {
      const cut = this.#buf.indexOf("\n\n");
      if (cut >= 0) {
        const block = this.#buf.slice(0, cut);
        this.#buf = this.#buf.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) return { event, data, at: Date.now() };
        continue;
      }
      if (this.#done) return "end";
      this.#pending ??= this.#reader.read().catch(() => ({ done: true, value: undefined }));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const r = await Promise.race([
        this.#pending,
        new Promise<"timeout">((res) => timer = setTimeout(() => res("timeout"), Math.max(0, deadline - Date.now()))),
      ]);
      clearTimeout(timer);
      if (r === "timeout") return "timeout";
      this.#pending = null;
      if (r.done) this.#done = true;
      else this.#buf += r.value;
    }
  }

  /** Waits for a `timer` event whose state is `state`: its read time, or why none came. */
  async waitState(state: string, deadline: number): Promise<number | "stream ended" | "timeout"> {
    for (;;) {
      const e = await this.next(deadline);
      if (e === "end") return "stream ended";
      if (e === "timeout") return "timeout";
      if (e.event === "gone") return "stream ended";
      if (e.event !== "timer") continue;
      if ((JSON.parse(e.data) as { timer: { state: string } }).timer.state === state) return e.at;
    }
  }

  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

/** The changes of one round, each answered in the state named. */
const CHANGES: [string, string][] = [
  ["start", "running"],
  ["pause", "paused"],
  ["resume", "running"],
  ["stop", "stopped"],
  ["reset", "idle"],
];

export class LiveProbe {
  readonly rounds: LiveRound[] = [];
  unanswered = 0;
  #client = Deno.createHttpClient({});

  constructor(
    readonly o: {
      instances: LiveInstances;
      key: string;
      /** How long a change may take to show on B before it counts as missed (ms). */
      timeoutMs?: number;
      /** Pause between changes (ms, random within). */
      gapMs?: [number, number];
      log?: (r: unknown) => void;
    },
  ) {}

  async #call(base: string, method: string, path: string, body?: unknown) {
    const sent = Date.now();
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.o.key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        client: this.#client,
        signal: AbortSignal.timeout(30_000),
      });
      const json = await res.json().catch(() => ({}));
      return { status: res.status as number | null, json, sent, answered: Date.now() };
    } catch {
      return { status: null, json: {}, sent, answered: Date.now() };
    }
  }

  /** Rounds until `stopped()`; at least two live instances are needed for each. */
  async run(stopped: () => boolean): Promise<void> {
    const timeoutMs = this.o.timeoutMs ?? 10_000;
    const [gapLo, gapHi] = this.o.gapMs ?? [300, 1000];
    const pick = (xs: LiveInstance[]) => xs[Math.floor(Math.random() * xs.length)];
    while (!stopped()) {
      const live = this.o.instances.live();
      if (live.length < 2) {
        await sleep(200);
        continue;
      }
      const made = await this.#call(pick(live).base, "POST", "/api/v1/timers", {
        type: "countdown",
        duration: 3600,
        title: "chaos live",
      });
      if (made.status !== 201) {
        await sleep(500);
        continue;
      }
      const id = made.json.timer_id as string;
      // Picked after the opening instant: a kill of B before it leaves B out of the list.
      const opened = Date.now();
      const now = this.o.instances.live();
      if (now.length < 2) continue;
      const b = pick(now);
      const round: LiveRound = { samples: [], failedAt: null, b: b.instance, opened };
      const abort = new AbortController();
      // A client of its own: its connection, and with it the stream's place on B (20 per address), goes with the round.
      const streamClient = Deno.createHttpClient({});
      let sse: SseReader | null = null;
      try {
        const res = await fetch(`${b.base}/live/${id}`, { signal: abort.signal, client: streamClient }).catch(() =>
          null
        );
        if (res?.status === 200) sse = new SseReader(res);
        else await res?.body?.cancel();
        const first = sse ? await sse.waitState("idle", Date.now() + timeoutMs) : `status ${res?.status ?? "none"}`;
        if (typeof first !== "number") {
          round.failedAt = Date.now();
          round.why = first;
          this.o.log?.({ kind: "live-stream-failed", timer_id: id, b: b.instance, at: round.failedAt, why: first });
          continue;
        }
        for (const [action, state] of CHANGES) {
          if (stopped()) break;
          await sleep(gapLo + Math.random() * (gapHi - gapLo));
          const others = this.o.instances.live().filter((x) => x.instance !== b.instance);
          if (!others.length) break;
          const a = pick(others);
          const r = await this.#call(a.base, "PATCH", `/api/v1/timers/${id}/state`, { action });
          if (r.status !== 200 || r.json.state !== state) {
            this.unanswered++;
            break; // the timer's state is no longer known
          }
          const seen = await sse!.waitState(state, r.answered + timeoutMs);
          const s: LiveSample = {
            a: a.instance,
            b: b.instance,
            action,
            sent: r.sent,
            answered: r.answered,
            seen: typeof seen === "number" ? seen : null,
            ...(typeof seen !== "number" && { ended: Date.now(), why: seen }),
          };
          round.samples.push(s);
          this.o.log?.({ kind: "live", timer_id: id, ...s });
          if (s.seen === null) break;
        }
      } finally {
        this.rounds.push(round);
        abort.abort();
        await sse?.close();
        streamClient.close();
      }
    }
  }

  close(): void {
    this.#client.close();
  }
}

/**
 * Judges the samples: a sample is excused when a kill of its A, or a KV outage, falls between its
 * change's send and the end of its wait (the event read, or the wait given up), or a kill of its B
 * between the round's opening (the stream it is read on) and that end; a stream that
 * gave no first snapshot, likewise between its opening and its failure. Every other sample counts.
 */
export function judgeLive(rounds: LiveRound[], unanswered: number, kills: Kill[], outages: Outage[]): LiveLedger {
  const killed = (from: number, to: number, instance: number) =>
    kills.some((k) => k.instance === instance && k.at >= from && k.at <= to);
  const down = (from: number, to: number) => outages.some((o) => o.from <= to && o.to >= from);
  const out: LiveLedger = {
    rounds: rounds.length,
    streams_failed: 0,
    streams_failed_unexcused: 0,
    changes_unanswered: unanswered,
    samples: 0,
    excused: 0,
    judged: 0,
    within_1s: 0,
    share_within_1s: 1,
    missed: 0,
    latency_ms: null,
    late_examples: [],
    failed_stream_examples: [],
  };
  const latencies: number[] = [];
  for (const r of rounds) {
    if (r.failedAt !== null) {
      out.streams_failed++;
      if (!killed(r.opened, r.failedAt, r.b) && !down(r.opened, r.failedAt)) {
        out.streams_failed_unexcused++;
        if (out.failed_stream_examples.length < 10) out.failed_stream_examples.push({ b: r.b, why: r.why });
      }
    }
    for (const s of r.samples) {
      out.samples++;
      const end = s.seen ?? s.ended ?? s.answered;
      // B's stream lives from the round's opening: a kill of B since then leaves nothing to see it on.
      if (killed(s.sent, end, s.a) || down(s.sent, end) || killed(r.opened, end, s.b)) {
        out.excused++;
        continue;
      }
      out.judged++;
      const latency = s.seen === null ? null : s.seen - s.answered;
      if (latency !== null) latencies.push(latency);
      if (latency !== null && latency <= 1000) out.within_1s++;
      else {
        if (latency === null) out.missed++;
        if (out.late_examples.length < 10) {
          out.late_examples.push({
            a: s.a,
            b: s.b,
            action: s.action,
            latency_ms: latency,
            ...(s.why && { why: s.why }),
          });
        }
      }
    }
  }
  out.share_within_1s = out.judged ? out.within_1s / out.judged : 1;
  if (latencies.length) {
    const xs = latencies.sort((x, y) => x - y);
    const q = (p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
    out.latency_ms = { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: xs[xs.length - 1], min: xs[0] };
  }
  return out;
}

/** The promise the live check keeps or breaks. */
export function brokenLive(l: LiveLedger): string[] {
  const out: string[] = [];
  if (l.judged === 0) out.push("the live check judged no sample");
  if (l.within_1s < l.judged) {
    out.push(`${l.judged - l.within_1s} of ${l.judged} live-page changes not seen on another instance within 1 s`);
  }
  if (l.streams_failed_unexcused > 0) out.push(`${l.streams_failed_unexcused} live streams gave no first snapshot`);
  return out;
}
