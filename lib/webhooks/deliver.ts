/**
 * One webhook attempt: resolve once, check every address, connect to exactly those addresses.
 *
 * How the connection is pinned (measured on Deno 2.9.6):
 * - `fetch` with `Deno.createHttpClient({ proxy: { transport: "tcp", hostname: ip, port } })`
 *   connects to the given socket but speaks plain HTTP over it even for an `https:` URL (a TLS
 *   receiver answers "invalid HTTP version parsed"): usable for `http:` only, and it would send a
 *   signed body in clear text where TLS was asked for. The client has no resolver option.
 * - `Deno.connectTls({ hostname: ip })` verifies the certificate against the IP (no separate
 *   server name); `Deno.connect` + `Deno.startTls(conn, { hostname })` does verify the name, but
 *   leaves HTTP/1.1 to be written by hand.
 * - node:http / node:https with a `lookup` option: the socket goes to the address `lookup`
 *   answers, while the URL's host stays the Host header, the TLS SNI and the name the certificate
 *   is checked against (a wrong name fails with ERR_TLS_CERT_ALTNAME_INVALID, an unknown CA with
 *   "unable to verify the first certificate"). Throughput with a keep-alive agent is that of
 *   fetch (≈12–17k POST/s to a local receiver at 64 in flight; without keep-alive ≈5k/s).
 * So attempts go through node:http(s) with `pinnedLookup(checked addresses)`: no second DNS
 * lookup happens anywhere. Keep-alive sockets are reused only for the same host and port, and
 * every socket was opened to an address that was checked; each attempt checks DNS again first.
 */
import http from "node:http";
import https from "node:https";
import { Buffer } from "node:buffer";
import { pinnedLookup, resolveDestination, type Resolver } from "./destinations.ts";
import type { SignedRequest } from "./signing.ts";
import { excerptOf, RESPONSE_BODY_BYTES, type ResponseExcerpt } from "./response.ts";

export interface AttemptResult {
  status: number | null;
  error: string | null;
  duration_ms: number;
  ok: boolean;
  /** What the receiver answered, capped (response.ts); absent when no answer came. */
  response?: ResponseExcerpt;
}

/** At most this much of a receiver's answer is read; only its first RESPONSE_BODY_BYTES are kept. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Requests given up at their deadline: their agent refuses to send them again. */
const givenUp = new WeakSet<http.ClientRequest>();

/**
 * Deno 2.9.6's node:http sends a request again, over another kept-alive connection of the
 * agent, when it is destroyed on a reused connection (denoland/deno#36786; Node sends it once):
 * a receiver slower than the timeout got every attempt twice. The resend goes back through the
 * agent's `addRequest`, where a request given up is refused.
 */
function refusingGivenUp<A extends http.Agent>(agent: A): A {
  const pool = agent as unknown as { addRequest(req: http.ClientRequest, options: unknown): void };
  const add = pool.addRequest.bind(agent);
  pool.addRequest = (req, options) => {
    if (givenUp.has(req)) return void req.destroy(new Error("attempt given up"));
    add(req, options);
  };
  return agent;
}

/**
 * How long a kept-alive connection may wait unused before it is closed. Receivers pick their host
 * names (a wildcard DNS name costs nothing), and each name has its own pool: without this, a
 * receiver that never closes its connections held one of the server's file descriptors per name
 * for as long as it liked (250 names: 250 descriptors). Shorter than the 5 s servers commonly
 * keep an idle connection, so a burst to one receiver still reuses its connections.
 */
export const IDLE_SOCKET_MS = 4000;
/** How often free connections are looked at: each is closed IDLE_SOCKET_MS to that much more after its last answer. */
const IDLE_SWEEP_MS = 500;

/** When each kept-alive connection was last freed. */
const freedAt = new WeakMap<object, number>();

/**
 * Closes an agent's free connections once idle IDLE_SOCKET_MS, by one timer running while any is
 * free. Not the agent's `timeout` option: with it every request set and cleared a timer on its
 * socket as it was freed and taken again (measured: 5-10 µs more CPU per POST, a tenth of the
 * client's cost).
 */
function closingIdle<A extends http.Agent>(agent: A): A {
  let sweep: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (sweep) return;
    sweep = setTimeout(() => {
      sweep = undefined;
      const now = performance.now();
      let left = false;
      for (const sockets of Object.values(agent.freeSockets)) {
        for (const socket of [...(sockets ?? [])]) {
          if (now - (freedAt.get(socket) ?? 0) >= IDLE_SOCKET_MS) socket.destroy();
          else left = true;
        }
      }
      if (left) schedule();
    }, IDLE_SWEEP_MS);
    // Like the sockets it closes, it keeps no process alive.
    sweep.unref();
  };
  agent.on("free", (socket: object) => {
    freedAt.set(socket, performance.now());
    schedule();
  });
  return agent;
}

const pool = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64 };
const agents = {
  http: closingIdle(refusingGivenUp(new http.Agent(pool))),
  https: closingIdle(refusingGivenUp(new https.Agent(pool))),
};

class Timeout extends Error {
  override name = "TimeoutError";
}

/**
 * POSTs to `url`, connecting only to `addresses`. Resolves with the HTTP status once it is known
 * and the answer has been read (up to MAX_RESPONSE_BYTES) or `deadline` has aborted (the status
 * received stands); rejects on a network error or when no status came in time.
 */
function send(
  url: URL,
  req: SignedRequest,
  addresses: string[],
  deadline: AbortSignal,
  opts: { caCerts?: string[] },
): Promise<{ status: number; response: ResponseExcerpt }> {
  return new Promise((resolve, reject) => {
    const tls = url.protocol === "https:";
    let status: number | null = null;
    let headers: http.IncomingHttpHeaders = {};
    const head: Uint8Array[] = [];
    let kept = 0;
    let settled = false;
    let size = 0;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener("abort", onDeadline);
      if (status !== null) resolve({ status, response: excerptOf(headers, head, size) });
      else reject(err ?? new Error("no answer"));
    };
    const request = (tls ? https : http).request(url, {
      method: "POST",
      headers: { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) },
      agent: tls ? agents.https : agents.http,
      lookup: pinnedLookup(addresses),
      ...(tls && opts.caCerts && { ca: opts.caCerts }),
    }, (res) => {
      status = res.statusCode ?? null;
      headers = res.headers;
      res.on("data", (chunk: Uint8Array) => {
        size += chunk.byteLength;
        if (kept < RESPONSE_BODY_BYTES) {
          const part = chunk.subarray(0, RESPONSE_BODY_BYTES - kept);
          head.push(part);
          kept += part.byteLength;
        }
        if (size > MAX_RESPONSE_BYTES) {
          res.destroy();
          finish();
        }
      });
      res.on("end", () => finish());
      res.on("error", (e) => finish(e));
      res.on("close", () => finish());
    });
    const onDeadline = () => {
      finish(new Timeout());
      givenUp.add(request);
      request.destroy();
    };
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener("abort", onDeadline, { once: true });
    request.on("error", (e) => finish(e));
    request.end(req.body);
  });
}

/**
 * Deno 2.9.6's node:https reads NODE_EXTRA_CA_CERTS only with full `--allow-sys` (it asks for sys
 * access "ca", a descriptor `--allow-sys=ca` does not accept), and without it throws on every
 * https request: every https webhook failed. Without that permission the variable is dropped at
 * start (webhooks use the default roots) and the returned warning says so; null when nothing was done.
 */
export function dropUnreadableExtraCa(
  env: Pick<Deno.Env, "get" | "delete"> = Deno.env,
  sysGranted = Deno.permissions.querySync({ name: "sys" }).state === "granted",
): string | null {
  if (sysGranted || !env.get("NODE_EXTRA_CA_CERTS")) return null;
  env.delete("NODE_EXTRA_CA_CERTS");
  return "NODE_EXTRA_CA_CERTS is ignored: reading it needs --allow-sys; webhooks use the default CA roots";
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: Resolver;
  caCerts?: string[];
  fetch?: typeof fetch;
}

/**
 * One POST: 2xx is success; redirects are not followed; no answer within `timeoutMs` fails.
 * The deadline covers the whole attempt: resolving, connecting and the answer. The destination
 * is resolved once (`resolve`, the system DNS by default) and refused if any
 * address is not public unicast, unless `allowPrivate`; the connection goes to exactly the
 * checked addresses either way. `fetch`, where a test injects one, sends instead of the pinned
 * transport (the destination is still checked, but that fetch resolves on its own).
 */
export async function postOnce(url: string, req: SignedRequest, opts: PostOptions): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  // One deadline for the attempt: a slow DNS answer must not let it outlast its claim. Cleared
  // when the attempt ends: `AbortSignal.timeout` fired for every attempt timeoutMs later, each
  // building a DOMException (3 % of a 10 000 burst's main thread, the previous burst's timeouts).
  const deadline = new AbortController();
  const cancel = atDeadline(
    opts.timeoutMs,
    () => deadline.abort(new DOMException(`no answer within ${opts.timeoutMs} ms`, "TimeoutError")),
  );
  try {
    return await attempt(url, req, opts, deadline.signal, took);
  } finally {
    cancel();
  }
}

/**
 * Attempts' deadlines by the DEADLINE_STEP_MS in which they fall: one timer per step, set with its
 * first attempt and cleared after its last, not one per attempt (a timer set and cleared cost
 * 2.4–4 µs of the main thread, thousands a second in a burst). A deadline fires up to a step late, never early.
 */
const DEADLINE_STEP_MS = 20;
interface Step {
  timer: ReturnType<typeof setTimeout>;
  due: Set<() => void>;
}
const deadlines = new Map<number, Step>();

/** Calls `fire` in `ms` (up to DEADLINE_STEP_MS later) unless the function returned is called first. */
function atDeadline(ms: number, fire: () => void): () => void {
  const at = Math.ceil((performance.now() + ms) / DEADLINE_STEP_MS);
  let step: Step | undefined = deadlines.get(at);
  if (!step) {
    const due = new Set<() => void>();
    const timer = setTimeout(() => {
      deadlines.delete(at);
      for (const f of due) f();
    }, at * DEADLINE_STEP_MS - performance.now());
    deadlines.set(at, step = { timer, due });
  }
  const mine = step;
  mine.due.add(fire);
  return () => {
    if (!mine.due.delete(fire) || mine.due.size > 0) return;
    clearTimeout(mine.timer);
    if (deadlines.get(at) === mine) deadlines.delete(at);
  };
}

/** The attempt of `postOnce` under its deadline. */
async function attempt(
  url: string,
  req: SignedRequest,
  opts: PostOptions,
  deadline: AbortSignal,
  took: () => number,
): Promise<AttemptResult> {
  try {
    const target = new URL(url);
    const dest = await resolveDestination(target, { ...opts, signal: deadline });
    if (dest.error !== undefined) return { status: null, error: dest.error, duration_ms: took(), ok: false };
    const { status, response } = opts.fetch
      ? await viaFetch(opts.fetch, url, req, deadline)
      : await send(target, req, dest.addresses, deadline, opts);
    const ok = status >= 200 && status < 300;
    const error = ok ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`;
    return { status, error, duration_ms: took(), ok, response };
  } catch (e) {
    const err = e as Error;
    const error = err.name === "TimeoutError" || err.name === "AbortError"
      ? `no answer within ${opts.timeoutMs} ms`
      : `network error: ${err.message.slice(0, 200)}`;
    return { status: null, error, duration_ms: took(), ok: false };
  }
}

async function viaFetch(
  f: typeof fetch,
  url: string,
  req: SignedRequest,
  signal: AbortSignal,
): Promise<{ status: number; response: ResponseExcerpt }> {
  const res = await f(url, {
    method: "POST",
    headers: req.headers,
    body: req.body,
    redirect: "manual",
    signal,
  });
  // Only the head of the body is read; the rest is cancelled.
  const head: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  try {
    while (reader && size <= RESPONSE_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      head.push(value);
      size += value.byteLength;
    }
  } catch { /* the status stands */ }
  await reader?.cancel().catch(() => {});
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => headers[k] = v);
  return { status: res.status, response: excerptOf(headers, head, size) };
}
