/**
 * The timer's control calls: `POST /api/v1/timers/:id/actions/:action` (no body) and
 * `PUT`/`DELETE /api/v1/timers/:id/message`, with the control token as the Bearer credential.
 */
import type { Target } from "./link.ts";
import type { Message } from "./state.ts";

export type Action = "start" | "pause" | "resume" | "reset" | "stop" | "adjust";

/** A call the service refused or that did not reach it; the message is the service's own when it gave one. */
export class ApiCallError extends Error {
  override name = "ApiCallError";
  constructor(
    message: string,
    readonly status: number | null,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What PUT /message takes. */
export interface MessageInput {
  text?: string;
  color?: Message["color"];
  flash?: number;
  blackout?: boolean;
}

/** Calls the service for one timer. */
export class TimerApi {
  constructor(
    private readonly target: Target,
    private readonly doFetch: typeof fetch = fetch,
  ) {}

  #url(path: string) {
    return `${this.target.site}/api/v1/timers/${encodeURIComponent(this.target.timerId)}${path}`;
  }

  async #call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.target.token}`,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await this.doFetch(this.#url(path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (e) {
      throw new ApiCallError(
        `${method} ${path} could not reach the service: ${e instanceof Error ? e.message : e}`,
        null,
      );
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch { /* not JSON */ }
    if (!res.ok) {
      const error = (parsed as { error?: { message?: string; field?: string } } | null)
        ?.error;
      throw new ApiCallError(
        `${method} ${path} answered ${res.status}: ${error?.message ?? (text.slice(0, 200) || res.statusText)}`,
        res.status,
        error?.field,
      );
    }
    return parsed;
  }

  /** Runs an action; `seconds` (non-zero, −86 400…86 400) only for adjust. */
  action(action: Action, seconds?: number): Promise<unknown> {
    if (action === "adjust") {
      if (!Number.isInteger(seconds) || seconds === 0) {
        return Promise.reject(
          new ApiCallError(
            `adjust needs a non-zero whole number of seconds, got ${seconds}`,
            null,
          ),
        );
      }
      return this.#call("POST", `/actions/adjust?seconds=${seconds}`);
    }
    return this.#call("POST", `/actions/${action}`);
  }

  /** Sets (replaces) the message. */
  putMessage(input: MessageInput): Promise<unknown> {
    return this.#call("PUT", "/message", input);
  }

  /** Clears the message (and a blackout). */
  deleteMessage(): Promise<unknown> {
    return this.#call("DELETE", "/message");
  }
}
