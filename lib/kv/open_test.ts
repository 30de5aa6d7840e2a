import assert from "node:assert/strict";
import { isBusy, retryBusy, retryingKv } from "./open.ts";

const locked = () => new TypeError("database is locked");

/** A stand-in for Deno.Kv whose calls fail as busy `failures` times before they work. */
class FlakyKv {
  calls: Record<string, number> = {};
  constructor(readonly failures: number) {}
  #attempt(name: string) {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
    if (this.calls[name] <= this.failures) throw locked();
  }
  get(key: unknown) {
    return Promise.resolve().then(() => (this.#attempt("get"), { key, value: 1, versionstamp: "1" }));
  }
  getMany() {
    return Promise.resolve().then(() => (this.#attempt("getMany"), []));
  }
  set() {
    return Promise.resolve().then(() => (this.#attempt("set"), { ok: true, versionstamp: "2" }));
  }
  delete() {
    return Promise.resolve().then(() => this.#attempt("delete"));
  }
  enqueue() {
    return Promise.resolve().then(() => (this.#attempt("enqueue"), { ok: true, versionstamp: "3" }));
  }
  atomic() {
    const commit = () => Promise.resolve().then(() => (this.#attempt("commit"), { ok: true, versionstamp: "4" }));
    return { commit };
  }
  list() {
    let done = false;
    return {
      cursor: "",
      next: () =>
        Promise.resolve().then(() => {
          this.#attempt("next");
          const r = done ? { done: true, value: undefined } : { done: false, value: { key: ["a"] } };
          done = true;
          return r;
        }),
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}

Deno.test("every KV call retries SQLite's busy answer and then succeeds", async () => {
  const fake = new FlakyKv(3);
  // Its methods sit on its class's prototype, where the wrapper finds them on a real Deno.Kv.
  const kv = retryingKv(fake as unknown as Deno.Kv);
  assert.equal((await kv.get(["a"])).value, 1);
  await kv.getMany([["a"]]);
  assert.equal((await kv.set(["a"], 1)).ok, true);
  await kv.delete(["a"]);
  await kv.enqueue({});
  assert.equal((await kv.atomic().commit()).ok, true);
  const keys = [];
  for await (const e of kv.list({ prefix: [] })) keys.push(e.key);
  assert.deepEqual(keys, [["a"]]);
  for (const name of ["get", "getMany", "set", "delete", "enqueue", "commit"]) assert.equal(fake.calls[name], 4, name);
});

Deno.test("other errors are not retried, and a busy file gives up after the deadline", async () => {
  let calls = 0;
  await assert.rejects(
    retryBusy(() => {
      calls++;
      return Promise.reject(new TypeError("Key too large for write (max 2048 bytes)"));
    }),
    /Key too large/,
  );
  assert.equal(calls, 1);
  calls = 0;
  const t0 = performance.now();
  await assert.rejects(retryBusy(() => (calls++, Promise.reject(locked())), 150), /database is locked/);
  assert.ok(calls > 2 && performance.now() - t0 < 1000, `${calls} attempts`);
  assert.ok(isBusy(locked()) && !isBusy(new Error("database is locked")) && !isBusy(new TypeError("other")));
});
