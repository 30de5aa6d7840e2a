/** Account webhook endpoints: the API, and every event of the account's timers delivered to them (injected clock). */
import assert from "node:assert/strict";
import { verifyWebhook } from "../mod.ts";
import { advance, clocked, receiver, setup } from "./helpers.ts";

/** The app with an injected clock, in sweep mode, its scheduler started. */

const API = "/api/v1/webhook_endpoints";

Deno.test("webhook endpoints: create, list, read, change, delete; ids of another account answer 404", async () => {
  const s = await setup();
  const made = await s.call("POST", API, {
    body: { url: "https://Example.com/hooks", description: "Relay", events: ["timer.completed", "timer.started"] },
  });
  assert.equal(made.status, 201);
  assert.match(made.body.id, /^we_[0-9A-Za-z]{16}$/);
  assert.equal(made.headers.get("location"), `http://timers.test${API}/${made.body.id}`);
  assert.deepEqual(
    [made.body.url, made.body.description, made.body.events, made.body.enabled],
    ["https://example.com/hooks", "Relay", ["timer.completed", "timer.started"], true],
  );
  const all = await s.call("POST", API, { body: { url: "https://example.org/h" } });
  assert.deepEqual([all.body.events, all.body.enabled, all.body.description], ["all", true, ""]);

  const list = await s.call("GET", API);
  assert.deepEqual(list.body.endpoints.map((e: { id: string }) => e.id), [made.body.id, all.body.id]);
  const one = `${API}/${made.body.id}`;
  assert.deepEqual((await s.call("GET", one)).body, made.body);
  const changed = await s.call("PATCH", one, { body: { enabled: false, events: "all" } });
  assert.equal(changed.status, 200);
  assert.deepEqual([changed.body.enabled, changed.body.events, changed.body.url], [false, "all", made.body.url]);

  assert.equal((await s.call("GET", one, { key: s.other.apiKey })).status, 404);
  assert.equal((await s.call("DELETE", one, { key: s.other.apiKey })).status, 404);
  assert.equal((await s.call("GET", API, { key: s.other.apiKey })).body.endpoints.length, 0);
  assert.equal((await s.call("GET", `${API}/we_nope`)).status, 404);
  assert.equal((await s.call("GET", API, { key: null })).status, 401);
  assert.equal((await s.call("GET", API, { key: s.free.apiKey })).status, 403);

  const gone = await s.call("DELETE", one);
  assert.deepEqual(gone.body, { deleted: true, id: made.body.id });
  assert.equal((await s.call("GET", one)).status, 404);
  assert.equal((await s.call("GET", API)).body.endpoints.length, 1);
  await s.close();
});

Deno.test("an account holds at most 10 endpoints: the 11th answers 409", async () => {
  const s = await setup();
  for (let i = 0; i < 10; i++) {
    assert.equal((await s.call("POST", API, { body: { url: `https://example.com/${i}` } })).status, 201);
  }
  const over = await s.call("POST", API, { body: { url: "https://example.com/11" } });
  assert.equal(over.status, 409);
  assert.match(over.body.error.message, /the most allowed is 10/);
  assert.equal(
    (await s.call("POST", API, { body: { url: "https://example.com/x" }, key: s.other.apiKey })).status,
    201,
  );
  await s.close();
});

Deno.test("endpoint URLs follow a timer's webhook_url rules; invalid fields answer 422 naming them", async () => {
  const s = await setup({ config: { webhookAllowPrivate: false } });
  const refused = async (body: unknown, field: string, message?: RegExp) => {
    const r = await s.call("POST", API, { body });
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.equal(r.body.error.field, field, JSON.stringify(body));
    if (message) assert.match(r.body.error.message, message);
  };
  await refused({ url: "ftp://example.com/x" }, "url");
  await refused({ url: "http://example.com/x" }, "url", /^url must .*WEBHOOK_ALLOW_PRIVATE=1/);
  await refused({ url: "https://127.0.0.1/x" }, "url", /public address/);
  await refused({ url: "https://example.com:22/x" }, "url", /port/);
  await refused({ url: "https://example.com/x", events: [] }, "events");
  await refused({ url: "https://example.com/x", events: ["timer.exploded"] }, "events");
  await refused({ url: "https://example.com/x", events: ["webhook.test"] }, "events");
  await refused({ url: "https://example.com/x", enabled: "yes" }, "enabled");
  await refused({ url: "https://example.com/x", description: "x".repeat(201) }, "description");
  await refused({ url: "https://example.com/x", colour: 1 }, "colour", /unknown field/);
  await refused({}, "url", /url is required/);
  await s.close();
});

Deno.test("an endpoint receives a timer.completed of a timer that has no webhook_url, signed with the account's secret", async () => {
  const s = await clocked();
  const rx = receiver();
  const ep = (await s.call("POST", API, { body: { url: rx.url, events: ["timer.completed"] } })).body;
  const t = await s.create({ type: "countdown", duration: 60 });
  await s.act(t.timer_id, "start");
  await advance(s, 61_000);
  await rx.waitFor(1);
  assert.deepEqual(rx.received.map((r) => r.json.event), ["timer.completed"], "only the type it asked for");
  const got = rx.received[0];
  assert.equal(got.json.timer_id, t.timer_id);
  assert.ok(await verifyWebhook(got.body, got.headers, s.pro.webhookSecret, { now: s.clock.now() }));
  assert.equal(await verifyWebhook(got.body, got.headers, s.other.webhookSecret, { now: s.clock.now() }), null);
  const log = await s.call("GET", `/api/v1/timers/${t.timer_id}/deliveries`);
  assert.deepEqual(
    log.body.deliveries.map((d: { endpoint_id: string; state: string; id: string }) => [d.endpoint_id, d.state, d.id]),
    [[ep.id, "succeeded", got.json.id]],
  );
  await s.close();
  await rx.close();
});

Deno.test("every event goes to the timer's webhook_url and to each enabled endpoint that wants it, each with its own id", async () => {
  const s = await clocked();
  const own = receiver();
  const everything = receiver();
  const filtered = receiver();
  const disabled = receiver();
  const other = receiver();
  await s.call("POST", API, { body: { url: everything.url } });
  await s.call("POST", API, { body: { url: filtered.url, events: ["timer.started", "timer.completed"] } });
  await s.call("POST", API, { body: { url: disabled.url, enabled: false } });
  // Another account's endpoint hears nothing of this account's timers.
  await s.call("POST", API, { body: { url: other.url }, key: s.other.apiKey });
  const t = await s.create({ type: "countdown", duration: 60, webhook_url: own.url });
  await s.act(t.timer_id, "start");
  await s.act(t.timer_id, "pause");
  await s.act(t.timer_id, "resume");
  await advance(s, 61_000);
  await own.waitFor(4);
  await everything.waitFor(4);
  await filtered.waitFor(2);
  const types = (r: ReturnType<typeof receiver>) => r.received.map((x) => x.json.event).sort();
  const four = ["timer.completed", "timer.paused", "timer.resumed", "timer.started"];
  assert.deepEqual(types(own), four);
  assert.deepEqual(types(everything), four);
  assert.deepEqual(types(filtered), ["timer.completed", "timer.started"]);
  // Control case above proves the sends happened; these heard nothing.
  assert.equal(disabled.received.length, 0);
  assert.equal(other.received.length, 0);
  const ids = [...own.received, ...everything.received, ...filtered.received].map((x) => x.json.id);
  assert.equal(new Set(ids).size, ids.length, "each delivery has its own id");
  const log = await s.call("GET", `/api/v1/timers/${t.timer_id}/deliveries?limit=100`);
  assert.equal(log.body.deliveries.length, 10);
  for (const r of [own, everything, filtered, disabled, other]) await r.close();
  await s.close();
});

Deno.test("a disabled endpoint gets no retry (logged why), redelivery waits until it is enabled; a changed URL takes the retries", async () => {
  const s = await clocked();
  let fail = true;
  const first = receiver(() => new Response("no", { status: fail ? 500 : 200 }));
  const moved = receiver(() => new Response("no", { status: fail ? 500 : 200 }));
  const ep = (await s.call("POST", API, { body: { url: first.url } })).body;
  const t = await s.create({ type: "countdown", duration: 60 });
  await s.act(t.timer_id, "start");
  await first.waitFor(1);
  await s.app.scheduler.settled();
  // The retry goes to the URL the endpoint has now.
  await s.call("PATCH", `${API}/${ep.id}`, { body: { url: moved.url } });
  fail = false;
  await advance(s, 1000);
  await moved.waitFor(1);
  assert.equal(moved.received[0].json.id, first.received[0].json.id, "the same delivery, retried");

  // Disabled while a retry is pending: the retry is not sent; the log says why.
  fail = true;
  const late = await s.create({ type: "countdown", duration: 60 });
  await s.act(late.timer_id, "start");
  await moved.waitFor(2);
  await s.app.scheduler.settled();
  await s.call("PATCH", `${API}/${ep.id}`, { body: { enabled: false } });
  await advance(s, 1000);
  const log = await s.call("GET", `/api/v1/timers/${late.timer_id}/deliveries`);
  assert.equal(log.body.deliveries.length, 1);
  const started = log.body.deliveries[0];
  assert.equal(started.state, "failed");
  assert.deepEqual(started.attempts.map((a: { status: number | null }) => a.status), [500, null]);
  assert.match(started.attempts[1].error, /disabled; not sent/);
  assert.equal(moved.received.length, 2, "the retry was not sent");
  // Redelivered only once enabled again, to the endpoint.
  fail = false;
  const path = `/api/v1/timers/${late.timer_id}/deliveries/${started.id}/redeliver`;
  const refused = await s.call("POST", path);
  assert.equal(refused.status, 409);
  assert.match(refused.body.error.message, /disabled; enable it first/);
  await s.call("PATCH", `${API}/${ep.id}`, { body: { enabled: true } });
  assert.equal((await s.call("POST", path)).status, 200);
  await advance(s, 1000);
  await moved.waitFor(3);
  assert.equal(moved.received[2].json.id, started.id);
  // Deleted: a retry pending to it is not sent, and cannot be redelivered.
  fail = true;
  await s.act(late.timer_id, "pause");
  await moved.waitFor(4);
  await s.app.scheduler.settled();
  await s.call("DELETE", `${API}/${ep.id}`);
  fail = false;
  await advance(s, 1000);
  const paused = (await s.call("GET", `/api/v1/timers/${late.timer_id}/deliveries`)).body.deliveries
    .find((d: { event: string }) => d.event === "timer.paused");
  assert.equal(paused.state, "failed");
  assert.match(paused.attempts.at(-1).error, /deleted; not sent/);
  assert.equal(moved.received.length, 4);
  const redo = await s.call("POST", `/api/v1/timers/${late.timer_id}/deliveries/${paused.id}/redeliver`);
  assert.equal(redo.status, 409);
  assert.match(redo.body.error.message, /was deleted/);
  await first.close();
  await moved.close();
  await s.close();
});

Deno.test("Send example: a signed, realistic payload of any event type marked as a test, once, to the endpoint", async () => {
  const s = await clocked();
  const rx = receiver();
  const ep = (await s.call("POST", API, { body: { url: rx.url, events: ["timer.started"], enabled: false } })).body;
  const r = await s.call("POST", `${API}/${ep.id}/test`, { body: { event: "interval.round_end" } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.delivered, true);
  assert.equal(r.body.status, 200);
  assert.equal(r.body.payload.event, "interval.round_end");
  await rx.waitFor(1);
  const got = rx.received[0];
  assert.equal(got.json.id, r.body.payload.id);
  assert.deepEqual(got.json.data, { round: 3, rounds: 8, work: 20, rest: 10, test: true });
  assert.equal(got.json.timer_id, "tmr_ExampleTimer0001");
  assert.equal(got.json.type, "interval");
  assert.ok(await verifyWebhook(got.body, got.headers, s.pro.webhookSecret, { now: s.clock.now() }));
  const completed = await s.call("POST", `${API}/${ep.id}/test`, { body: { event: "timer.completed" } });
  assert.deepEqual(Object.keys(completed.body.payload.data).sort(), [
    "actual_duration",
    "completed_at",
    "duration",
    "started_at",
    "state",
    "test",
  ]);
  const bad = await s.call("POST", `${API}/${ep.id}/test`, { body: { event: "timer.exploded" } });
  assert.deepEqual([bad.status, bad.body.error.field], [422, "event"]);
  assert.equal((await s.call("POST", `${API}/${ep.id}/test`, { body: {} })).status, 422);
  assert.equal(
    (await s.call("POST", `${API}/${ep.id}/test`, { body: { event: "timer.started" }, key: s.other.apiKey })).status,
    404,
  );
  await rx.waitFor(2);
  assert.equal(rx.received.length, 2, "one attempt each, nothing else");
  await s.close();
  await rx.close();
});

Deno.test("Send example to a timer's webhook_url: any event type, of the timer, marked as a test and logged", async () => {
  const s = await clocked();
  const rx = receiver();
  const t = await s.create({ type: "countdown", duration: 60, title: "Tea", webhook_url: rx.url });
  const path = `/api/v1/timers/${t.timer_id}/webhook/test`;
  const r = await s.call("POST", path, { body: { event: "timer.completed" } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await rx.waitFor(1);
  const got = rx.received[0].json as { event: string; timer_id: string; title: string; data: Record<string, unknown> };
  assert.deepEqual([got.event, got.timer_id, got.title, got.data.test], ["timer.completed", t.timer_id, "Tea", true]);
  assert.equal(r.body.delivery.payload.event, "timer.completed");
  // No body: webhook.test as before.
  const plain = await s.call("POST", path);
  assert.equal(plain.status, 200);
  await rx.waitFor(2);
  assert.equal(rx.received[1].json.event, "webhook.test");
  const bad = await s.call("POST", path, { body: { event: "nope" } });
  assert.deepEqual([bad.status, bad.body.error.field], [422, "event"]);
  const log = await s.call("GET", `/api/v1/timers/${t.timer_id}/deliveries`);
  assert.deepEqual(log.body.deliveries.map((d: { event: string }) => d.event).sort(), [
    "timer.completed",
    "webhook.test",
  ]);
  await s.close();
  await rx.close();
});

Deno.test("the items of a linked rundown send their events to the account's endpoints too", async () => {
  const s = await clocked();
  const rx = receiver();
  await s.call("POST", API, { body: { url: rx.url, events: ["timer.started", "timer.completed"] } });
  const items = [{ type: "countdown", title: "One", duration: 60 }, { type: "countdown", title: "Two", duration: 30 }];
  const r = await s.call("POST", "/api/v1/rundowns", { body: { title: "Show", mode: "linked", items } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const [one, two] = r.body.items.map((i: { timer_id: string }) => i.timer_id);
  const started = await s.call("PATCH", `/api/v1/rundowns/${r.body.rundown_id}/state`, { body: { action: "start" } });
  assert.equal(started.status, 200);
  await advance(s, 61_000);
  await rx.waitFor(3);
  const seen = rx.received.map((x) =>
    `${x.json.timer_id === one ? "one" : x.json.timer_id === two ? "two" : "?"} ${x.json.event}`
  );
  assert.deepEqual(seen.sort(), ["one timer.completed", "one timer.started", "two timer.started"]);
  await s.close();
  await rx.close();
});

Deno.test("rundown events go to the rundown's webhook_url and to each endpoint that wants them, each with its own id", async () => {
  const s = await clocked();
  const [own, all, some, none] = [receiver(), receiver(), receiver(), receiver()];
  const add = async (body: unknown) => {
    const r = await s.call("POST", API, { body });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body;
  };
  await add({ url: all.url });
  const picked = await add({ url: some.url, events: ["rundown.completed", "rundown.advanced"] });
  assert.deepEqual(picked.events, ["rundown.advanced", "rundown.completed"]);
  await add({ url: none.url, events: ["timer.paused"] });
  const bad = await s.call("POST", API, { body: { url: some.url, events: ["rundown.exploded"] } });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.field, "events");

  const items = [{ type: "countdown", title: "One", duration: 60 }, { type: "countdown", title: "Two", duration: 30 }];
  const r = await s.call("POST", "/api/v1/rundowns", {
    body: { title: "Show", mode: "linked", items, webhook_url: own.url },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const id = r.body.rundown_id;
  assert.equal((await s.call("POST", `/api/v1/rundowns/${id}/actions/start`)).status, 200);
  await advance(s, 61_000);
  await advance(s, 30_000);

  const rundownEvents = (rx: typeof own) =>
    rx.received.map((x) => x.json).filter((j) => String(j.event).startsWith("rundown."));
  await own.waitFor(3);
  await some.waitFor(2);
  await all.waitFor(3 + 4); // its three, and the items' started, completed, started, completed
  const types = (rx: typeof own) => rundownEvents(rx).map((j) => j.event).sort();
  assert.deepEqual(types(own), ["rundown.advanced", "rundown.completed", "rundown.started"]);
  assert.deepEqual(types(all), ["rundown.advanced", "rundown.completed", "rundown.started"]);
  assert.deepEqual(types(some), ["rundown.advanced", "rundown.completed"]);
  for (const j of [...rundownEvents(all), ...rundownEvents(some)]) assert.equal(j.rundown_id, id);
  const ids = [own, all, some].flatMap((rx) => rundownEvents(rx).map((j) => j.id));
  assert.equal(new Set(ids).size, 8, "each delivery its own id");
  for (const x of some.received) {
    assert.ok(await verifyWebhook(x.body, x.headers, s.pro.webhookSecret, { now: s.clock.now() }));
  }
  assert.equal(none.received.length, 0);

  // The OpenAPI document lists them among the types an endpoint may ask for.
  const doc = JSON.stringify((await s.call("GET", "/api/v1/openapi.json")).body.components.schemas);
  assert.match(doc, /"enum":\[[^\]]*"rundown\.advanced"/);
  await s.close();
  for (const rx of [own, all, some, none]) await rx.close();
});
