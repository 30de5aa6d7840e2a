/**
 * Reading an instant's records in ranges side by side (over a network): a listing that fails, or a
 * reader that stops early, leaves no listing open and no failure unheard of (an unhandled
 * rejection ends a Deno process).
 */
import assert from "node:assert/strict";
import { DueIndex } from "./due.ts";
import { REMOTE_KV_LIMITS } from "./batch.ts";
import { rangesOf, SHARDS } from "../webhooks/shards.ts";
import { claim } from "../webhooks/delivery_model.ts";
import { receiver, setup } from "../../tests/helpers.ts";
import { loseTimerChangeAnswers } from "../../tests/lost_answers.ts";

/**
 * A KV whose listings fail after a delay of their own (the link went down); those `yielding` give
 * one record first.
 */
function failingKv(delayOf: (n: number) => number, yielding: (n: number) => boolean) {
  const opened: { closed: boolean }[] = [];
  const kv = {
    list(selector: Deno.KvListSelector) {
      const n = opened.length;
      const state = { closed: false };
      opened.push(state);
      const at = ("prefix" in selector ? selector.prefix : selector.start)[1] as number;
      return (async function* () {
        try {
          await new Promise((r) => setTimeout(r, delayOf(n)));
          if (yielding(n)) {
            yield { key: ["due_rec", at, "timer", `tmr_${n}`], value: { kind: "timer" }, versionstamp: "1" };
          }
          await new Promise((r) => setTimeout(r, delayOf(n)));
          throw new Error(`listing ${n}: connection reset`);
        } finally {
          state.closed = true;
        }
      })();
    },
  } as unknown as Deno.Kv;
  return { kv, opened };
}

/** Runs `body`, and returns the rejections nobody handled meanwhile (and within `afterMs` after). */
async function unhandled(body: () => Promise<void>, afterMs: number): Promise<unknown[]> {
  const seen: unknown[] = [];
  const on = (e: PromiseRejectionEvent) => {
    e.preventDefault();
    seen.push(e.reason);
  };
  globalThis.addEventListener("unhandledrejection", on);
  try {
    await body();
    await new Promise((r) => setTimeout(r, afterMs));
  } finally {
    globalThis.removeEventListener("unhandledrejection", on);
  }
  return seen;
}

const every = [...Array(SHARDS).keys()];

Deno.test("ranges read side by side: one failing fails the read, and the others' failures are not left unhandled", async () => {
  // The first listing fails first; the rest fail a little later (one link down for all).
  const { kv, opened } = failingKv((n) => n === 0 ? 1 : 30, () => false);
  const index = new DueIndex(kv, { useQueue: false, limits: REMOTE_KV_LIMITS });
  assert.ok(index.remote);
  let failed: unknown;
  const lost = await unhandled(async () => {
    try {
      for await (const _ of index.recordsAt([1_000], rangesOf(every, SHARDS, 8))) { /* reading */ }
    } catch (e) {
      failed = e;
    }
  }, 150);
  assert.match(String(failed), /connection reset/);
  assert.ok(opened.length >= 8, `${opened.length} listings`);
  assert.deepEqual(lost, [], "every listing's failure is heard of");
  assert.ok(opened.every((o) => o.closed), "no listing left open");
});

Deno.test("ranges read side by side: a reader that stops early closes every listing, and their late failures go unheard by nobody", async () => {
  const { kv, opened } = failingKv((n) => n === 0 ? 1 : 30, (n) => n === 0);
  const index = new DueIndex(kv, { useQueue: false, limits: REMOTE_KV_LIMITS });
  const lost = await unhandled(async () => {
    // pageSize 1: the first record makes a page; the reader stops there (the process stops).
    for await (const page of index.recordsAt([1_000], rangesOf(every, SHARDS, 8), [], 1)) {
      assert.equal(page.length, 1);
      break;
    }
  }, 150);
  assert.deepEqual(lost, [], "no failure of a listing still reading is left unhandled");
  assert.ok(opened.every((o) => o.closed), "no listing left open");
});

Deno.test("what this instance's own commits scheduled outside its ranges is read by key in pages, like the ranges", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const index = new DueIndex(kv, { useQueue: false });
    const at = 5_000;
    const also = Array.from({ length: 1_200 }, (_, n) => ({ at, kind: "timer" as const, ref: `tmr_z${n}` }));
    for (const i of also) await kv.set(["due_rec", i.at, i.kind, i.ref], { kind: "timer", timer: { id: i.ref } });
    const sizes: number[] = [];
    // No ranges held: only what was read by key.
    for await (const page of index.recordsAt([at], [], also, 500)) sizes.push(page.length);
    assert.deepEqual(sizes, [500, 500, 200]);
  } finally {
    kv.close();
  }
});

Deno.test("a commit that landed though refused announces only the claims it made: one another instance took over since is not sent here", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const rx = receiver();
  // The KV applies the next commit of a timer change but answers that its check failed; before the
  // answer comes, another instance (taking this one for gone: frozen, or cut off) claims what it bore.
  let timerId = "";
  const lost = loseTimerChangeAnswers(s, {
    async meanwhile() {
      for (const e of await s.store.deliveries.deliveryLog(timerId)) {
        const d = e.delivery;
        if (d.state !== "pending" || !d.claimed) continue;
        const next = claim(d, s.clock.now() + 60_000, "other");
        await s.store.deliveries.commitDeliveries(
          [{ versionstamp: e.versionstamp, prev: d, next }],
          s.clock.now(),
          false,
        );
      }
    },
  });
  s.app.scheduler.start();
  try {
    const t = await s.create({ type: "countdown", duration: 5, webhook_url: rx.url });
    timerId = t.timer_id;
    await s.act(timerId, "start");
    await rx.waitFor(1);
    await s.app.scheduler.settled();
    lost.lose = 1;
    s.clock.advance(5_000); // the completion's commit lands, its answer lost
    await s.app.scheduler.sweep(true);
    await s.app.scheduler.settled();
    assert.equal(lost.lose, 0, "the completion's answer was lost");
    assert.deepEqual(rx.received.map((r) => r.json.event), ["timer.started"], "not sent here as well");
    const [completion] = (await s.store.deliveries.deliveryLog(timerId)).filter((e) =>
      e.delivery.payload.event === "timer.completed"
    );
    assert.equal(completion.delivery.claimed_by, "other", "the other instance's claim stands");
  } finally {
    await s.close();
    await rx.close();
  }
});
