/**
 * A KV Connect server for tests: the protocol `Deno.openKv("http://…")` speaks (metadata exchange,
 * then protobuf `snapshot_read`, `atomic_write` and `watch` under /v2), answered by denokv's own
 * SQLite backend and its own request checks — the native module of the npm package
 * `@deno/kv-linux-x64-gnu` decodes each request, applies denokv's limits (10 checks, 1 000
 * mutations, 800 KiB, 10 read ranges, 10 watched keys…) and encodes the answer — with an added
 * delay per call standing for the network's round trip, and counters of what it answered.
 *
 * Like denokv's server it refuses an atomic write carrying enqueues (Deno's client refuses one
 * before sending it: KV Connect has no queues).
 *
 * Run: `deno run -A tests/kvconnect/server.ts --path=FILE|:memory: --token=T [--delay-ms=20] [--port=0]`;
 * it prints one JSON line `{"listening":"http://127.0.0.1:PORT"}`.
 */
import { createRequire } from "node:module";
import { countField, DATABASE_ID, varintField } from "./proto.ts";

interface DenoKvNapi {
  open(path: string, inMemory: boolean | null, debug: boolean): number;
  close(db: number, debug: boolean): void;
  snapshotRead(db: number, req: Uint8Array, debug: boolean): Promise<Uint8Array>;
  atomicWrite(db: number, req: Uint8Array, debug: boolean): Promise<Uint8Array>;
  startWatch(db: number, req: Uint8Array, debug: boolean): Promise<number>;
  dequeueNextWatchMessage(db: number, watch: number, debug: boolean): Promise<Uint8Array | undefined>;
  endWatch(db: number, watch: number, debug: boolean): void;
}

// A native addon loads only through require (Deno refuses `.node` files as ES modules).
const napi = createRequire(import.meta.url)("@deno/kv-linux-x64-gnu") as DenoKvNapi;

/** AtomicWriteOutput.status values (proto/schema/datapath.proto). */
const AW_SUCCESS = 1, AW_CHECK_FAILURE = 2;

/** denokv's answers to requests its conversion refuses (denokv/main.rs `ApiError`), by the native module's error name. */
const REFUSALS: Record<string, string> = {
  KeyTooLong: "A key exceeds the key size limit.",
  ValueTooLong: "A value exceeds the value size limit.",
  ReadRangeTooLarge: "The total number of entries requested across read ranges in the read request is too large.",
  AtomicWriteTooLarge: "The total size of the atomic write is too large.",
  TooManyReadRanges: "Too many read ranges requested in one read request.",
  TooManyWatchedKeys: "Too many keys watched in a single watch request.",
  TooManyChecks: "Too many checks included in atomic write.",
  TooManyMutations: "Too many mutations / enqueues included in atomic write.",
  TooManyQueueUndeliveredKeys: "Too many dead letter keys for a single queue message.",
  TooManyQueueBackoffIntervals: "Too many backoff intervals for a single queue message.",
  QueueBackoffIntervalTooLarge: "A backoff interval exceeds the maximum allowed backoff interval.",
  InvalidReadRangeLimit: "The read range limit of the snapshot read request is invalid.",
  InvalidVersionstamp: "Invalid versionstamp.",
  InvalidMutationKind: "Invalid mutation kind or arguments.",
  InvalidMutationExpireAt: "Invalid mutation expire at.",
  InvalidMutationEnqueueDeadline: "Invalid mutation enqueue deadline.",
};

export interface KvConnectOptions {
  /** A SQLite file, or ":memory:". */
  path: string;
  /** The access token clients send (`DENO_KV_ACCESS_TOKEN`); denokv wants at least 12 characters. */
  token: string;
  /** Added before every answer, metadata exchange included (a network round trip). */
  delayMs?: number;
  port?: number;
  hostname?: string;
}

/** What the server answered since it started. */
export interface KvConnectStats {
  reads: number;
  /** Atomic writes applied. */
  commits: number;
  /** Atomic writes answered AW_CHECK_FAILURE (a check did not match). */
  checkFailures: number;
  /** Requests answered 4xx (limits, enqueues, bad token…). */
  refused: number;
  watches: number;
}

export interface KvConnectServer {
  url: string;
  stats: KvConnectStats;
  shutdown(): Promise<void>;
}

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

const bearer = (req: Request) => /^bearer (.+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];

/** Starts the server; `shutdown` stops it and closes the database. */
export function serveKvConnect(opts: KvConnectOptions): Promise<KvConnectServer> {
  if (opts.token.length < 12) throw new Error("the access token must be at least 12 characters (as denokv requires)");
  const memory = opts.path === ":memory:";
  const db = napi.open(opts.path, memory, false);
  const delayMs = opts.delayMs ?? 0;
  const stats: KvConnectStats = { reads: 0, commits: 0, checkFailures: 0, refused: 0, watches: 0 };
  const watches = new Set<number>();
  const closing = new AbortController();
  const pause = () => delayMs > 0 ? new Promise((r) => setTimeout(r, delayMs)) : Promise.resolve();

  const refuse = (status: number, message: string) => {
    stats.refused++;
    return text(status, message);
  };

  /**
   * denokv's conversion errors are 400 with its message. Any other refusal of the native module
   * (a sum on a value that is no KvU64…) is a 400 too: the client retries a 5xx forever.
   */
  const failed = (e: unknown) => {
    // The native module's message starts with the error's name, then a backtrace.
    const name = (e instanceof Error ? e.message : String(e)).split("\n")[0].trim();
    if (closing.signal.aborted) return text(503, "The server is temporarially unavailable, try again later.");
    return refuse(400, REFUSALS[name] ?? name);
  };

  const metadata = async (req: Request) => {
    let body: { supportedVersions?: unknown };
    try {
      body = await req.json();
    } catch {
      return refuse(400, "The server requires at least protocol version 2. Use Deno 1.38.0 or newer.");
    }
    const versions = Array.isArray(body?.supportedVersions) ? body.supportedVersions : [];
    const version = versions.includes(3) ? 3 : versions.includes(2) ? 2 : 0;
    if (!version) {
      return refuse(
        400,
        "The server could not negotiate a protocol version. The server requires protocol version 2 or 3.",
      );
    }
    const token = bearer(req);
    if (token === undefined) return refuse(401, "Malformed authorization header.");
    if (token !== opts.token) return refuse(401, "Invalid access token.");
    return Response.json({
      version,
      databaseId: DATABASE_ID,
      endpoints: [{ url: "/v2", consistency: "strong" }],
      token: opts.token,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
  };

  /** The data path's headers, as denokv's authentication middleware checks them. */
  const authorised = (req: Request): Response | null => {
    const v = req.headers.get("x-denokv-version");
    if (v !== "2" && v !== "3") return refuse(400, "Expected protocol version 2.");
    const token = bearer(req);
    if (token === undefined) return refuse(401, "Malformed authorization header.");
    if (token !== opts.token) return refuse(401, "Invalid access token.");
    if (req.headers.get("x-denokv-database-id") !== DATABASE_ID) return refuse(400, "Invalid database id.");
    return null;
  };

  const protobuf = (body: Uint8Array) =>
    new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/x-protobuf" } });

  const atomicWrite = async (body: Uint8Array) => {
    // AtomicWrite field 3: enqueues.
    if (countField(body, 3) > 0) return refuse(400, "Enqueue operations are not supported in KV Connect.");
    const out = await napi.atomicWrite(db, body, false);
    const status = varintField(out, 1);
    if (status === AW_SUCCESS) stats.commits++;
    else if (status === AW_CHECK_FAILURE) stats.checkFailures++;
    return protobuf(out);
  };

  const watch = async (body: Uint8Array) => {
    const id = await napi.startWatch(db, body, false);
    watches.add(id);
    stats.watches++;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      watches.delete(id);
      napi.endWatch(db, id, false);
    };
    const frame = (msg: Uint8Array) => {
      const out = new Uint8Array(4 + msg.length);
      new DataView(out.buffer).setUint32(0, msg.length, true);
      out.set(msg, 4);
      return out;
    };
    let ping: ReturnType<typeof setInterval> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(ctl) {
        // A zero-length frame every 5 s tells the client the stream is alive, as denokv does.
        ping = setInterval(() => ctl.enqueue(frame(new Uint8Array())), 5000);
        closing.signal.addEventListener("abort", () => {
          clearInterval(ping);
          end();
          try {
            ctl.close();
          } catch { /* already closed */ }
        }, { once: true });
      },
      async pull(ctl) {
        const msg = done ? undefined : await napi.dequeueNextWatchMessage(db, id, false).catch(() => undefined);
        if (done) {
          // Ended while waiting: the native module took the watch back when the message came.
          napi.endWatch(db, id, false);
          return;
        }
        if (msg === undefined) {
          clearInterval(ping);
          end();
          if (!closing.signal.aborted) ctl.close();
          return;
        }
        ctl.enqueue(frame(msg));
      },
      cancel() {
        clearInterval(ping);
        end();
      },
    });
    return new Response(stream, { headers: { "content-type": "application/octet-stream" } });
  };

  const handler = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    await pause();
    if (req.method === "GET" && path === "/stats") return Response.json(stats);
    if (req.method !== "POST") return refuse(404, "Resource not found.");
    if (path === "/") return metadata(req);
    const call = /^\/v2\/(snapshot_read|atomic_write|watch)$/.exec(path)?.[1];
    if (!call) return refuse(404, "Resource not found.");
    const denied = authorised(req);
    if (denied) return denied;
    const body = new Uint8Array(await req.arrayBuffer());
    try {
      if (call === "snapshot_read") {
        const out = await napi.snapshotRead(db, body, false);
        stats.reads++;
        return protobuf(out);
      }
      if (call === "atomic_write") return await atomicWrite(body);
      return await watch(body);
    } catch (e) {
      return failed(e);
    }
  };

  const { promise, resolve } = Promise.withResolvers<KvConnectServer>();
  const server = Deno.serve({
    port: opts.port ?? 0,
    hostname: opts.hostname ?? "127.0.0.1",
    signal: closing.signal,
    onListen: ({ hostname, port }) =>
      resolve({
        url: `http://${hostname}:${port}`,
        stats,
        async shutdown() {
          closing.abort();
          await server.finished;
          for (const id of watches) napi.endWatch(db, id, false);
          napi.close(db, false);
        },
      }),
  }, handler);
  return promise;
}

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return Deno.args.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

if (import.meta.main) {
  const token = flag("token") ?? Deno.env.get("DENO_KV_ACCESS_TOKEN");
  if (!token) throw new Error("--token=T (or DENO_KV_ACCESS_TOKEN) is required");
  const server = await serveKvConnect({
    path: flag("path") ?? ":memory:",
    token,
    delayMs: Number(flag("delay-ms") ?? 0),
    port: Number(flag("port") ?? 0),
  });
  const stop = () => server.shutdown().then(() => Deno.exit(0));
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  // deno-lint-ignore no-console
  console.log(JSON.stringify({ listening: server.url }));
}
