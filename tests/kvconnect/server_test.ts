/**
 * The test KV Connect server, driven by Deno's own KV Connect client (`Deno.openKv(url)`) and by
 * raw protocol requests where the client would refuse to send them.
 */
import assert from "node:assert/strict";
import { startKvConnect } from "./helper.ts";
import { DATABASE_ID, encode } from "./proto.ts";

Deno.test("Deno's client reads, writes, lists, sums and checks versionstamps through the server", async () => {
  const server = await startKvConnect();
  const kv = await server.open();
  try {
    const set = await kv.set(["t", "a"], { title: "x" });
    assert.ok(set.ok);
    const got = await kv.get(["t", "a"]);
    assert.deepEqual(got.value, { title: "x" });
    assert.equal(got.versionstamp, set.versionstamp);
    await kv.set(["t", "b"], new Uint8Array([1, 2]));
    assert.deepEqual((await Array.fromAsync(kv.list({ prefix: ["t"] }))).map((e) => e.key), [["t", "a"], ["t", "b"]]);
    assert.deepEqual((await kv.getMany([["t", "b"], ["t", "none"]])).map((e) => e.value), [
      new Uint8Array([1, 2]),
      null,
    ]);
    await kv.atomic().sum(["n"], 5n).sum(["n"], 2n).commit();
    assert.equal((await kv.get<Deno.KvU64>(["n"])).value?.value, 7n);

    const stale = await kv.atomic().check({ key: ["t", "a"], versionstamp: null }).set(["t", "a"], 1).commit();
    assert.equal(stale.ok, false, "a check on a stale versionstamp fails");
    const fresh = await kv.atomic().check(got).delete(["t", "a"]).commit();
    assert.ok(fresh.ok);
    assert.equal((await kv.get(["t", "a"])).value, null);
    const stats = await server.stats();
    assert.equal(stats.checkFailures, 1, JSON.stringify(stats));
    assert.ok(stats.commits >= 4 && stats.reads >= 4, JSON.stringify(stats));
  } finally {
    kv.close();
    await server.stop();
  }
});

Deno.test("a commit of 11 checks is refused and one of 10 accepted, as denokv does", async () => {
  const server = await startKvConnect();
  const kv = await server.open();
  try {
    const op = (n: number) => {
      const a = kv.atomic();
      for (let i = 0; i < n; i++) a.check({ key: ["probe", i], versionstamp: null });
      return a.commit();
    };
    assert.ok((await op(10)).ok);
    await assert.rejects(op(11), /Too many checks/);
    assert.equal((await server.stats()).refused, 1);
  } finally {
    kv.close();
    await server.stop();
  }
});

Deno.test("an atomic write carrying an enqueue is refused (KV Connect has no queues)", async () => {
  const server = await startKvConnect();
  const kv = await server.open();
  try {
    await assert.rejects(kv.enqueue({ kind: "x" }), /not supported/, "Deno's client refuses before sending");
    // The server refuses one sent all the same: AtomicWrite { enqueues: [Enqueue { payload, deadline_ms }] }.
    const enqueue = encode([{ no: 1, value: new Uint8Array([0xff, 0x0f, 0x49, 0x02]) }, { no: 2, value: Date.now() }]);
    const headers = {
      authorization: `Bearer ${server.token}`,
      "content-type": "application/x-protobuf",
      "x-denokv-version": "3",
      "x-denokv-database-id": DATABASE_ID,
    };
    const res = await fetch(`${server.url}/v2/atomic_write`, {
      method: "POST",
      headers,
      body: encode([{ no: 3, value: enqueue }]),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Enqueue operations are not supported/);
    // The same request without the enqueue is applied.
    const ok = await fetch(`${server.url}/v2/atomic_write`, { method: "POST", headers, body: new Uint8Array() });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  } finally {
    kv.close();
    await server.stop();
  }
});

Deno.test("the metadata exchange negotiates version 3 and refuses a wrong token or no common version", async () => {
  const server = await startKvConnect();
  try {
    const post = (token: string, body: unknown) =>
      fetch(server.url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await post(server.token, { supportedVersions: [1, 2, 3] });
    assert.equal(ok.status, 200);
    const meta = await ok.json();
    assert.equal(meta.version, 3);
    assert.equal(meta.databaseId, DATABASE_ID);
    assert.deepEqual(meta.endpoints, [{ url: "/v2", consistency: "strong" }]);
    const wrong = await post("not-the-token-at-all", { supportedVersions: [3] });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const old = await post(server.token, { supportedVersions: [1] });
    assert.equal(old.status, 400);
    await old.body?.cancel();
  } finally {
    await server.stop();
  }
});

Deno.test("a watch over the server sees another client's write, and each call waits the added delay", async () => {
  const server = await startKvConnect({ delayMs: 60 });
  const writer = await server.open();
  const watcher = await server.open();
  try {
    await writer.set(["w"], 1);
    const t0 = performance.now();
    await writer.get(["w"]);
    assert.ok(performance.now() - t0 >= 55, "a read waits the added delay");
    const reader = watcher.watch([["w"]]).getReader();
    assert.equal((await reader.read()).value?.[0].value, 1);
    await writer.set(["w"], 2);
    for (;;) {
      const { value } = await reader.read();
      if (value?.[0].value === 2) break;
    }
    await reader.cancel();
  } finally {
    writer.close();
    watcher.close();
    await server.stop();
  }
});

Deno.test("a file-backed server keeps its data across a restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kvconnect-" });
  try {
    const first = await startKvConnect({ path: `${dir}/kv.sqlite3` });
    let kv = await first.open();
    await kv.set(["kept"], "yes");
    kv.close();
    await first.stop();
    const second = await startKvConnect({ path: `${dir}/kv.sqlite3` });
    kv = await second.open();
    assert.equal((await kv.get(["kept"])).value, "yes");
    kv.close();
    await second.stop();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a restart keeps the port, token and file: a client opened before it reads and writes after it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kvconnect-" });
  const server = await startKvConnect({ path: `${dir}/kv.sqlite3` });
  const kv = await server.open();
  const watcher = await server.open();
  try {
    await kv.set(["kept"], 1);
    const reader = watcher.watch([["kept"]]).getReader();
    assert.equal((await reader.read()).value?.[0].value, 1);
    const r = await server.restart();
    assert.equal(r.signal, "SIGTERM");
    assert.equal((await kv.get(["kept"])).value, 1, "the same client reads the kept value through the same URL");
    assert.ok((await kv.set(["kept"], 2)).ok);
    // The watch opened before the restart goes on (Deno's client opens it again) and sees the write after it.
    const seen = await Promise.race([
      (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return "ended";
          if (value?.[0].value === 2) return "seen";
        }
      })(),
      new Promise((r) => setTimeout(() => r("timeout"), 10_000)),
    ]);
    assert.equal(seen, "seen");
    await reader.cancel().catch(() => {});
  } finally {
    kv.close();
    watcher.close();
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
