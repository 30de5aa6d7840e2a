import assert from "node:assert/strict";
import { Store } from "../kv/store.ts";
import { key } from "../kv/keys.ts";
import type { Timer } from "../timers/record.ts";
import { afterAttempt, claim, type Delivery, type DeliveryChange, newDelivery } from "./delivery_model.ts";
import { OutcomeRecorder } from "./recorder.ts";

Deno.test("a hold an attempt waits for is committed while a group of outcomes still is", async () => {
  const outcomesHeld = Promise.withResolvers<void>();
  const committed: string[][] = [];
  const store = {
    timers: { limits: { inFlight: 2 } },
    deliveries: {
      async commitDeliveries(changes: DeliveryChange[]) {
        committed.push(changes.map((c) => c.next.id));
        if (changes.some((c) => c.next.state !== "pending")) await outcomesHeld.promise;
        return changes.map((c) => `vs-${c.next.id}`);
      },
    },
  } as unknown as Store;
  const recorder = new OutcomeRecorder({ store, now: () => 0, log: () => {} });
  const d = (id: string, state: string) => ({ id, state, timer_id: "t" }) as unknown as Delivery;
  const outcome = recorder.outcome({ versionstamp: "1", prev: d("a", "pending"), next: d("a", "succeeded") });
  await Promise.resolve();
  const renewal = recorder.grouped({ versionstamp: "1", prev: d("b", "pending"), next: d("b", "pending") });
  assert.equal(await renewal, "vs-b");
  assert.ok(recorder.busy, "the outcome is still being committed");
  outcomesHeld.resolve();
  assert.equal(await outcome, "vs-a");
  assert.deepEqual(committed, [["a"], ["b"]]);
});

/** A pending delivery stored unclaimed, then claimed until `until` (its claim's due entry written with it). */
async function claimed(store: Store, id: string, until: number): Promise<{ d: Delivery; versionstamp: string }> {
  const d = newDelivery(
    { id: "tmr_a", account_id: "acct_a", webhook_url: "https://example.com/hook", title: null, type: "event" } as Timer,
    { type: "timer.completed", at: 0, data: {} },
    0,
    null,
  );
  d.id = id;
  const first = await store.kv.set(key.delivery(d.timer_id, id), d);
  const next = claim(d, until, "me");
  const [versionstamp] = await store.deliveries.commitDeliveries(
    [{ versionstamp: first.versionstamp, prev: d, next }],
    0,
  );
  return { d: next, versionstamp: versionstamp! };
}

const answered = (d: Delivery, ok: boolean) =>
  afterAttempt(d, { ok, status: ok ? 200 : 500, error: ok ? null : "HTTP 500", duration_ms: 1 }, 10, 11, [60]);

Deno.test("the claims' due entries ended by recorded outcomes go in one commit, a claim made again keeps its own", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = new Store(kv);
  let commits = 0;
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = () => (commits++, commit());
    return op;
  };
  try {
    const recorder = new OutcomeRecorder({ store, now: () => 11, log: () => {} });
    const marker = (id: string) => kv.get(key.due(13_000, "delivery", `tmr_a/${id}`));
    const record = (claims: { d: Delivery; versionstamp: string }[]) =>
      Promise.all(
        // evt_4 fails: its retry is due in a minute, its claim's entry goes all the same.
        claims.map(({ d, versionstamp }) =>
          recorder.outcome({ versionstamp, prev: d, next: answered(d, d.id !== "evt_4") })
        ),
      );
    const recorded = await record(
      await Promise.all(["evt_3", "evt_1", "evt_4"].map((id) => claimed(store, id, 13_000))),
    );
    assert.ok(recorded.every((vs) => vs !== null));
    const before = commits;
    await recorder.settled();
    assert.equal(commits - before, 1, "the ended claims' entries went in one commit");
    for (const id of ["evt_1", "evt_3", "evt_4"]) assert.equal((await marker(id)).versionstamp, null, id);
    assert.ok((await kv.get(key.due(11 + 60_000, "delivery", "tmr_a/evt_4"))).versionstamp, "the retry is due");
    // A claim of evt_2 made again, ending at the same instant: its entry is its own, not the ended claim's.
    assert.ok((await record([await claimed(store, "evt_2", 13_000)]))[0]);
    const again = await kv.set(key.due(13_000, "delivery", "tmr_a/evt_2"), { kind: "delivery", by: "other" });
    await recorder.settled();
    assert.equal((await marker("evt_2")).versionstamp, again.versionstamp, "the claim made again keeps its entry");
    assert.equal(recorder.busy, false);
  } finally {
    kv.close();
  }
});

Deno.test("the claims' due entries ended by recorded outcomes go within a second without being asked", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = new Store(kv);
  try {
    const recorder = new OutcomeRecorder({ store, now: () => 11, log: () => {} });
    const { d, versionstamp } = await claimed(store, "evt_1", 13_000);
    assert.ok(await recorder.outcome({ versionstamp, prev: d, next: answered(d, true) }));
    const entries = () => Array.fromAsync(kv.list({ prefix: key.dues() }));
    const started = performance.now();
    while ((await entries()).length && performance.now() - started < 5_000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(await entries(), []);
    assert.equal(recorder.busy, false);
  } finally {
    kv.close();
  }
});
