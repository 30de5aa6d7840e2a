/** A rundown's webhook deliveries in the account's log (filtered, redelivered, dropped with its URL); the request log's cursor. */
import assert from "node:assert/strict";
import { advance, clocked, receiver } from "./helpers.ts";
import { talk } from "./rundown_helpers.ts";

type S = Awaited<ReturnType<typeof clocked>>;
interface Delivery {
  id: string;
  event: string;
  state: string;
  attempts: { status: number | null; error: string | null }[];
  payload: { id: string; rundown_id?: string };
}

/** Reads the account-wide log until `ok` holds for it (deliveries are recorded after they are sent). */
async function logUntil(s: S, query: string, ok: (ds: Delivery[]) => boolean): Promise<Delivery[]> {
  for (let i = 0; i < 200; i++) {
    const r = await s.call("GET", `/api/v1/deliveries${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (ok(r.body.deliveries)) return r.body.deliveries;
    await s.app.scheduler.settled();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the log never matched for ${query}`);
}

Deno.test("the account's delivery log filters rundown events, in the API and the document", async () => {
  const s = await clocked();
  const rx = receiver();
  try {
    const r = await s.call("POST", "/api/v1/rundowns", {
      body: { items: [talk("One", 60), talk("Two", 60)], webhook_url: rx.url },
    });
    const id = r.body.rundown_id;
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await s.call("POST", `/api/v1/rundowns/${id}/actions/next`);
    await advance(s, 0);
    await rx.waitFor(2);
    const started = await logUntil(s, "?event=rundown.started", (ds) => ds[0]?.state === "succeeded");
    assert.deepEqual(started.map((d) => d.payload.rundown_id), [id]);
    const advanced = await logUntil(s, `?event=rundown.advanced&timer_id=${id}`, (ds) => ds.length === 1);
    assert.equal(advanced[0].event, "rundown.advanced");
    const doc = (await s.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const param = doc.paths["/deliveries"].get.parameters.find((p: { name: string }) => p.name === "event");
    assert.ok(param.schema.enum.includes("rundown.completed"), JSON.stringify(param.schema));
    assert.ok(doc.components.schemas.Delivery.properties.event.enum.includes("rundown.advanced"));
  } finally {
    await rx.close();
    await s.close();
  }
});

Deno.test("a rundown's delivery is redelivered by its id, to the rundown's webhook_url, with the same id", async () => {
  const s = await clocked();
  const rx = receiver();
  try {
    const r = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("One", 60)], webhook_url: rx.url } });
    const id = r.body.rundown_id;
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await advance(s, 0);
    await rx.waitFor(1);
    const [sent] = await logUntil(s, `?timer_id=${id}`, (ds) => ds[0]?.state === "succeeded");
    // Not another account's to send.
    const foreign = await s.call("POST", `/api/v1/deliveries/${sent.id}/redeliver`, { key: s.other.apiKey });
    assert.equal(foreign.status, 404);
    const again = await s.call("POST", `/api/v1/deliveries/${sent.id}/redeliver`);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.state, "pending");
    await advance(s, 0);
    await rx.waitFor(2);
    assert.equal(rx.received[1].json.id, sent.id);
    assert.equal(rx.received[1].json.event, "rundown.started");
    await logUntil(s, `?timer_id=${id}`, (ds) => ds[0]?.attempts.length === 2 && ds[0].state === "succeeded");
    // Without a webhook_url there is nowhere to send it.
    await s.call("PATCH", `/api/v1/rundowns/${id}`, { body: { webhook_url: null } });
    const nowhere = await s.call("POST", `/api/v1/deliveries/${sent.id}/redeliver`);
    assert.equal(nowhere.status, 422);
    assert.equal(nowhere.body.error.field, "webhook_url");
    assert.match(nowhere.body.error.message, /PATCH \/rundowns/);
  } finally {
    await rx.close();
    await s.close();
  }
});

Deno.test("changing or removing a rundown's webhook_url drops its pending retries to the old URL", async () => {
  const s = await clocked();
  const down = receiver(() => new Response("down", { status: 503 }));
  try {
    const r = await s.call("POST", "/api/v1/rundowns", { body: { items: [talk("One", 60)], webhook_url: down.url } });
    const id = r.body.rundown_id;
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await advance(s, 0);
    await down.waitFor(1);
    // Failed once, a retry due later (the clock stands still).
    const [pending] = await logUntil(s, `?timer_id=${id}`, (ds) => ds[0]?.attempts.length === 1);
    assert.equal(pending.state, "pending");
    assert.equal((await s.call("PATCH", `/api/v1/rundowns/${id}`, { body: { webhook_url: null } })).status, 200);
    const [dropped] = await logUntil(s, `?timer_id=${id}`, (ds) => ds[0]?.state !== "pending");
    assert.equal(dropped.state, "failed");
    assert.match(dropped.attempts[0].error!, /retries to the old URL dropped/);
    // Past every retry's time, the old receiver hears nothing more.
    await advance(s, 5_000);
    assert.equal(down.received.length, 1);
  } finally {
    await down.close();
    await s.close();
  }
});

Deno.test("GET /requests refuses a cursor it never returned, however it parses as a number", async () => {
  const s = await clocked();
  try {
    await s.call("GET", "/api/v1/timers");
    for (const cursor of ["1e400", "Infinity", "-Infinity", "1.5", "abc", " 1", "0x10"]) {
      const r = await s.call("GET", `/api/v1/requests?cursor=${encodeURIComponent(cursor)}`);
      assert.equal(r.status, 400, `${cursor}: ${JSON.stringify(r.body).slice(0, 120)}`);
      assert.equal(r.body.error.field, "cursor");
    }
    const first = await s.call("GET", "/api/v1/requests?limit=1");
    assert.equal(first.status, 200);
    const next = await s.call("GET", `/api/v1/requests?limit=1&cursor=${first.body.next_cursor}`);
    assert.equal(next.status, 200);
  } finally {
    await s.close();
  }
});

Deno.test("a linked rundown deleted while running sends nothing more; its existing item still completes on its own", async () => {
  const s = await clocked();
  const show = receiver();
  const own = receiver();
  try {
    const kept = await s.create({ ...talk("Kept", 60), webhook_url: own.url });
    const r = await s.call("POST", "/api/v1/rundowns", {
      body: { mode: "linked", items: [{ timer_id: kept.timer_id }, talk("Next", 60)], webhook_url: show.url },
    });
    const id = r.body.rundown_id;
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await advance(s, 0);
    await show.waitFor(1);
    await own.waitFor(1); // timer.started
    assert.equal((await s.call("DELETE", `/api/v1/rundowns/${id}`)).status, 200);
    assert.equal((await s.call("GET", `/api/v1/timers/${r.body.items[1].timer_id}`)).status, 404);
    await advance(s, 61_000);
    // The control: the kept timer's own completion arrives; the show's advance never does.
    await own.waitFor(2);
    assert.equal(own.received[1].json.event, "timer.completed");
    assert.deepEqual(show.received.map((x) => x.json.event), ["rundown.started"]);
    assert.deepEqual((await s.call("GET", `/api/v1/deliveries?timer_id=${id}`)).body.deliveries, []);
  } finally {
    await show.close();
    await own.close();
    await s.close();
  }
});

Deno.test("Send example to an endpoint: rundown events too, of an example rundown, marked as a test", async () => {
  const s = await clocked();
  const rx = receiver();
  try {
    const API = "/api/v1/webhook_endpoints";
    const ep = (await s.call("POST", API, { body: { url: rx.url, events: ["rundown.advanced"] } })).body;
    const r = await s.call("POST", `${API}/${ep.id}/test`, { body: { event: "rundown.advanced" } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.delivered, true);
    await rx.waitFor(1);
    const got = rx.received[0].json as Record<string, unknown> & { data: Record<string, unknown> };
    assert.equal(got.event, "rundown.advanced");
    assert.match(got.rundown_id as string, /^rdn_[0-9A-Za-z]{16}$/);
    assert.equal(got.timer_id, undefined, "a rundown's payload, as rundowns send it");
    assert.equal(got.data.test, true);
    assert.deepEqual([got.data.from, got.data.to, got.data.cause], [0, 1, "finish"]);
    for (const event of ["rundown.started", "rundown.completed"]) {
      const e = await s.call("POST", `${API}/${ep.id}/test`, { body: { event } });
      assert.equal(e.status, 200, JSON.stringify(e.body));
      assert.equal(e.body.payload.event, event);
    }
  } finally {
    await rx.close();
    await s.close();
  }
});
