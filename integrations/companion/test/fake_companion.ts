/**
 * Companion's host side, stubbed at the SDK boundary: @companion-module/base talks to Companion
 * over Node's process IPC (`process.send` out, `process.on("message")` in). This plays Companion
 * on that channel, so the module's real InstanceBase, definitions and connection run unchanged.
 */
import process from "node:process";

interface IpcMessage {
  direction: "call" | "response";
  name?: string;
  payload?: string;
  callbackId?: number;
  success?: boolean;
}

type Waiter = { check: () => boolean; resolve: () => void };

/** The module's constructor props, as runEntrypoint builds them. */
export const instanceProps = (id: string) => ({
  id,
  upgradeScripts: [],
  _isInstanceBaseProps: true,
});

export class FakeCompanion {
  /** Variable values as Companion holds them. */
  readonly variables = new Map<string, unknown>();
  /** Feedback values by feedback instance id. */
  readonly feedbackValues = new Map<string, unknown>();
  readonly statuses: { status: string; message: string | null }[] = [];
  readonly logs: { level: string; message: string }[] = [];
  readonly definitions: Record<string, unknown> = {};
  #next = 1;
  #pending = new Map<number, PromiseWithResolvers<unknown>>();
  #waiters: Waiter[] = [];
  #previousSend: unknown;

  constructor() {
    const p = process as unknown as { send?: unknown };
    this.#previousSend = p.send;
    p.send = (msg: IpcMessage) => {
      // The module sends synchronously from inside its calls; Companion receives on a later turn.
      queueMicrotask(() => this.#fromModule(msg));
      return true;
    };
  }

  #fromModule(msg: IpcMessage) {
    const payload = msg.payload ? JSON.parse(msg.payload) : undefined;
    if (msg.direction === "response") {
      const pending = this.#pending.get(msg.callbackId!);
      this.#pending.delete(msg.callbackId!);
      if (msg.success) pending?.resolve(payload);
      else {pending?.reject(
          new Error(payload?.message ?? JSON.stringify(payload)),
        );}
    } else {
      switch (msg.name) {
        case "setVariableValues":
          for (const { id, value } of payload.newValues) {
            this.variables.set(id, value);
          }
          break;
        case "updateFeedbackValues":
          for (const { id, value } of payload.values) {
            this.feedbackValues.set(id, value);
          }
          break;
        case "set-status":
          this.statuses.push(payload);
          break;
        case "log-message":
          this.logs.push(payload);
          break;
        default:
          this.definitions[msg.name!] = payload;
      }
      if (msg.callbackId) {
        this.#toModule({
          direction: "response",
          callbackId: msg.callbackId,
          success: true,
          payload: "null",
        });
      }
    }
    this.#waiters = this.#waiters.filter((w) => !(w.check() && (w.resolve(), true)));
  }

  #toModule(msg: IpcMessage) {
    process.emit("message" as never, msg as never);
  }

  /** Calls the module as Companion does and resolves with its answer. */
  call<T = unknown>(name: string, payload: unknown): Promise<T> {
    const id = this.#next++;
    const pending = Promise.withResolvers<unknown>();
    this.#pending.set(id, pending);
    this.#toModule({
      direction: "call",
      name,
      payload: JSON.stringify(payload),
      callbackId: id,
    });
    return pending.promise as Promise<T>;
  }

  /** Resolves once `check` holds after something arrived from the module (or at once); rejects after `ms`. */
  until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const timer = setTimeout(() => {
      this.#waiters = this.#waiters.filter((w) => w.check !== check);
      reject(
        new Error(
          `timed out waiting for ${what}; variables ${JSON.stringify(Object.fromEntries(this.variables))}`,
        ),
      );
    }, ms);
    this.#waiters.push({
      check,
      resolve: () => (clearTimeout(timer), resolve()),
    });
    return promise;
  }

  /** Stops listening: what the module still sends (a debounced feedback update) goes nowhere. */
  close() {
    (process as unknown as { send?: unknown }).send = this.#previousSend ??
      (() => true);
  }
}
