/** One attempt over real sockets on loopback: pinning, TLS names, timeouts, redirects, capped reads. */
import assert from "node:assert/strict";
import { dropUnreadableExtraCa, IDLE_SOCKET_MS, postOnce } from "./deliver.ts";
import type { Resolver } from "./destinations.ts";
import { signDelivery } from "./signing.ts";

const PAYLOAD = {
  id: "evt_deliver",
  event: "webhook.test",
  timestamp: "2026-11-22T12:00:00.000Z",
  timer_id: "tmr_deliver",
  title: null,
  type: "countdown" as const,
  data: {},
};
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const dir = new URL("./testdata/", import.meta.url);
const CA = Deno.readTextFileSync(new URL("ca.pem", dir));

interface Hit {
  host: string | null;
  body: string;
}

/** A receiver on `hostname` (port 0 = any); `answer` may return any Response. */
function serve(
  hostname: string,
  port = 0,
  answer: (req: Request) => Response | Promise<Response> = () => new Response("ok"),
  tls?: { cert: string; key: string },
) {
  const hits: Hit[] = [];
  const server = Deno.serve({ hostname, port, onListen() {}, ...tls }, async (req) => {
    hits.push({ host: req.headers.get("host"), body: await req.text() });
    return answer(req);
  });
  return { hits, port: server.addr.port, close: () => server.shutdown() };
}

/** A resolver that answers `first` the first time and `later` every time after, counting calls. */
function rebinding(first: string[], later: string[]) {
  const calls: string[] = [];
  const resolve: Resolver = (host) => {
    calls.push(host);
    return Promise.resolve(calls.length === 1 ? first : later);
  };
  return { calls, resolve };
}

Deno.test("DNS rebinding: the attempt connects to the address that was checked, never to a second answer", async () => {
  // Two receivers on one port: 127.0.0.2 stands for the checked address, 127.0.0.1 for what a
  // second lookup would answer. The name itself exists in no DNS: only the resolver knows it.
  const checked = serve("127.0.0.1");
  const port = checked.port;
  await checked.close();
  const target = serve("127.0.0.2", port);
  const loopback = serve("127.0.0.1", port);
  try {
    const dns = rebinding(["127.0.0.2"], ["127.0.0.1"]);
    const req = signDelivery(PAYLOAD, [SECRET], Date.now());
    const r = await postOnce(`http://rebind.example.test:${port}/hook`, req, {
      timeoutMs: 2000,
      allowPrivate: true,
      resolve: dns.resolve,
    });
    assert.equal(r.status, 200, r.error ?? "");
    assert.deepEqual(dns.calls, ["rebind.example.test"], "resolved exactly once");
    assert.equal(loopback.hits.length, 0, "the second answer is never used");
    assert.equal(target.hits.length, 1);
    assert.equal(target.hits[0].host, `rebind.example.test:${port}`, "the Host header keeps the name");
    assert.equal(target.hits[0].body, req.body);
  } finally {
    await target.close();
    await loopback.close();
  }
});

Deno.test("when private destinations are refused, a private answer stops the attempt before any connection", async () => {
  const rx = serve("127.0.0.1");
  try {
    const dns = rebinding(["127.0.0.1"], ["127.0.0.1"]);
    const req = signDelivery(PAYLOAD, [SECRET], Date.now());
    const r = await postOnce(`http://rebind.example.test:${rx.port}/hook`, req, {
      timeoutMs: 2000,
      allowPrivate: false,
      resolve: dns.resolve,
    });
    assert.equal(r.ok, false);
    assert.match(r.error!, /non-public address \(loopback\)/);
    assert.equal(rx.hits.length, 0);
  } finally {
    await rx.close();
  }
});

Deno.test("HTTPS to a pinned address keeps SNI and certificate verification for the host name", async () => {
  const tls = {
    cert: Deno.readTextFileSync(new URL("hooks.pem", dir)),
    key: Deno.readTextFileSync(new URL("hooks.key", dir)),
  };
  const rx = serve("127.0.0.1", 0, () => new Response("ok"), tls);
  const resolve: Resolver = () => Promise.resolve(["127.0.0.1"]);
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  const opts = { timeoutMs: 2000, allowPrivate: true, resolve, caCerts: [CA] };
  try {
    const good = await postOnce(`https://hooks.example.test:${rx.port}/hook`, req, opts);
    assert.equal(good.status, 200, good.error ?? "");
    assert.equal(rx.hits[0].host, `hooks.example.test:${rx.port}`);
    // The certificate is checked against the URL's name, not the address connected to.
    const wrongName = await postOnce(`https://other.example.test:${rx.port}/hook`, req, opts);
    assert.equal(wrongName.ok, false);
    assert.match(wrongName.error!, /network error: .*(altname|not valid|certificate)/i);
    const unknownCa = await postOnce(`https://hooks.example.test:${rx.port}/hook`, req, {
      ...opts,
      caCerts: undefined,
    });
    assert.equal(unknownCa.ok, false);
    assert.match(unknownCa.error!, /network error: .*(verify|certificate|issuer)/i);
    assert.equal(rx.hits.length, 1, "nothing is sent over a connection that failed verification");
  } finally {
    await rx.close();
  }
});

Deno.test("an attempt: redirects are not followed, a silent receiver times out, long answers are cut", async () => {
  const never = Promise.withResolvers<void>();
  const rx = serve("127.0.0.1", 0, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/redirect") return new Response(null, { status: 302, headers: { location: "/elsewhere" } });
    if (path === "/silent") return never.promise.then(() => new Response("late"));
    if (path === "/huge") return new Response(new Uint8Array(8 * 1024 * 1024));
    if (path === "/trickle") {
      const body = new ReadableStream({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 100));
          c.enqueue(new Uint8Array(10));
        },
      });
      return new Response(body);
    }
    if (path === "/fail") return new Response("no", { status: 503 });
    return new Response("ok");
  });
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  const at = (p: string, timeoutMs = 3000) =>
    postOnce(`http://localhost:${rx.port}${p}`, req, { timeoutMs, allowPrivate: true });
  try {
    assert.deepEqual((({ status, error, ok }) => ({ status, error, ok }))(await at("/redirect")), {
      status: 302,
      error: "redirect (302) not followed",
      ok: false,
    });
    assert.equal(rx.hits.filter((h) => h.body === req.body).length, 1, "no second request to the location");
    const silent = await at("/silent", 300);
    assert.equal(silent.error, "no answer within 300 ms");
    assert.ok(silent.duration_ms >= 290 && silent.duration_ms < 2000, String(silent.duration_ms));
    const huge = await at("/huge");
    assert.equal(huge.status, 200);
    const trickle = await at("/trickle", 400);
    assert.equal(trickle.status, 200, "the status received stands when the body trickles past the timeout");
    assert.ok(trickle.duration_ms < 2000);
    assert.equal((await at("/fail")).error, "HTTP 503");
    assert.equal((await at("/ok")).ok, true);
  } finally {
    never.resolve();
    await rx.close();
  }
});

Deno.test("a kept-alive connection the receiver closed meanwhile does not fail the next attempt", async () => {
  // A bare HTTP/1.1 receiver that answers one request per connection with keep-alive, then drops
  // the connection when a second request arrives on it (as an idle timeout racing a new request).
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  let connections = 0;
  const serving = (async () => {
    for await (const conn of listener) {
      connections++;
      (async () => {
        const buf = new Uint8Array(65536);
        let served = 0;
        while ((await conn.read(buf).catch(() => null)) !== null) {
          if (served++ === 1) break;
          await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"));
        }
        conn.close();
      })();
    }
  })().catch(() => {});
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  try {
    for (let i = 0; i < 3; i++) {
      const r = await postOnce(`http://127.0.0.1:${port}/hook`, req, { timeoutMs: 2000, allowPrivate: true });
      assert.equal(r.status, 200, `attempt ${i + 1}: ${r.error}`);
    }
    assert.equal(connections, 3, "each dropped connection was replaced, not reported as a failure");
  } finally {
    listener.close();
    await serving;
  }
});

Deno.test("kept-alive connections to receivers that never close them are closed once idle", async () => {
  // A receiver that answers at once and never closes a connection, reached under many host names
  // (wildcard DNS costs an attacker nothing): each name had its own pool, and its socket stayed
  // open for as long as the receiver held it, one file descriptor of the server's each.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  let open = 0;
  const serving = (async () => {
    for await (const conn of listener) {
      open++;
      (async () => {
        const buf = new Uint8Array(65536);
        while ((await conn.read(buf).catch(() => null)) !== null) {
          await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")).catch(() => {});
        }
        open--;
        conn.close();
      })();
    }
  })().catch(() => {});
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  const resolve: Resolver = () => Promise.resolve(["127.0.0.1"]);
  try {
    for (let i = 0; i < 20; i++) {
      const r = await postOnce(`http://h${i}.hooks.example:${port}/`, req, {
        timeoutMs: 2000,
        allowPrivate: true,
        resolve,
      });
      assert.equal(r.status, 200, r.error ?? "");
    }
    assert.equal(open, 20, "one kept-alive connection per host name");
    await new Promise((r) => setTimeout(r, IDLE_SOCKET_MS + 1500));
    assert.equal(open, 0, "idle connections were closed");
  } finally {
    listener.close();
    await serving;
  }
});

Deno.test("one deadline covers resolving, connecting and the answer", async () => {
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  const never = Promise.withResolvers<string[]>();
  let guard: ReturnType<typeof setTimeout> | undefined;
  const tooLate = new Promise<never>((_, reject) => guard = setTimeout(() => reject(new Error("no deadline")), 10_000));
  // A DNS server that never answers: the attempt still ends at its deadline.
  let started = performance.now();
  const hung = await Promise.race([
    postOnce("http://hooks.example.test/hook", req, {
      timeoutMs: 200,
      allowPrivate: true,
      resolve: () => never.promise,
    }),
    tooLate,
  ]);
  assert.equal(hung.ok, false);
  assert.equal(hung.error, "no answer within 200 ms");
  assert.ok(performance.now() - started < 1000);
  // A slow answer after a slow lookup: each alone fits, together they do not.
  const slow = serve("127.0.0.1", 0, () => new Promise((r) => setTimeout(() => r(new Response("ok")), 250)));
  const slowDns: Resolver = () => new Promise((r) => setTimeout(() => r(["127.0.0.1"]), 250));
  try {
    started = performance.now();
    const r = await Promise.race([
      postOnce(`http://hooks.example.test:${slow.port}/hook`, req, {
        timeoutMs: 400,
        allowPrivate: true,
        resolve: slowDns,
      }),
      tooLate,
    ]);
    assert.equal(r.ok, false);
    assert.equal(r.error, "no answer within 400 ms");
    assert.ok(performance.now() - started < 1000);
  } finally {
    clearTimeout(guard);
    await slow.close();
  }
});

Deno.test("attempts started together share a deadline timer: one answered in time leaves the others' deadlines standing", async () => {
  const never = Promise.withResolvers<void>();
  const rx = serve(
    "127.0.0.1",
    0,
    (req) =>
      new URL(req.url).pathname === "/slow" ? never.promise.then(() => new Response("late")) : new Response("ok"),
  );
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  const at = (p: string) => postOnce(`http://127.0.0.1:${rx.port}${p}`, req, { timeoutMs: 300, allowPrivate: true });
  let guard: ReturnType<typeof setTimeout> | undefined;
  const tooLate = new Promise<never>((_, reject) => guard = setTimeout(() => reject(new Error("no deadline")), 10_000));
  try {
    const started = performance.now();
    const [fast, slow, slower] = await Promise.race([Promise.all([at("/ok"), at("/slow"), at("/slow")]), tooLate]);
    assert.equal(fast.status, 200);
    assert.equal(slow.error, "no answer within 300 ms");
    assert.equal(slower.error, "no answer within 300 ms");
    const took = performance.now() - started;
    // Never early; how late depends on the machine's load (the guard above catches a deadline that never fires).
    assert.ok(took >= 300, `ended at the deadline, never early (${Math.round(took)} ms)`);
  } finally {
    clearTimeout(guard);
    never.resolve();
    await rx.close();
  }
});

Deno.test("an attempt given up at its deadline is never sent again, even over a kept-alive connection", async () => {
  // Deno 2.9.6's node:http resends a destroyed request over another pooled connection (denoland/deno#36786):
  // a receiver slower than the timeout would get each attempt twice.
  const never = Promise.withResolvers<void>();
  let slowHits = 0;
  const rx = serve("127.0.0.1", 0, (req) => {
    if (new URL(req.url).pathname !== "/slow") return new Response("ok");
    slowHits++;
    return never.promise.then(() => new Response("late"));
  });
  const req = signDelivery(PAYLOAD, [SECRET], Date.now());
  const at = (p: string, timeoutMs = 2000) =>
    postOnce(`http://127.0.0.1:${rx.port}${p}`, req, { timeoutMs, allowPrivate: true });
  try {
    // Several connections kept alive, so that one is free when the slow attempt is given up.
    for (const r of await Promise.all([at("/ok"), at("/ok"), at("/ok")])) assert.equal(r.status, 200);
    const slow = await at("/slow", 300);
    assert.equal(slow.error, "no answer within 300 ms");
    assert.equal((await at("/ok")).status, 200, "the pool still works after an attempt was given up");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(slowHits, 1, "the receiver got the attempt once");
  } finally {
    never.resolve();
    await rx.close();
  }
});

Deno.test("NODE_EXTRA_CA_CERTS without --allow-sys is dropped at start (node:https would fail every https webhook)", () => {
  const vars = new Map([["NODE_EXTRA_CA_CERTS", "/etc/extra.pem"]]);
  const env = { get: (k: string) => vars.get(k), delete: (k: string) => void vars.delete(k) };
  assert.equal(dropUnreadableExtraCa(env, true), null, "readable with --allow-sys: kept");
  assert.equal(vars.size, 1);
  assert.match(dropUnreadableExtraCa(env, false)!, /ignored/);
  assert.equal(vars.size, 0);
  assert.equal(dropUnreadableExtraCa(env, false), null, "nothing to drop");
});
