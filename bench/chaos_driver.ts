/**
 * The chaos run's load: actors that create timers (countdowns of a few seconds, events, intervals
 * with short work and rest), act on them (start, pause, resume, reset, stop, adjust) and delete some,
 * and bursts of event timers due in one second — every request spread over the live instances,
 * every answer logged with its times. The driver stays clear of a timer's clock instants when it
 * acts, so the ledger knows which events each answer implies (chaos_ledger.ts).
 */
import {
  type ActionName,
  type Instant,
  instantsOf,
  type Snapshot,
  type Step,
  type TimerKind,
  type TimerLog,
} from "./chaos_ledger.ts";

/** Where requests go: a live instance's base URL, or null while none is up. */
export interface Instances {
  pick(): string | null;
}

export interface ApiRecord {
  kind: "api";
  method: string;
  path: string;
  base: string | null;
  sent: number;
  answered: number;
  status: number | null;
  error?: string;
}

export interface BurstInfo {
  index: number;
  size: number;
  created: number;
  refused: number;
  target: number;
  deleted: number;
  ids: string[];
}

export interface DriverOptions {
  instances: Instances;
  keys: string[];
  hook: string;
  log: (rec: ApiRecord) => void;
  /** Per-request timeout (ms): past it the outcome is unknown. */
  timeoutMs?: number;
  random?: () => number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Room the driver leaves before a clock instant's window (ms), and after it. */
const GUARD_BEFORE_MS = 1500;
const GUARD_AFTER_MS = 700;

export class Driver {
  readonly timers: TimerLog[] = [];
  readonly bursts: BurstInfo[] = [];
  /** The due instant of every burst begun (the killer aims at some). */
  readonly burstTargets: number[] = [];
  readonly statuses: Record<string, number> = {};
  readonly latencies: number[] = [];
  #client = Deno.createHttpClient({});
  #rand: () => number;
  #keyIndex = 0;
  /** The API key each timer was created with (its account's). */
  #keyOf = new Map<string, string>();

  constructor(readonly o: DriverOptions) {
    this.#rand = o.random ?? Math.random;
  }

  #int(lo: number, hi: number): number {
    return lo + Math.floor(this.#rand() * (hi - lo + 1));
  }

  #one<T>(xs: T[]): T {
    return xs[Math.floor(this.#rand() * xs.length)];
  }

  /** One API request to a random live instance; status null when no answer came (unknown outcome). */
  async call(method: string, path: string, body?: unknown, key?: string) {
    let base = this.o.instances.pick();
    while (!base) {
      await sleep(100);
      base = this.o.instances.pick();
    }
    const sent = Date.now();
    let status: number | null = null;
    let json: Record<string, unknown> = {};
    let error: string | undefined;
    try {
      const res = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key ?? this.o.keys[0]}`,
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        client: this.#client,
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 60_000),
      });
      const text = await res.text();
      status = res.status;
      try {
        json = JSON.parse(text);
      } catch { /* not JSON */ }
    } catch (e) {
      error = String(e).slice(0, 200);
    }
    const answered = Date.now();
    const label = status === null ? "network" : String(status);
    this.statuses[label] = (this.statuses[label] ?? 0) + 1;
    if (status !== null) this.latencies.push(answered - sent);
    this.o.log({ kind: "api", method, path, base, sent, answered, status, ...(error && { error }) });
    return { status, json, sent, answered };
  }

  #key(): string {
    return this.o.keys[this.#keyIndex++ % this.o.keys.length];
  }

  async #create(type: TimerKind, body: Record<string, unknown>, burst?: number): Promise<TimerLog | null> {
    const key = this.#key();
    const r = await this.call("POST", "/timers", { type, webhook_url: this.o.hook, ...body }, key);
    if (r.status !== 201) return null;
    const t: TimerLog = {
      id: r.json.timer_id as string,
      type,
      ...(burst !== undefined && { burst }),
      steps: [{ kind: "create", sent: r.sent, answered: r.answered, status: 201, snap: snap(r.json) }],
    };
    this.#keyOf.set(t.id, key);
    this.timers.push(t);
    return t;
  }

  async #act(t: TimerLog, action: ActionName, seconds?: number): Promise<Step> {
    const body = action === "adjust" ? { action, seconds } : { action };
    const r = await this.call("PATCH", `/timers/${t.id}/state`, body, this.#keyOf.get(t.id));
    const step: Step = {
      kind: "action",
      action,
      ...(seconds !== undefined && { seconds }),
      sent: r.sent,
      answered: r.answered,
      status: r.status,
      ...(r.status === 200 && { snap: snap(r.json) }),
    };
    t.steps.push(step);
    return step;
  }

  /** DELETE until an answer says the timer is gone (200, or 404 after an answer was lost). */
  async delete(t: TimerLog): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const r = await this.call("DELETE", `/timers/${t.id}`, undefined, this.#keyOf.get(t.id));
      t.steps.push({ kind: "delete", sent: r.sent, answered: r.answered, status: r.status });
      if (r.status === 200 || r.status === 404) {
        t.deletedAt = r.answered;
        return;
      }
      await sleep(200);
    }
  }

  /** The last answer that set the timer's state (creation or an action answered 200). */
  #checkpoint(t: TimerLog): Step {
    return t.steps.findLast((s) => s.status === 200 || s.status === 201)!;
  }

  /** Waits while now is close to one of the timer's clock instants, so an action lands clearly before or after. */
  async #guard(t: TimerLog): Promise<void> {
    for (;;) {
      const now = Date.now();
      const near = instantsOf(this.#checkpoint(t)).find((i) =>
        now >= i.lo - GUARD_BEFORE_MS && now <= i.hi + GUARD_AFTER_MS
      );
      if (!near) return;
      await sleep(near.hi + GUARD_AFTER_MS - now);
    }
  }

  /** The state the timer is in now by its last answer and the clock instants passed since. */
  #predict(t: TimerLog): { state: string; next?: Instant; snap: Snapshot } {
    const cp = this.#checkpoint(t);
    const now = Date.now();
    const instants = instantsOf(cp);
    const passed = instants.filter((i) => i.hi < now);
    const state = passed.some((i) => i.after === "completed") ? "completed" : cp.snap!.state;
    return { state, next: instants.find((i) => i.hi >= now), snap: cp.snap! };
  }

  #choose(t: TimerLog): ActionName | "wait" | "end" {
    const { state, next } = this.#predict(t);
    const wait = next ? ["wait" as const] : [];
    const options: Record<TimerKind, Record<string, (ActionName | "wait" | "end")[]>> = {
      countdown: {
        idle: ["start"],
        running: ["pause", "stop", "adjust", "reset", ...wait],
        paused: ["resume", "stop", "reset", "adjust"],
        completed: ["reset", "end"],
        stopped: ["reset", "end"],
      },
      interval: {
        idle: ["start"],
        running: ["pause", "stop", "reset", ...wait, ...wait],
        paused: ["resume", "stop", "reset"],
        completed: ["reset", "end"],
        stopped: ["reset", "end"],
      },
      event: {
        idle: ["start", ...wait],
        running: ["stop", ...wait],
        stopped: ["reset", "end"],
        completed: ["end", "end", "reset"],
      },
    };
    return this.#one(options[t.type][state] ?? ["end"]);
  }

  /** Creates timers and plays with them until `stopped()` says so. */
  async actor(stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      const type = this.#one<TimerKind>(["countdown", "countdown", "interval", "event"]);
      const body: Record<string, unknown> = type === "countdown"
        ? { duration: this.#int(2, 6) }
        : type === "interval"
        ? { work: this.#int(2, 3), rest: this.#int(1, 2), rounds: this.#int(2, 3) }
        : { target_date: new Date(Date.now() + this.#int(4000, 12000)).toISOString() };
      const t = await this.#create(type, { title: `chaos ${type}`, ...body });
      if (!t) {
        await sleep(200);
        continue;
      }
      const steps = this.#int(2, 8);
      for (let i = 0; i < steps && !stopped(); i++) {
        await sleep(this.#int(100, 1500));
        await this.#guard(t);
        const choice = this.#choose(t);
        if (choice === "end") break;
        if (choice === "wait") {
          const { next } = this.#predict(t);
          if (next) await sleep(next.hi + GUARD_AFTER_MS - Date.now());
          continue;
        }
        const step = await this.#act(t, choice, choice === "adjust" ? this.#one([1, 2, 3, -1]) : undefined);
        // An unknown outcome: the timer's state is no longer known; leave it (or delete it below).
        if (step.status === null || step.status >= 500) break;
      }
      if (!stopped() && this.#rand() < 0.35) {
        await sleep(this.#int(0, 2500));
        await this.delete(t);
      }
    }
  }

  /**
   * `size` event timers due at one whole second, created by `concurrency` workers; about 3 % of
   * them are deleted around that second (some before, some while the burst is sent).
   */
  async burst(size: number, concurrency: number, msPerCreate: number): Promise<BurstInfo> {
    const target = Math.ceil((Date.now() + 4000 + size * msPerCreate) / 1000) * 1000;
    this.burstTargets.push(target);
    const info: BurstInfo = { index: this.bursts.length, size, created: 0, refused: 0, target, deleted: 0, ids: [] };
    this.bursts.push(info);
    const made: TimerLog[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < size && Date.now() < target - 1500) {
        const i = next++;
        const t = await this.#create(
          "event",
          { title: `burst ${info.index}.${i}`, target_date: new Date(target).toISOString() },
          info.index,
        );
        if (t) made.push(t);
        else info.refused++;
      }
    }));
    info.created = made.length;
    info.ids = made.map((t) => t.id);
    const doomed = made.filter(() => this.#rand() < 0.03);
    info.deleted = doomed.length;
    await Promise.all(doomed.map(async (t) => {
      await sleep(target + this.#int(-1000, 1500) - Date.now());
      await this.delete(t);
    }));
    return info;
  }

  close(): void {
    this.#client.close();
  }
}

function snap(j: Record<string, unknown>): Snapshot {
  return {
    state: j.state as string,
    remaining_seconds: (j.remaining_seconds ?? null) as number | null,
    ...(j.target_date !== undefined && { target_date: j.target_date as string }),
    ...(j.work !== undefined && { work: j.work as number }),
    ...(j.rest !== undefined && { rest: j.rest as number }),
    ...(j.rounds !== undefined && { rounds: j.rounds as number | null }),
    ...(j.interval !== undefined && { interval: j.interval as Snapshot["interval"] }),
  };
}
