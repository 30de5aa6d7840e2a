/**
 * The reads before sending, gathered: several attempts' reads in one getMany, and a delivery
 * deleted meanwhile reads as gone, so its attempt sends nothing while the others go.
 */
import assert from "node:assert/strict";
import { key } from "../kv/keys.ts";
import { receiver, setup } from "../../tests/helpers.ts";
import { DeliveryReads } from "./reads.ts";

/** Counts the getMany calls of a store's deliveries and the keys each read. */
function countReads(s: Awaited<ReturnType<typeof setup>>) {
  const calls: number[] = [];
  let singles = 0;
  const d = s.store.deliveries;
  const getDeliveries = d.getDeliveries.bind(d);
  const getDelivery = d.getDelivery.bind(d);
  d.getDeliveries = (refs) => (calls.push(refs.length), getDeliveries(refs));
  d.getDelivery = (timerId, id) => (singles++, getDelivery(timerId, id));
  return { calls, singles: () => singles };
}

Deno.test("reads asked in one turn go in one getMany; a deleted delivery reads null; past ten, another getMany", async () => {
  const s = await setup();
  try {
    const counted = countReads(s);
    for (let i = 0; i < 12; i++) await s.kv.set(key.delivery("t", `d${i}`), { id: `d${i}`, timer_id: "t" });
    await s.kv.delete(key.delivery("t", "d3"));
    const reads = new DeliveryReads(s.store);
    const five = await Promise.all([0, 1, 2, 3, 4].map((i) => reads.read("t", `d${i}`)));
    assert.deepEqual(counted.calls, [5]);
    assert.deepEqual(five.map((e) => e?.delivery.id ?? null), ["d0", "d1", "d2", null, "d4"]);
    assert.ok(five[0]?.versionstamp, "read with its versionstamp");
    const twelve = await Promise.all(Array.from({ length: 12 }, (_, i) => reads.read("t", `d${i}`)));
    assert.deepEqual(counted.calls, [5, 10, 2]);
    assert.equal(twelve.filter((e) => e === null).length, 1);
    assert.equal(twelve[11]?.delivery.id, "d11");
    assert.equal(counted.singles(), 0);
  } finally {
    await s.close();
  }
});

Deno.test("attempts that waited are re-read through the gathered reads: the deleted timer's sends nothing, the others go", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const gate = Promise.withResolvers<void>();
  // The first three (each timer's timer.started) wait for the gate.
  const rx = receiver(async (n) => {
    if (n <= 3) await gate.promise;
    return new Response("ok");
  });
  s.app.scheduler.start();
  try {
    const timers = [];
    for (let i = 0; i < 3; i++) timers.push(await s.create({ type: "countdown", duration: 600, webhook_url: rx.url }));
    for (const t of timers) await s.act(t.timer_id, "start");
    await rx.waitFor(3); // each timer.started held by the receiver
    const counted = countReads(s);
    // Each timer.paused is queued behind its timer's timer.started: it waits, so it is checked again.
    for (const t of timers) assert.equal((await s.act(t.timer_id, "pause")).status, 200);
    // One deleted in the store directly, as another process would: this sender is not told.
    assert.ok(await s.store.timers.deleteTimer(timers[1].timer_id));
    gate.resolve();
    await s.app.scheduler.settled();
    const sent = (id: string) => rx.received.filter((r) => r.json.timer_id === id).map((r) => r.json.event);
    assert.deepEqual(sent(timers[0].timer_id), ["timer.started", "timer.paused"]);
    assert.deepEqual(sent(timers[1].timer_id), ["timer.started"]);
    assert.deepEqual(sent(timers[2].timer_id), ["timer.started", "timer.paused"]);
    assert.equal(counted.singles(), 0, "no single read before sending");
    assert.ok(counted.calls.length > 0 && s.app.scheduler.sender.reads.calls > 0);
  } finally {
    gate.resolve();
    await s.close();
    await rx.close();
  }
});

Deno.test("an account's last delete is read once per turn for all its attempts, and follows the delete's commit", async () => {
  const s = await setup();
  try {
    const reads = new DeliveryReads(s.store);
    const t = await s.create({ type: "countdown", duration: 600 });
    const other = await s.create({ type: "countdown", duration: 600 });
    const acct = (await s.store.timers.getTimer(t.timer_id))!.timer.account_id;
    const [first, again, none] = await Promise.all([
      reads.lastDelete(acct),
      reads.lastDelete(acct),
      reads.lastDelete("acc_none"),
    ]);
    assert.equal(reads.accountCalls, 1);
    assert.equal(first, again);
    assert.equal(none, null, "an account that never deleted a timer");
    // Later than the creation (on a limited plan it wrote the sequence itself) and the claims before it.
    const before = (await s.store.timers.getTimer(other.timer_id))!.versionstamp;
    assert.ok(first === null || first <= before);
    assert.ok(await s.store.timers.deleteTimer(t.timer_id));
    const last = await reads.lastDelete(acct);
    assert.ok(last !== null && last > before, "the delete's commit is later than what was read before it");
    assert.equal(reads.accountCalls, 2);
  } finally {
    await s.close();
  }
});

Deno.test("an attempt that waited goes unread while no timer of its account was deleted since its claim", async () => {
  const s = await setup({ config: { sweepIntervalMs: 3_600_000 } });
  const gate = Promise.withResolvers<void>();
  const rx = receiver(async (n) => {
    if (n <= 2) await gate.promise;
    return new Response("ok");
  });
  s.app.scheduler.start();
  try {
    const timers = [];
    for (let i = 0; i < 2; i++) timers.push(await s.create({ type: "countdown", duration: 600, webhook_url: rx.url }));
    for (const t of timers) await s.act(t.timer_id, "start");
    await rx.waitFor(2);
    const counted = countReads(s);
    for (const t of timers) assert.equal((await s.act(t.timer_id, "pause")).status, 200);
    gate.resolve();
    await s.app.scheduler.settled();
    assert.equal(rx.received.filter((r) => r.json.event === "timer.paused").length, 2);
    assert.deepEqual(counted.calls, [], "no delivery read before sending");
    assert.equal(counted.singles(), 0);
    assert.ok(s.app.scheduler.sender.reads.accountCalls > 0, "their account's last delete was read instead");
  } finally {
    gate.resolve();
    await s.close();
    await rx.close();
  }
});
