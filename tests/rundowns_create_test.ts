/**
 * A rundown and the timers created with it land in one atomic commit (or not at all): within the
 * plan's stored-timer limit, 100 items on the local KV, and nothing left behind when it fails.
 */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import { setup } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;
const talk = (i: number) => ({ type: "countdown", title: `Talk ${i + 1}`, duration: 300, warn_at: 60 });

/** Counts the KV commits made while `run` runs; `refuse(n)` makes the n-th (1-based) fail as a conflict would. */
async function commits<T>(run: () => Promise<T>, refuse: (n: number) => boolean = () => false) {
  const proto = Deno.AtomicOperation.prototype;
  const original = proto.commit;
  let n = 0, ok = 0;
  proto.commit = async function (this: Deno.AtomicOperation) {
    if (refuse(++n)) return { ok: false } as Deno.KvCommitError;
    const r = await original.call(this);
    if (r.ok) ok++;
    return r;
  };
  try {
    return { result: await run(), attempted: n, applied: ok };
  } finally {
    proto.commit = original;
  }
}

/** A first request with each key, so that its "last used" write is not among the commits counted. */
const warm = async (s: S) => {
  for (const k of [s.pro.apiKey, s.enterprise.apiKey]) {
    assert.equal((await s.call("GET", "/api/v1/rundowns", { key: k })).status, 200);
  }
};

const timersOf = async (s: S, acct: string) => {
  let n = 0;
  for await (const _ of s.kv.list({ prefix: key.acctTimers(acct) })) n++;
  return n;
};

Deno.test("a rundown of 100 new timers is written in one commit, timers and rundown together", async () => {
  const s = await setup();
  await warm(s);
  try {
    const items = Array.from({ length: 100 }, (_, i) => talk(i));
    const started = performance.now();
    const { result: r, applied } = await commits(() =>
      s.call("POST", "/api/v1/rundowns", { key: s.enterprise.apiKey, body: { title: "Long day", items } })
    );
    const ms = performance.now() - started;
    assert.equal(r.status, 201, JSON.stringify(r.body).slice(0, 300));
    assert.equal(applied, 1, "one commit");
    assert.equal(r.body.items.length, 100);
    assert.equal(await timersOf(s, s.enterprise.account.id), 100);
    // deno-lint-ignore no-console
    console.log(`100-item rundown created in ${ms.toFixed(0)} ms (one commit)`);
  } finally {
    await s.close();
  }
});

Deno.test("a refused commit leaves no timer behind; a creation that raced another tries again", async () => {
  const s = await setup();
  await warm(s);
  try {
    const items = Array.from({ length: 5 }, (_, i) => talk(i));
    // The first commit is refused (as when another creation of the account moved its sequence).
    const { result: r, attempted, applied } = await commits(
      () => s.call("POST", "/api/v1/rundowns", { body: { items } }),
      (n) => n === 1,
    );
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(attempted, 2);
    assert.equal(applied, 1);
    assert.equal(await timersOf(s, s.pro.account.id), 5, "the refused attempt's timers were never written");
    const stored = await Promise.all(
      r.body.items.map(async (i: { timer_id: string }) => (await s.kv.get(key.timer(i.timer_id))).value),
    );
    assert.ok(stored.every(Boolean));

    // Refused every time: 409, and still nothing of it stored.
    const { result: lost } = await commits(
      () => s.call("POST", "/api/v1/rundowns", { body: { items } }),
      () => true,
    );
    assert.equal(lost.status, 409);
    assert.equal(lost.body.error.field, "items");
    assert.equal(await timersOf(s, s.pro.account.id), 5);
  } finally {
    await s.close();
  }
});

Deno.test("the plan's stored-timer limit counts every timer the rundown would create: 403 and none created", async () => {
  const s = await setup();
  await warm(s);
  try {
    const limit = s.config.plans.pro.timers!;
    for (let i = 0; i < limit - 3; i++) await s.create({ type: "countdown", duration: 60 });
    const four = await s.call("POST", "/api/v1/rundowns", { body: { items: [0, 1, 2, 3].map(talk) } });
    assert.equal(four.status, 403);
    assert.match(four.body.error.message, new RegExp(`at most ${limit} timers`));
    assert.equal(await timersOf(s, s.pro.account.id), limit - 3);
    const three = await s.call("POST", "/api/v1/rundowns", { body: { items: [0, 1, 2].map(talk) } });
    assert.equal(three.status, 201);
    assert.equal(await timersOf(s, s.pro.account.id), limit);
    const over = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk(0)] } });
    assert.equal(over.status, 403);
    // Existing timers join without counting against it.
    const existing = await s.call("POST", "/api/v1/rundowns", {
      body: { items: [{ timer_id: three.body.items[0].timer_id }] },
    });
    assert.equal(existing.status, 409, "an item of another rundown already");
  } finally {
    await s.close();
  }
});

Deno.test("101 items are refused with 422 naming items, before anything is written", async () => {
  const s = await setup();
  await warm(s);
  try {
    const items = Array.from({ length: 101 }, (_, i) => talk(i));
    const r = await s.call("POST", "/api/v1/rundowns", { key: s.enterprise.apiKey, body: { items } });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.field, "items");
    assert.equal(await timersOf(s, s.enterprise.account.id), 0);
  } finally {
    await s.close();
  }
});

Deno.test("a wrong mode or an empty item list is refused naming what is allowed", async () => {
  const s = await setup();
  try {
    const key = s.enterprise.apiKey;
    const mode = await s.call("POST", "/api/v1/rundowns", { key, body: { mode: "auto", items: [talk(0)] } });
    assert.equal(mode.status, 422);
    assert.equal(mode.body.error.field, "mode");
    assert.match(mode.body.error.message, /^mode must be one of manual, linked, got "auto"$/);
    const empty = await s.call("POST", "/api/v1/rundowns", { key, body: { items: [] } });
    assert.equal(empty.status, 422);
    assert.equal(empty.body.error.field, "items");
    assert.match(empty.body.error.message, /^items must be a list of 1 to 100 items/);
  } finally {
    await s.close();
  }
});
