/** HTTP plumbing shared by every route: context types, middleware factories, error mapping. */
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Principal } from "./accounts/auth.ts";
import { ApiError, errorBody } from "./errors.ts";
import { randomBase62 } from "./ids.ts";

export type AppEnv = {
  Bindings: { remoteAddr?: { hostname?: string } } | undefined;
  Variables: { requestId: string; principal: Principal; ip: string };
};

export type LogLine = Record<string, unknown>;

/** Writes one JSON object per line to stdout. */
export function jsonLogger(line: LogLine): void {
  // deno-lint-ignore no-console
  console.log(JSON.stringify(line));
}

/**
 * Gives each request an id (X-Request-Id) and the client's address (the socket peer, or the
 * first X-Forwarded-For hop behind a trusted proxy), and logs one line when it ends: never
 * headers or bodies. One middleware rather than two: every level costs on the hot path.
 */
export function requestContext(
  opts: { log?: (line: LogLine) => void; now: () => number; trustProxy: boolean },
): MiddlewareHandler<AppEnv> {
  return async function requestContext(c, next) {
    const inbound = c.req.header("x-request-id");
    const id = inbound && /^[\w.-]{1,64}$/.test(inbound) ? inbound : `req_${randomBase62(16)}`;
    c.set("requestId", id);
    let ip = c.env?.remoteAddr?.hostname ?? "127.0.0.1";
    if (opts.trustProxy) {
      const fwd = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
      if (fwd) ip = fwd;
    }
    c.set("ip", ip);
    const started = performance.now();
    await next();
    c.res.headers.set("X-Request-Id", id);
    opts.log?.({
      time: new Date(opts.now()).toISOString(),
      level: c.res.status >= 500 ? "error" : "info",
      request_id: id,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      ip,
    });
  };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Guards request bodies (register it for the routes that take one): they must be JSON (`Content-Type: application/json`), at most
 * `maxBytes`, and parse; anything else is answered before a handler runs.
 */
export function jsonBody(opts: { maxBytes: number }): MiddlewareHandler<AppEnv> {
  return async function jsonBody(c, next) {
    const type = c.req.header("content-type");
    if (!type || !JSON_TYPE.test(type)) {
      throw new ApiError(400, `Content-Type must be application/json, got ${type ? `"${type}"` : "none"}`);
    }
    const declared = Number(c.req.header("content-length"));
    if (declared > opts.maxBytes) throw tooLarge(opts.maxBytes);
    const text = await readCapped(c.req.raw, opts.maxBytes);
    try {
      JSON.parse(text);
    } catch (e) {
      throw new ApiError(400, `malformed JSON in the request body: ${(e as Error).message}`);
    }
    // Hand the text on: validators read c.req.json(), which Hono derives from this cache.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    await next();
  };
}

function tooLarge(max: number) {
  return new ApiError(413, `the request body must be at most ${max / 1024} KiB`);
}

async function readCapped(req: Request, max: number): Promise<string> {
  if (!req.body) return "";
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
  return new TextDecoder().decode(all);
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
    return c.json(errorBody(500, `unexpected error; quote request id ${c.get("requestId")} when reporting it`), 500);
  };
}

/** API routes by pattern and the methods they answer, for 405 with `Allow`. */
export function notFoundHandler(routes: { pattern: RegExp; methods: string[] }[]) {
  return function notFound(c: Context<AppEnv>) {
    const route = routes.find((r) => r.pattern.test(c.req.path));
    if (route && !route.methods.includes(c.req.method)) {
      c.header("Allow", route.methods.join(", "));
      return c.json(
        errorBody(405, `${c.req.method} is not allowed on ${c.req.path}; use ${route.methods.join(", ")}`),
        405,
      );
    }
    return c.json(errorBody(404, `no route for ${c.req.method} ${c.req.path}`), 404);
  };
}
