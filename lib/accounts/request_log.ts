/**
 * The API request log (what an account's last 1 000 API requests were, to look a 422 up by its
 * request id): recorded after the response in memory, written in batches off the request path —
 * one read and one commit per account per batch — into a ring of slots (lib/kv/request_log.ts).
 * Requests without an account (a bad key) are not logged; a control token's belong to its
 * timer's account. Paths keep no secret: query values are redacted but for harmless ones.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http.ts";
import type { Store } from "../kv/store.ts";
import { appendRequests, readRequests, REQUEST_LOG_SIZE, type RequestRecord } from "../kv/request_log.ts";

export { REQUEST_LOG_SIZE, type RequestRecord };

/** Query parameters whose values are kept (filters and paging); any other value is redacted. */
const KEPT_PARAMS = new Set([
  "limit",
  "cursor",
  "type",
  "state",
  "status",
  "event",
  "timer_id",
  "region",
  "lang",
  "year",
  "upcoming",
  "from",
  "to",
]);
const MAX_PATH = 300;

/** A request's path and query as logged: values of parameters not known to be harmless read `redacted`. */
export function loggedPath(url: string): string {
  const u = new URL(url);
  const parts: string[] = [];
  for (const [k, v] of u.searchParams) {
    const name = k.slice(0, 40);
    parts.push(`${encodeURIComponent(name)}=${KEPT_PARAMS.has(k) ? encodeURIComponent(v.slice(0, 80)) : "redacted"}`);
  }
  const path = parts.length ? `${u.pathname}?${parts.join("&")}` : u.pathname;
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH - 1)}…` : path;
}

/** Who a request is logged for: an account, or the timer (or rundown) a control token acted on. */
export type LoggedFor = { account: string } | { controlled: string };

/** Requests waiting in memory at most; beyond, new ones are dropped (a log, not a ledger). */
const MAX_WAITING = 20_000;
/** A batch this large is written at once, without waiting for the interval. */
const WRITE_AT = 200;

export class RequestLog {
  #waiting: { for: LoggedFor; record: Omit<RequestRecord, "seq"> }[] = [];
  #writing: Promise<void> | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Timer (or rundown) id → account id, for control-token requests. */
  #owners = new Map<string, string>();

  constructor(
    readonly store: Store,
    readonly opts: { flushMs?: number; failed?: (msg: string, e: unknown) => void } = {},
  ) {}

  /**
   * Notes one request (synchronous and cheap: it is written later). `path` may be the whole URL:
   * it is cut to its logged form (loggedPath) when written, not while the request is answered.
   */
  record(who: LoggedFor, record: Omit<RequestRecord, "seq">): void {
    if (this.#waiting.length >= MAX_WAITING) return;
    this.#waiting.push({ for: who, record });
    if (this.#waiting.length >= WRITE_AT) void this.flush();
  }

  /** Writes what is waiting; resolves once it is written (what comes meanwhile goes next). */
  flush(): Promise<void> {
    this.#writing ??= this.#drain().finally(() => this.#writing = null);
    return this.#writing;
  }

  async #drain(): Promise<void> {
    while (this.#waiting.length) {
      const batch = this.#waiting;
      this.#waiting = [];
      const byAccount = new Map<string, Omit<RequestRecord, "seq">[]>();
      for (const w of batch) {
        const acct = "account" in w.for ? w.for.account : await this.#ownerOf(w.for.controlled);
        if (acct === null) continue;
        const list = byAccount.get(acct) ?? [];
        const path = w.record.path.startsWith("/") ? w.record.path : loggedPath(w.record.path);
        list.push({ ...w.record, path });
        byAccount.set(acct, list);
      }
      for (const [acct, records] of byAccount) {
        await appendRequests(this.store.kv, acct, records).catch((e) =>
          this.opts.failed?.("writing the API request log failed", e)
        );
      }
    }
  }

  async #ownerOf(id: string): Promise<string | null> {
    const known = this.#owners.get(id);
    if (known) return known;
    const owner = id.startsWith("rdn_")
      ? (await this.store.rundowns.get(id))?.rundown.account_id
      : (await this.store.getTimer(id))?.timer.account_id;
    if (!owner) return null;
    if (this.#owners.size >= 10_000) this.#owners.clear();
    this.#owners.set(id, owner);
    return owner;
  }

  /** An account's logged requests, newest first, those waiting included. */
  async read(acct: string): Promise<RequestRecord[]> {
    await this.flush();
    return await readRequests(this.store.kv, acct);
  }

  /** Writes every `flushMs` (the running service; tests flush by reading). */
  start(): void {
    this.#timer ??= setInterval(() => void this.flush(), this.opts.flushMs ?? 250);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}

/** Whether a logged status matches a filter: an exact code (`422`) or a class (`4xx`). */
export function statusMatches(status: number, filter: string | undefined): boolean {
  if (!filter) return true;
  if (/^[1-5]xx$/.test(filter)) return Math.floor(status / 100) === Number(filter[0]);
  return String(status) === filter;
}

/**
 * Middleware that notes each API request of a known caller once answered (errors included): the
 * gate (gate.ts) sets `loggedFor` once it knows the account or has verified the control token.
 */
export function logRequests(log: RequestLog, now: () => number): MiddlewareHandler<AppEnv> {
  return async function logRequests(c, next) {
    const at = now();
    const started = performance.now();
    await next();
    const who = c.get("loggedFor");
    if (!who) return;
    log.record(who.for, {
      at,
      method: c.req.method,
      path: c.req.url,
      status: c.res.status,
      key_prefix: who.keyPrefix,
      request_id: c.get("requestId"),
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
