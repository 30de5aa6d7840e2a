/**
 * One Companion connection to one timer: follows its public live stream, keeps the server clock
 * offset, recomputes the face every 250 ms, and reports variables and feedbacks when they change.
 * Actions go through the API with the control token. Nothing here depends on Companion.
 */
import { type Action, TimerApi } from "./api.ts";
import type { Target } from "./link.ts";
import { EventStream } from "./sse.ts";
import {
  type Face,
  faceAt,
  FEEDBACK_IDS,
  type Feedbacks,
  feedbacksOf,
  type LiveSnapshot,
  type Message,
  NO_VARIABLES,
  type Variables,
  variablesOf,
} from "./state.ts";

export const TICK_MS = 250;

/** Connection status, as Companion's module status shows it. */
export type Status =
  | { kind: "connecting" }
  | { kind: "ok" }
  | { kind: "disconnected"; message: string }
  | { kind: "gone"; message: string };

export interface ConnectionHandlers {
  /** Variables whose values changed (all of them the first time). */
  onVariables(changed: Partial<Variables>): void;
  /** Feedbacks whose values changed. */
  onFeedbacks(changed: (keyof Feedbacks)[]): void;
  onStatus(status: Status): void;
}

/**
 * The clock offset (server − local) from recent samples: a sample delayed in transit only
 * understates it, so the largest of the last few is the best estimate.
 */
export class ClockOffset {
  #samples: number[] = [];
  add(serverNow: number, localNow: number): number {
    this.#samples = [...this.#samples.slice(-7), serverNow - localNow];
    return this.value;
  }
  get value(): number {
    return this.#samples.length ? Math.max(...this.#samples) : 0;
  }
}

export class Connection {
  readonly api: TimerApi;
  #stream: EventStream | null = null;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #offset = new ClockOffset();
  #snapshot: LiveSnapshot | null = null;
  #open = false;
  #variables: Variables = { ...NO_VARIABLES };
  #feedbacks: Feedbacks = feedbacksOf(null, null, false);
  #first = true;
  readonly #now: () => number;
  readonly #fetch: typeof fetch;

  constructor(
    readonly target: Target,
    private readonly handlers: ConnectionHandlers,
    opts: { fetch?: typeof fetch; now?: () => number } = {},
  ) {
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.#now = opts.now ?? Date.now;
    this.api = new TimerApi(target, this.#fetch);
  }

  /** Opens the live stream and starts the 250 ms recomputation. */
  start(): void {
    if (this.#stream) return;
    this.handlers.onStatus({ kind: "connecting" });
    this.#stream = new EventStream(
      `${this.target.site}/live/${encodeURIComponent(this.target.timerId)}`,
      {
        onOpen: () => {},
        onEvent: (e) => this.#onEvent(e.event, e.data),
        onDown: (reason) => {
          this.#open = false;
          this.handlers.onStatus({ kind: "disconnected", message: reason });
          this.#refresh();
        },
        onGone: () => this.#gone("the timer is gone (deleted or expired), or the link is wrong"),
      },
      { fetch: this.#fetch },
    );
    this.#ticker = setInterval(() => this.#refresh(), TICK_MS);
    this.#refresh();
  }

  #onEvent(event: string, data: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const received = this.#now();
    if (event === "timer") {
      const snap = parsed as LiveSnapshot;
      if (!snap?.timer || typeof snap.server_now !== "number") return;
      this.#offset.add(snap.server_now, received);
      this.#snapshot = snap;
      if (!this.#open) {
        this.#open = true;
        this.handlers.onStatus({ kind: "ok" });
      }
      this.#refresh();
    } else if (event === "clock") {
      const serverNow = (parsed as { server_now?: unknown })?.server_now;
      if (typeof serverNow === "number") this.#offset.add(serverNow, received);
    } else if (event === "gone") {
      this.#gone("the timer was deleted or has expired");
    }
  }

  /** A timer id is never reused: once gone, the stream is not reopened and the face holds. */
  #gone(message: string) {
    this.#open = false;
    this.handlers.onStatus({ kind: "gone", message });
    this.#refresh();
    clearInterval(this.#ticker);
    void this.#stream?.close();
  }

  /** The server instant now, by the local clock and the offset. */
  serverNow(): number {
    return this.#now() + this.#offset.value;
  }

  /** The face now, or null before the first snapshot. */
  face(): Face | null {
    return this.#snapshot ? faceAt(this.#snapshot, this.serverNow()) : null;
  }

  #refresh() {
    const face = this.face();
    const variables = this.#snapshot && face ? variablesOf(this.#snapshot, face) : { ...NO_VARIABLES };
    const feedbacks = feedbacksOf(this.#snapshot, face, this.#open);
    const changed: Partial<Variables> = {};
    let any = false;
    for (const [id, value] of Object.entries(variables)) {
      if (this.#first || this.#variables[id] !== value) {
        changed[id] = value;
        any = true;
      }
    }
    const flipped = FEEDBACK_IDS.filter((id) => this.#first || this.#feedbacks[id] !== feedbacks[id]);
    this.#variables = variables;
    this.#feedbacks = feedbacks;
    this.#first = false;
    if (any) this.handlers.onVariables(changed);
    if (flipped.length) this.handlers.onFeedbacks(flipped);
  }

  get variables(): Readonly<Variables> {
    return this.#variables;
  }

  feedback(id: keyof Feedbacks): boolean {
    return this.#feedbacks[id];
  }

  /** The message as last received, or null. */
  get message(): Message | null {
    return this.#snapshot?.timer.message ?? null;
  }

  /** start, pause, resume, reset, stop; adjust with ±seconds. */
  action(action: Action, seconds?: number): Promise<unknown> {
    return this.api.action(action, seconds);
  }

  /** Shows a message; a blackout in force stays on. */
  showMessage(
    input: { text: string; color?: Message["color"]; flash?: number },
  ): Promise<unknown> {
    return this.api.putMessage({
      ...input,
      blackout: this.message?.blackout ?? false,
    });
  }

  /** Hides the message; a blackout in force stays on. */
  hideMessage(): Promise<unknown> {
    return this.message?.blackout ? this.api.putMessage({ blackout: true }) : this.api.deleteMessage();
  }

  /** Turns blackout on or off, keeping the message (without flashing it again). */
  blackout(on: boolean | "toggle"): Promise<unknown> {
    const current = this.message;
    const want = on === "toggle" ? !current?.blackout : on;
    const text = current?.text.trim() ? current.text : undefined;
    if (!want && !text) return this.api.deleteMessage();
    return this.api.putMessage(
      text ? { text, color: current!.color, flash: 0, blackout: want } : { blackout: true },
    );
  }

  /** Stops following the timer. */
  async stop(): Promise<void> {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    const stream = this.#stream;
    this.#stream = null;
    await stream?.close();
  }
}
