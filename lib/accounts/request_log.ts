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
  "seconds",
  "index",
]);
const MAX_PATH = 300;

/** A request's path and query as logged: values of parameters not known to be harmless read `redacted`. */
export function loggedPath(url: string): string {
  const u = new URL(url);
  const parts: string[] = [];
  for (const [k, v] of u.searchParams) {
    // A name may be a secret pasted in the wrong place (`?tsk_…=1`): only plain names are kept.
    const name = /^[a-z_]{1,40}$/.test(k) ? k : "param";
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
  /** Records noted and not yet written (waiting, or in a batch being written): bounded by MAX_WAITING. */
  #pending = 0;
  /** The chain of batch writes; never rejects. */
  #writing: Promise<void> = Promise.resolve();
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
    if (this.#pending >= MAX_WAITING) return;
    this.#pending++;
    this.#waiting.push({ for: who, record });
    if (this.#waiting.length >= WRITE_AT) void this.flush();
  }

  /** Writes what is waiting now; resolves once that (and every earlier batch) is written. Never rejects. */
  flush(): Promise<void> {
    if (!this.#waiting.length) return this.#writing;
    const batch = this.#waiting;
    this.#waiting = [];
    this.#writing = this.#writing
      .then(() => this.#write(batch))
      .catch((e) => this.opts.failed?.("writing the API request log failed", e))
      .finally(() => this.#pending -= batch.length);
    return this.#writing;
  }

  async #write(batch: { for: LoggedFor; record: Omit<RequestRecord, "seq"> }[]): Promise<void> {
    const byAccount = new Map<string, Omit<RequestRecord, "seq">[]>();
    for (const w of batch) {
      let acct: string | null;
      try {
        acct = "account" in w.for ? w.for.account : await this.#ownerOf(w.for.controlled);
      } catch (e) {
        this.opts.failed?.("resolving a control token's account for the request log failed", e);
        continue;
      }
      if (acct === null) continue;
      const list = byAccount.get(acct) ?? [];
      const path = w.record.path.startsWith("/") ? w.record.path : loggedPath(w.record.path);
      list.push({ ...w.record, path });
      byAccount.set(acct, list);
    }
    // Accounts are independent rings: a few at once, so one slow round trip does not serialise all.
    const all = [...byAccount];
    for (let i = 0; i < all.length; i += 8) {
      await Promise.all(
        all.slice(i, i + 8).map(([acct, records]) =>
          appendRequests(this.store.kv, acct, records).catch((e) =>
            this.opts.failed?.("writing the API request log failed", e)
          )
        ),
      );
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
    // A 429 is not logged: the rate limit then bounds the log's writes, and a control token's
    // holder cannot fill its owner's log past what the limit lets through.
    if (!who || c.res.status === 429) return;
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
