/** HTTP plumbing shared by every route: context types, middleware factories, error mapping. */
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import ipaddr from "ipaddr.js";
import type { Principal } from "./accounts/auth.ts";
import { ApiError, errorBody } from "./errors.ts";
import { randomBase62 } from "./ids.ts";
import { isUnavailable } from "./kv/open.ts";

export type AppEnv = {
  /** Deno.serve's handler info (absent where the app is called directly, e.g. app.request in tests). */
  Bindings: { remoteAddr?: { hostname?: string }; completed?: Promise<void> } | undefined;
  Variables: {
    requestId: string;
    principal: Principal;
    ip: string;
    /** Whom the API request log files this request under (set by the API's gate once known). */
    loggedFor?: { for: { account: string } | { controlled: string }; keyPrefix: string | null };
  };
};

export type LogLine = Record<string, unknown>;

/** Where a LogBuffer writes: Deno.stdout, or a test's sink. */
export interface LogSink {
  write(p: Uint8Array): Promise<number>;
  writeSync(p: Uint8Array): number;
}

/**
 * Log lines gathered in memory and written in batches off the request path: a request only
 * appends a string; a timer writes what gathered every `flushMs` with one asynchronous write,
 * so a slow or blocked stdout never holds a request. Past `maxBytes` waiting, lines are dropped
 * and counted (one line says how many). `flushSync()` writes the rest when the process exits.
 */
export class LogBuffer {
  #lines: string[] = [];
  #bytes = 0;
  #dropped = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> | null = null;
  readonly #enc = new TextEncoder();

  constructor(readonly sink: LogSink, readonly opts: { flushMs?: number; maxBytes?: number } = {}) {}

  /** Appends one JSON line (bound: pass it around as a function). */
  readonly log = (line: LogLine): void => {
    const text = JSON.stringify(line);
    if (this.#bytes + text.length > (this.opts.maxBytes ?? 8 << 20)) {
      this.#dropped++;
      return;
    }
    this.#lines.push(text);
    this.#bytes += text.length + 1;
    if (this.#timer === undefined && this.#writing === null) {
      const timer = setTimeout(this.#tick, this.opts.flushMs ?? 20);
      // A pending flush must not keep a finished process alive; flushSync() covers exit.
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  };

  #tick = () => {
    this.#timer = undefined;
    void this.flush();
  };

  /** Writes everything gathered so far; resolves once it is written. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing ??= this.#drain().finally(() => this.#writing = null);
    return this.#writing;
  }

  #take(): Uint8Array | null {
    if (this.#dropped > 0) {
      const note = { time: new Date().toISOString(), level: "warn", msg: "log lines dropped", dropped: this.#dropped };
      this.#lines.push(JSON.stringify(note));
      this.#dropped = 0;
    }
    if (this.#lines.length === 0) return null;
    const chunk = this.#enc.encode(this.#lines.join("\n") + "\n");
    this.#lines = [];
    this.#bytes = 0;
    return chunk;
  }

  async #drain(): Promise<void> {
    // Lines that gather during a write go out with the next one, until none are left.
    for (let chunk = this.#take(); chunk; chunk = this.#take()) {
      try {
        for (let at = 0; at < chunk.length;) at += await this.sink.write(chunk.subarray(at));
      } catch {
        return; // stdout closed: nowhere to put the lines
      }
    }
  }

  /** Writes what is still gathered, synchronously (at exit). */
  flushSync(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const chunk = this.#take();
    try {
      for (let at = 0; chunk && at < chunk.length;) at += this.sink.writeSync(chunk.subarray(at));
    } catch { /* stdout closed */ }
  }
}

/** The process's log: JSON lines on stdout, batched; whatever is left is written at exit. */
export const stdoutLog: LogBuffer = new LogBuffer(Deno.stdout);
globalThis.addEventListener("unload", () => stdoutLog.flushSync());

/** Writes one JSON object per line to stdout (batched, see LogBuffer). */
export const jsonLogger: (line: LogLine) => void = stdoutLog.log;

/**
 * The client's address: the socket peer, or behind `hops` trusted proxies the entry the
 * outermost of them appended to X-Forwarded-For, counted from the right. The left end is
 * written by the client and never trusted.
 */
export function clientIp(peer: string, forwardedFor: string | undefined, hops: number): string {
  if (hops <= 0 || !forwardedFor) return peer;
  const list = forwardedFor.split(",");
  // Fewer entries than proxies: the request skipped some of them; the left-most is the best known.
  const entry = list[Math.max(0, list.length - hops)].trim();
  // Only an address (some proxies add the port): anything else came from the client, past the
  // proxies, and would become a rate-limit key as long as it is.
  const ip = /^\[(.+)\]:\d{1,5}$/.exec(entry)?.[1] ?? /^([\d.]+):\d{1,5}$/.exec(entry)?.[1] ?? entry;
  return ipaddr.IPv4.isValidFourPartDecimal(ip) || (ip.includes(":") && ipaddr.IPv6.isValid(ip)) ? ip : peer;
}

/** Request ids: a random prefix per process and a counter, unique without costing randomness per request. */
const REQUEST_PREFIX = `req_${randomBase62(8)}`;
let requestCount = 0;
const nextRequestId = () => REQUEST_PREFIX + (requestCount++).toString(36).padStart(8, "0");

/**
 * Gives each request an id (X-Request-Id) and the client's address (see clientIp), marks every
 * answer `X-Content-Type-Options: nosniff`, and logs one line when it ends: never headers or
 * bodies. One middleware rather than several: every level costs on the hot path.
 */
export function requestContext(
  opts: { log?: (line: LogLine) => void; now: () => number; trustProxyHops: number },
): MiddlewareHandler<AppEnv> {
  const { log, now, trustProxyHops: hops } = opts;
  return async function requestContext(c, next) {
    const inbound = c.req.header("x-request-id");
    const id = inbound && /^[\w.-]{1,64}$/.test(inbound) ? inbound : nextRequestId();
    c.set("requestId", id);
    // Set before the response exists: Hono writes them into the response as it creates it.
    c.header("X-Request-Id", id);
    // No browser may read a JSON answer (or any other) as script or HTML.
    c.header("X-Content-Type-Options", "nosniff");
    const peer = c.env?.remoteAddr?.hostname ?? "127.0.0.1";
    const ip = hops > 0 ? clientIp(peer, c.req.header("x-forwarded-for"), hops) : peer;
    c.set("ip", ip);
    const started = log ? performance.now() : 0;
    await next();
    const res = c.res;
    // A response a handler built itself (streams, static files) did not take the prepared headers.
    if (!res.headers.has("x-request-id")) res.headers.set("X-Request-Id", id);
    if (!res.headers.has("x-content-type-options")) res.headers.set("X-Content-Type-Options", "nosniff");
    if (c.req.method === "HEAD") c.res = await headOf(res);
    log?.({
      time: new Date(now()).toISOString(),
      level: res.status >= 500 ? "error" : "info",
      request_id: id,
      method: c.req.method,
      path: c.req.path,
      status: res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      ip,
    });
  };
}

/**
 * A HEAD answer with the Content-Length its GET would have (Deno writes 0 for a body-less
 * answer, which RFC 9110 forbids unless the GET's body is empty); an event stream is closed.
 */
async function headOf(res: Response): Promise<Response> {
  if (!res.body || res.headers.has("content-length")) return res;
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
    await res.body.cancel(); // unread, a stream would hold its watcher and its place forever
    return new Response(null, res);
  }
  const length = (await res.arrayBuffer()).byteLength;
  const head = new Response(null, res);
  head.headers.set("content-length", String(length));
  return head;
}

/** `application/json` or a `+json` type, with RFC 9110 parameters (`; name=value`, spaces allowed around `;`). */
const TOKEN = "[!#$%&'*+.^_`|~0-9a-z-]+";
// Every space has one quantifier that may take it (spaces after a parameter belong to it): a
// choice between two backtracked exponentially (";  " × 20 held the event loop for a minute).
const JSON_TYPE = new RegExp(
  `^(application/(?:[a-z.-]+\\+)?json)[ \t]*(?:;[ \t]*(?:${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*")[ \t]*)?)*$`,
  "i",
);

/** The request with another Content-Type (its body, already read, is left behind). */
function withContentType(req: Request, type: string): Request {
  const headers = new Headers(req.headers);
  headers.set("content-type", type);
  return new Request(req.url, { method: req.method, headers, signal: req.signal });
}

/** The requests whose body a jsonBody guard has taken in (it is read once). */
const checkedBodies = new WeakSet<object>();

/** Whether a request carries body bytes: a declared length over 0, or a body of undeclared length. */
function sendsBody(req: Request): boolean {
  const length = req.headers.get("content-length");
  return length !== null ? Number(length) !== 0 : req.body !== null;
}

/**
 * Guards request bodies: they must be JSON (`Content-Type: application/json`), at most `maxBytes`,
 * and parse; anything else is answered before a handler runs. Registered for the routes that take
 * a body; with `optional`, for every route: a request without body bytes passes, a JSON body is
 * checked whole, any other body only for its size (no route reads it), so no route can read an
 * unbounded body. With `optional` or `emptyOk` (a route whose body may be left out), a JSON body of
 * nothing but white space counts as `{}`. A body checked once is not checked again.
 */
export function jsonBody(opts: { maxBytes: number; optional?: boolean; emptyOk?: boolean }): MiddlewareHandler<AppEnv> {
  return async function jsonBody(c, next) {
    const type = c.req.header("content-type");
    const essence = type ? JSON_TYPE.exec(type)?.[1] : undefined;
    if (!essence && !opts.optional) {
      throw new ApiError(400, `Content-Type must be application/json, got ${type ? `"${type}"` : "none"}`);
    }
    if (checkedBodies.has(c.req) || (opts.optional && !sendsBody(c.req.raw))) return await next();
    checkedBodies.add(c.req);
    const length = c.req.header("content-length");
    const declared = Number(length);
    if (declared > opts.maxBytes) throw tooLarge(opts.maxBytes);
    // A declared length is what the server reads (no more): read it whole. Otherwise count as it comes.
    const bytes = length !== undefined && Number.isInteger(declared)
      ? new Uint8Array(await c.req.raw.arrayBuffer())
      : await readCapped(c.req.raw, opts.maxBytes);
    // Not JSON: no validator reads it; its size was the check.
    if (!essence) return await next();
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new ApiError(400, "the request body is not valid UTF-8");
    }
    // Nothing but white space (a browser's bodiless DELETE arrives as an empty stream) is no body
    // where none is required: an empty object.
    if ((opts.optional || opts.emptyOk) && text.trim() === "") text = "{}";
    try {
      JSON.parse(text);
    } catch (e) {
      throw new ApiError(400, `malformed JSON in the request body: ${(e as Error).message}`);
    }
    // Hand the text on: validators read c.req.json(), which Hono derives from this cache. They
    // match the type more narrowly than RFC 9110 (no space before `;`): they are shown its essence.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    if (type !== essence) c.req.raw = withContentType(c.req.raw, essence);
    await next();
  };
}

function tooLarge(max: number) {
  return new ApiError(413, `the request body must be at most ${max / 1024} KiB`);
}

async function readCapped(req: Request, max: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const ch of chunks) all.set(ch, (at += ch.byteLength) - ch.byteLength);
  return all;
}

const MAX_FORM_TYPE = 256;

/**
 * A form's string fields (the parsed body is cached for later readers). A body its Content-Type
 * does not describe (multipart without a boundary, or not multipart) is the client's error: 400.
 */
export async function formFields(c: Context): Promise<Record<string, string>> {
  // A form's type is one of two names and at most a boundary (≤ 70 characters, RFC 2046) or a
  // charset: Deno's parser took 15–50 ms over a 64 KB one, before any check could refuse it.
  if ((c.req.header("content-type")?.length ?? 0) > MAX_FORM_TYPE) {
    throw new ApiError(400, `the Content-Type header is over ${MAX_FORM_TYPE} characters`);
  }
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch (e) {
    if (e instanceof ApiError || e instanceof HTTPException) throw e; // e.g. a body over its limit (413)
    throw new ApiError(400, `the form body could not be read: ${(e as Error).message}`);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === "string") out[k] = v;
  return out;
}

/** Maps every thrown error to the envelope; only unexpected ones are logged, without details sent. */
export function errorHandler(opts: { log?: (line: LogLine) => void }): ErrorHandler<AppEnv> {
  return function onError(err, c) {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(errorBody(err.status, err.message, err.field), err.status as 400);
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own 4xx (e.g. a validator's): keep the status, use our envelope.
      const status = err.status === 415 ? 400 : err.status;
      return c.json(errorBody(status, err.message || "bad request"), status as 400);
    }
    opts.log?.({
      time: new Date().toISOString(),
      level: "error",
      request_id: c.get("requestId"),
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    if (isUnavailable(err)) {
      return c.json(errorBody(503, "the database cannot be reached right now; retry later"), 503);
    }
    return c.json(errorBody(500, `unexpected error; quote request id ${c.get("requestId")} when reporting it`), 500);
  };
}

/**
 * Whether an unanswered request should get a page rather than the JSON envelope: a browser's
 * (its Accept names text/html), for an address outside the API (/api/ always answers JSON).
 */
export function wantsPage(c: Context<AppEnv>): boolean {
  if (c.req.path === "/api" || c.req.path.startsWith("/api/")) return false;
  // Browsers name text/html among their first ranges; a 64 KB header is not read whole (4 ms).
  return (c.req.header("accept") ?? "").slice(0, 1024).split(",", 32).some((range) => {
    const [type, ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    return type === "text/html" && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * API routes by pattern and the methods they answer, for 405 with `Allow`; `page` answers the 404
 * of a browser asking for an address outside the API (an HTML page), everything else gets JSON.
 */
export function notFoundHandler(
  routes: { pattern: RegExp; methods: string[] }[],
  page?: (c: Context<AppEnv>) => Response,
) {
  return function notFound(c: Context<AppEnv>) {
    const route = routes.find((r) => r.pattern.test(c.req.path));
    if (route && !route.methods.includes(c.req.method)) {
      // HEAD is answered wherever GET is (RFC 9110 §9.3.2), and OPTIONS everywhere, so Allow names them too.
      const allow = [...route.methods.flatMap((m) => m === "GET" ? ["GET", "HEAD"] : [m]), "OPTIONS"];
      c.header("Allow", allow.join(", "));
      if (c.req.method === "OPTIONS") return c.body(null, 204);
      return c.json(
        errorBody(405, `${c.req.method} is not allowed on ${c.req.path}; use ${route.methods.join(", ")}`),
        405,
      );
    }
    if (page && wantsPage(c)) return page(c);
    if (page) c.header("Vary", "Accept");
    return c.json(errorBody(404, `no route for ${c.req.method} ${c.req.path}`), 404);
  };
}
