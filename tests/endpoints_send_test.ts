/** An endpoint disabled or deleted receives nothing from then on: through another instance, or while an attempt was checked. */
import assert from "node:assert/strict";
import { key } from "../lib/kv/keys.ts";
import type { Endpoint } from "../lib/webhooks/endpoints.ts";
import { advance, clocked, receiver } from "./helpers.ts";

const API = "/api/v1/webhook_endpoints";

/** An endpoint whose receiver fails, and a timer whose timer.started to it failed once: its retry is pending. */
async function pendingRetry() {
  const s = await clocked();
  let fail = true;
  const rx = receiver(() => new Response("no", { status: fail ? 500 : 200 }));
  const ep = (await s.call("POST", API, { body: { url: rx.url } })).body;
  const t = await s.create({ type: "countdown", duration: 60 });
  await s.act(t.timer_id, "start");
  await rx.waitFor(1);
  await s.app.scheduler.settled();
  fail = false;
  const log = async () => (await s.call("GET", `/api/v1/timers/${t.timer_id}/deliveries`)).body.deliveries[0];
  return { s, rx, ep, log };
}

Deno.test("an endpoint disabled through another instance gets no retry from this one, whose planners' cache still has it enabled", async () => {
  const { s, rx, ep, log } = await pendingRetry();
  try {
    // Another instance disables it: this process's cache (5 s) has not seen it.
    const k = key.webhookEndpoints(s.pro.account.id);
    const stored = (await s.kv.get<Endpoint[]>(k)).value!;
    await s.kv.set(k, stored.map((e) => e.id === ep.id ? { ...e, enabled: false } : e));
    assert.equal(s.store.endpoints.cached(s.pro.account.id)?.[0].enabled, true);
    await advance(s, 1000);
    const d = await log();
    assert.equal(rx.received.length, 1, "the retry was not sent");
    assert.equal(d.state, "failed");
    assert.match(d.attempts.at(-1).error, /disabled; not sent/);
  } finally {
    await rx.close();
    await s.close();
  }
});

Deno.test("an endpoint deleted here after an attempt read it, before its POST, gets nothing", async () => {
  const { s, rx, ep } = await pendingRetry();
  try {
    const endpoints = s.store.endpoints;
    const readMany = endpoints.readMany.bind(endpoints);
    let deleted: number | null = null;
    // The attempt reads the endpoint (still there), then the DELETE is answered before it POSTs.
    endpoints.readMany = async (accts) => {
      const found = await readMany(accts);
      if (deleted === null) deleted = (await s.call("DELETE", `${API}/${ep.id}`)).status;
      return found;
    };
    await advance(s, 1000);
    assert.equal(deleted, 200);
    assert.equal(rx.received.length, 1, "nothing sent after the DELETE was answered");
  } finally {
    await rx.close();
    await s.close();
  }
});
