/** Test harness: the real app on a fresh in-memory KV, an injected clock, and accounts per plan. */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { createApp } from "../app.ts";
import { type Config, DEFAULT_PLANS, testConfig } from "../config.ts";
import { createAccount } from "../lib/accounts/accounts.ts";
import { Store } from "../lib/kv/store.ts";

export const T0 = Date.parse("2026-11-22T12:00:00.000Z");

/** A clock tests move by hand. */
export class TestClock {
  constructor(public t = T0) {}
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

/**
 * The real clock, or one that runs at its pace from `startAt` on (a page whose answers depend on
 * the date, tested on a pinned day while its timers still run in real time).
 */
export function realClock(startAt?: number): () => number {
  if (startAt === undefined) return () => Date.now();
  const since = performance.now();
  return () => Math.floor(startAt + performance.now() - since);
}

export interface Reply {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
}

/** Generous limits so that only the rate-limit tests meet them. */
const ROOMY = structuredClone(DEFAULT_PLANS);
ROOMY.pro.per_minute = 100_000;
ROOMY.pro.per_day = null;
ROOMY.anonymous.per_minute = 100_000;
ROOMY.free.per_minute = 100_000;

export async function setup(
  opts: { config?: Partial<Config>; useQueue?: boolean; realTime?: boolean; startAt?: number; kvPath?: string } = {},
) {
  const kv = await Deno.openKv(opts.kvPath ?? ":memory:");
  const clock = new TestClock(opts.realTime ? Date.now() : T0);
  if (opts.realTime) clock.now = realClock(opts.startAt);
  const config = testConfig({ siteUrl: "http://timers.test", plans: ROOMY, ...opts.config });
  const store = new Store(kv, { useQueue: opts.useQueue ?? false });
  const app = createApp({ store, config, now: clock.now });
  const pro = await createAccount(store, { plan: "pro", name: "Pro Co" });
  const other = await createAccount(store, { plan: "pro", name: "Other Co" });
  const free = await createAccount(store, { plan: "free", name: "Free Co" });
  const enterprise = await createAccount(store, { plan: "enterprise", name: "Big Co" });

  /** Calls the app; `key` defaults to the pro account's key (pass null for none). */
  async function call(
    method: string,
    path: string,
    o: {
      body?: unknown;
      raw?: string | Uint8Array<ArrayBuffer>;
      key?: string | null;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...o.headers };
    const key = o.key === undefined ? pro.apiKey : o.key;
    if (key !== null) headers.authorization ??= `Bearer ${key}`;
    let payload: string | Uint8Array<ArrayBuffer> | undefined = o.raw;
    if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined) headers["content-type"] ??= "application/json";
    const res = await app.app.request(`http://timers.test${path}`, { method, headers, body: payload });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, body, headers: res.headers };
  }

  /** Creates a timer as the pro account and returns the response body. */
  async function create(input: Record<string, unknown>, key?: string) {
    const r = await call("POST", "/api/v1/timers", { body: input, key });
    if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  const act = (id: string, action: string, key?: string | null) =>
    call("PATCH", `/api/v1/timers/${id}/state`, { body: { action }, key });

  async function close() {
    await app.scheduler.stop();
    await app.limiter.stop();
    await app.requestLog.stop();
    kv.close();
  }

  return { kv, clock, config, store, app, pro, other, free, enterprise, call, create, act, close };
}

/**
 * The real app with its scheduler started on the injected clock: retries 0.2–0.3 s apart, and an
 * attempt's timeout (real time) long enough that only a hang times out while the clock stands still.
 */
export async function clocked(config: Partial<Config> = {}) {
  const s = await setup({ config: { webhookRetryDelays: [0.2, 0.3, 0.2, 0.2], webhookTimeoutMs: 30_000, ...config } });
  s.app.scheduler.start();
  await s.app.scheduler.sweep();
  return s;
}

/** Moves the injected clock and lets the scheduler do what is due until nothing is. */
export async function advance(s: Awaited<ReturnType<typeof clocked>>, ms: number) {
  s.clock.advance(ms);
  for (let i = 0; i < 50; i++) {
    await s.app.scheduler.sweep();
    await s.app.scheduler.settled();
    let due = false;
    for await (const page of s.store.timers.overdue(s.clock.now())) {
      if (page.some((e) => e.item.kind !== "expire")) due = true;
    }
    if (!due) return;
  }
}

/** A webhook receiver on 127.0.0.1 that records what it gets; `answer` decides each response. */
export function receiver(answer: (n: number, req: Request) => Response | Promise<Response> = () => new Response("ok")) {
  const received: { body: string; headers: Headers; at: number; json: Record<string, unknown> }[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    let json = {};
    try {
      json = JSON.parse(body);
    } catch { /* recorded as is */ }
    received.push({ body, headers: req.headers, at: Date.now(), json });
    for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
    return await answer(received.length, req);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    received,
    /** Resolves once `n` requests have arrived (rejects after `ms`). */
    waitFor(n: number, ms = 10_000): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      const { promise, resolve, reject } = Promise.withResolvers<void>();
      const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${n} deliveries arrived`)), ms);
      waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      return promise;
    },
    close: () => server.shutdown(),
  };
}

/** A passkey record as a stranger's authenticator would have left it (pre-hijacking tests). */
export function strangerPasskey(userId: string, at: number) {
  return {
    id: "cred-of-the-attacker",
    user_id: userId,
    public_key: "AAAA",
    counter: 0,
    transports: [],
    name: "Attacker",
    created_at: at,
    last_used_at: null,
  };
}

/** One person's browser against `app` at `site`: keeps cookies, sends the site's Origin on POSTs. */
export function formBrowser(
  app: { request(url: string, init: RequestInit): Response | Promise<Response> },
  site: string,
  ip = "203.0.113.7",
) {
  const jar = new Map<string, string>();
  async function raw(method: string, path: string, o: { form?: Record<string, string>; json?: unknown } = {}) {
    const headers: Record<string, string> = { "x-forwarded-for": ip };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    if (method !== "GET") Object.assign(headers, { origin: site, "sec-fetch-site": "same-origin" });
    let body: string | undefined;
    if (o.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(o.form).toString();
    } else if (o.json !== undefined) {
      headers["content-type"] = "application/json";
      headers["x-csrf-token"] = jar.get("__Host-csrf") ?? "";
      body = JSON.stringify(o.json);
    }
    const res = await app.request(`${site}${path}`, { method, headers, body, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [k, v] = c.split(";")[0].split("=");
      if (/Max-Age=0/i.test(c) || v === "") jar.delete(k);
      else jar.set(k, v);
    }
    return res;
  }
  async function request(method: string, path: string, o: { form?: Record<string, string>; json?: unknown } = {}) {
    const res = await raw(method, path, o);
    return { status: res.status, text: await res.text(), headers: res.headers };
  }
  async function csrfOf(path: string): Promise<string> {
    const m = /name="_csrf" value="([^"]+)"/.exec((await request("GET", path)).text);
    if (!m) throw new Error(`no CSRF field on ${path}`);
    return m[1];
  }
  const form = async (page: string, path: string, fields: Record<string, string>) =>
    await request("POST", path, { form: { _csrf: await csrfOf(page), ...fields } });
  return { jar, raw, request, csrfOf, form };
}

/**
 * The app on an https site behind one proxy, with the development mailer's lines kept (sign-up,
 * sign-in and account tests); `lastToken` reads the latest mailed link for a path.
 */
export async function accountsWorld(over: Partial<Config> = {}, realTime = false, site = "https://timers.test") {
  const kv = await Deno.openKv(":memory:");
  const clock = new TestClock(T0);
  if (realTime) clock.now = () => Date.now();
  const logs: Record<string, unknown>[] = [];
  const config = testConfig({ siteUrl: site, trustProxyHops: 1, ...over });
  const store = new Store(kv);
  const app = createApp({ store, config, now: clock.now, log: (l) => logs.push(l) });
  async function close() {
    await app.scheduler.stop();
    await app.limiter.stop();
    await app.requestLog.stop();
    kv.close();
  }
  /** The token of the latest link the development mailer logged for `path` ("/reset", "/verify"). */
  const lastToken = (path: string) => {
    const link = logs.map((l) => String(l.link ?? "")).findLast((l) => l.includes(`${path}?token=`));
    if (!link) throw new Error(`no ${path} link was mailed`);
    return new URL(link).searchParams.get("token")!;
  };
  return { kv, clock, logs, store, app, lastToken, close };
}

/**
 * What Deno.serve hands the app with a request: the peer, and `completed`, settled once the
 * response is delivered or the client gone (`done` settles it), for `app.fetch(request, env)`.
 */
export function served(hostname = "192.0.2.7") {
  const done = Promise.withResolvers<void>();
  return { env: { remoteAddr: { hostname }, completed: done.promise }, done };
}

/**
 * Checks that an ended stream still holds its place while its connection (`held`) is not done
 * with: `open` is refused with `status` until `held.done` settles, then answers 200. Returns that
 * new stream's answer and its connection.
 */
export async function placeHeldUntilDone(
  open: (env: ReturnType<typeof served>["env"]) => Response | Promise<Response>,
  held: ReturnType<typeof served>,
  status: number,
  hostnames: [string, string] = ["192.0.2.7", "192.0.2.7"],
) {
  const refused = served(hostnames[0]);
  const r = await open(refused.env);
  assert.equal(r.status, status, "the place is held while the connection is not done with");
  await r.body?.cancel();
  refused.done.resolve();
  held.done.resolve();
  await new Promise((r) => setTimeout(r, 0));
  const next = served(hostnames[1]);
  const res = await open(next.env);
  assert.equal(res.status, 200, "and given back once it is");
  return { res, connection: next };
}

/** An Ajv that knows the OpenAPI document as `openapi.json` (its schemas: `openapi.json#/components/schemas/…`). */
export function documentAjv(doc: unknown, opts: { allErrors?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, ...opts });
  addFormats.default(ajv);
  ajv.addSchema(doc as object, "openapi.json");
  return ajv;
}
