import assert from "node:assert/strict";
import { setup } from "./helpers.ts";
import { setPlan } from "../lib/accounts/accounts.ts";

Deno.test("POST /timers creates a countdown with every creation field, 201 and Location", async () => {
  const s = await setup();
  const r = await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: 300, title: "Tea" } });
  assert.equal(r.status, 201);
  const t = r.body;
  assert.match(t.timer_id, /^tmr_[0-9A-Za-z]{16}$/);
  assert.equal(r.headers.get("location"), `http://timers.test/api/v1/timers/${t.timer_id}`);
  assert.equal(t.title, "Tea");
  assert.equal(t.type, "countdown");
  assert.equal(t.duration, 300);
  assert.equal(t.remaining_seconds, 300);
  assert.equal(t.state, "idle");
  assert.equal(t.theme, "dark", "the widget's default too");
  assert.equal(t.color, "6C63FF");
  assert.equal(t.viewer_url, `http://timers.test/v/${t.timer_id}`);
  assert.equal(t.embed_url, `http://timers.test/widget?id=${t.timer_id}`);
  assert.match(t.control_url, new RegExp(`^http://timers.test/c/${t.timer_id}#tct_[0-9A-Za-z]{24}$`));
  assert.equal(t.created_at, "2026-11-22T12:00:00.000Z");
  assert.equal(t.expires_at, "2026-12-22T12:00:00.000Z");
  assert.equal(t.started_at, null);
  await s.close();
});

Deno.test("event and interval timers echo their inputs and derive duration", async () => {
  const s = await setup();
  const e = await s.create({ type: "event", target_date: "2026-11-23T12:00:00+01:00" });
  assert.equal(e.target_date, "2026-11-23T11:00:00.000Z");
  assert.equal(e.duration, 23 * 3600);
  assert.equal(e.remaining_seconds, 23 * 3600);
  const far = await s.create({ type: "event", target_date: "2027-06-01T00:00:00Z" });
  assert.equal(far.expires_at, "2027-06-08T00:00:00.000Z");
  const i = await s.create({ type: "interval", work: 20, rest: 10, rounds: 4, theme: "dark", color: "ff0000" });
  assert.deepEqual([i.work, i.rest, i.rounds, i.duration, i.theme, i.color], [20, 10, 4, 120, "dark", "FF0000"]);
  assert.deepEqual(i.interval, { round: 1, phase: "work", phase_remaining_seconds: 20 });
  const u = await s.create({ type: "interval", work: 5, rest: 0 });
  assert.equal(u.rounds, null);
  assert.equal(u.duration, null);
  assert.equal(u.remaining_seconds, null);
  await s.close();
});

Deno.test("a countdown runs from creation to completion with the clock", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 10 });
  const started = await s.act(t.timer_id, "start");
  assert.equal(started.status, 200);
  assert.equal(started.body.state, "running");
  assert.equal(started.body.remaining_seconds, 10);
  assert.equal(started.body.started_at, "2026-11-22T12:00:00.000Z");
  s.clock.advance(3_500);
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`)).body.remaining_seconds, 7);
  s.clock.advance(6_500);
  const done = await s.call("GET", `/api/v1/timers/${t.timer_id}`);
  assert.equal(done.body.state, "completed");
  assert.equal(done.body.remaining_seconds, 0);
  assert.equal(done.body.completed_at, "2026-11-22T12:00:10.000Z");
  const again = await s.act(t.timer_id, "pause");
  assert.equal(again.status, 409);
  assert.equal(again.body.error.field, "action");
  assert.match(again.body.error.message, /pause.*completed/);
  await s.close();
});

Deno.test("each action moves each type through the state table; invalid ones answer 409", async () => {
  const s = await setup();
  const cases: Record<string, Record<string, unknown>> = {
    countdown: { type: "countdown", duration: 60 },
    event: { type: "event", target_date: "2026-12-01T00:00:00Z" },
    interval: { type: "interval", work: 20, rest: 10, rounds: 2 },
  };
  for (const [type, input] of Object.entries(cases)) {
    const { timer_id: id } = await s.create(input);
    const expect = async (action: string, status: number, state?: string) => {
      const r = await s.act(id, action);
      assert.equal(r.status, status, `${type} ${action}: ${JSON.stringify(r.body)}`);
      if (state) assert.equal(r.body.state, state, `${type} ${action}`);
    };
    await expect("pause", 409);
    await expect("resume", 409);
    if (type === "event") {
      // An event counts to its instant even while idle: stop withdraws it, reset makes it count again.
      await expect("stop", 200, "stopped");
      await expect("reset", 200, "idle");
    } else {
      await expect("stop", 409);
    }
    await expect("start", 200, "running");
    await expect("start", 409);
    if (type === "event") {
      await expect("pause", 409);
      await expect("resume", 409);
    } else {
      await expect("resume", 409);
      await expect("pause", 200, "paused");
      await expect("pause", 409);
      await expect("resume", 200, "running");
      await expect("pause", 200, "paused");
    }
    await expect("stop", 200, "stopped");
    await expect("stop", 409);
    await expect("start", 409);
    await expect("reset", 200, "idle");
    await expect("reset", 200, "idle");
    await expect("start", 200, "running");
  }
  await s.close();
});

Deno.test("a { state } body maps to the action that reaches that state", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 60 });
  const put = (state: string) => s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { state } });
  assert.equal((await put("running")).body.state, "running");
  assert.equal((await put("paused")).body.state, "paused");
  assert.equal((await put("running")).body.state, "running");
  assert.equal((await put("stopped")).body.state, "stopped");
  assert.equal((await put("idle")).body.state, "idle");
  const bad = await put("paused");
  assert.equal(bad.status, 409);
  assert.equal(bad.body.error.field, "state");
  const unknown = await put("completed");
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.error.field, "state");
  const both = await s.call("PATCH", `/api/v1/timers/${id}/state`, { body: { state: "running", action: "start" } });
  assert.equal(both.status, 422);
  await s.close();
});

Deno.test("pause and resume shift an interval's rounds; GET is right after the end with nobody watching", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create({ type: "interval", work: 20, rest: 10, rounds: 3 });
  await s.act(id, "start");
  s.clock.advance(25_000);
  let r = await s.call("GET", `/api/v1/timers/${id}`);
  assert.deepEqual(r.body.interval, { round: 1, phase: "rest", phase_remaining_seconds: 5 });
  await s.act(id, "pause");
  s.clock.advance(600_000);
  r = await s.call("GET", `/api/v1/timers/${id}`);
  assert.equal(r.body.remaining_seconds, 65);
  await s.act(id, "resume");
  s.clock.advance(10_000);
  r = await s.call("GET", `/api/v1/timers/${id}`);
  assert.deepEqual(r.body.interval, { round: 2, phase: "work", phase_remaining_seconds: 15 });
  s.clock.advance(3600_000);
  r = await s.call("GET", `/api/v1/timers/${id}`);
  assert.equal(r.body.state, "completed");
  assert.equal(r.body.completed_at, new Date(Date.parse("2026-11-22T12:00:00Z") + 690_000).toISOString());
  await s.close();
});

Deno.test("two simultaneous starts on one timer give one 200 and one 409", async () => {
  const s = await setup();
  for (let i = 0; i < 5; i++) {
    const { timer_id: id } = await s.create({ type: "countdown", duration: 60 });
    const results = await Promise.all([s.act(id, "start"), s.act(id, "start")]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
  }
  await s.close();
});

Deno.test("GET /timers lists newest first with a cursor and a type filter", async () => {
  const s = await setup();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    s.clock.advance(1000);
    ids.push(
      (await s.create(i % 2 ? { type: "interval", work: 1, rest: 1 } : { type: "countdown", duration: 5 }))
        .timer_id,
    );
  }
  const p1 = await s.call("GET", "/api/v1/timers?limit=2");
  assert.equal(p1.status, 200);
  assert.deepEqual(p1.body.timers.map((t: { timer_id: string }) => t.timer_id), [ids[4], ids[3]]);
  assert.equal(typeof p1.body.next_cursor, "string");
  const p2 = await s.call("GET", `/api/v1/timers?limit=2&cursor=${encodeURIComponent(p1.body.next_cursor)}`);
  assert.deepEqual(p2.body.timers.map((t: { timer_id: string }) => t.timer_id), [ids[2], ids[1]]);
  const p3 = await s.call("GET", `/api/v1/timers?limit=2&cursor=${encodeURIComponent(p2.body.next_cursor)}`);
  assert.deepEqual(p3.body.timers.map((t: { timer_id: string }) => t.timer_id), [ids[0]]);
  assert.equal(p3.body.next_cursor, null);
  const ev = await s.create({ type: "event", target_date: "2027-01-01T00:00:00Z" });
  const events = await s.call("GET", "/api/v1/timers?type=event");
  assert.deepEqual(events.body.timers.map((t: { timer_id: string }) => t.timer_id), [ev.timer_id]);
  for (const q of ["limit=0", "limit=101", "limit=abc", "limit=2.0", "limit=0x10", "type=alarm", "foo=1"]) {
    const bad = await s.call("GET", `/api/v1/timers?${q}`);
    assert.equal(bad.status, 400, q);
    assert.equal(bad.body.error.field, q.split("=")[0], q);
  }
  const cur = await s.call("GET", "/api/v1/timers?cursor=nonsense!");
  assert.equal(cur.status, 400);
  assert.equal(cur.body.error.field, "cursor");
  const others = await s.call("GET", "/api/v1/timers", { key: s.other.apiKey });
  assert.deepEqual(others.body.timers, []);
  await s.close();
});

Deno.test("GET /timers gives next_cursor null on the last page, also when that page is full", async () => {
  // The document says "null on the last": a client looping while next_cursor is set must not fetch an empty page.
  const s = await setup();
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    s.clock.advance(1000);
    ids.push(
      (await s.create(
        i % 2 ? { type: "event", target_date: "2027-01-01T00:00:00Z" } : { type: "countdown", duration: 5 },
      )).timer_id,
    );
  }
  const all = await s.call("GET", "/api/v1/timers?limit=4");
  assert.equal(all.body.timers.length, 4);
  assert.equal(all.body.next_cursor, null);
  const p1 = await s.call("GET", "/api/v1/timers?limit=2");
  assert.equal(typeof p1.body.next_cursor, "string");
  const p2 = await s.call("GET", `/api/v1/timers?limit=2&cursor=${encodeURIComponent(p1.body.next_cursor)}`);
  assert.deepEqual(p2.body.timers.map((t: { timer_id: string }) => t.timer_id), [ids[1], ids[0]]);
  assert.equal(p2.body.next_cursor, null);
  const ev1 = await s.call("GET", "/api/v1/timers?type=event&limit=1");
  assert.deepEqual(ev1.body.timers.map((t: { timer_id: string }) => t.timer_id), [ids[3]]);
  const ev2 = await s.call(
    "GET",
    `/api/v1/timers?type=event&limit=1&cursor=${encodeURIComponent(ev1.body.next_cursor)}`,
  );
  assert.deepEqual(ev2.body.timers.map((t: { timer_id: string }) => t.timer_id), [ids[1]]);
  assert.equal(ev2.body.next_cursor, null);
  await s.close();
});

Deno.test("PATCH /timers/:id changes title, theme, color and webhook_url", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 60, title: "Old" });
  const r = await s.call("PATCH", `/api/v1/timers/${id}`, {
    body: { title: "New", theme: "auto", color: "00aa00", webhook_url: "http://127.0.0.1:9/hook" },
  });
  assert.equal(r.status, 200);
  assert.deepEqual([r.body.title, r.body.theme, r.body.color, r.body.webhook_url], [
    "New",
    "auto",
    "00AA00",
    "http://127.0.0.1:9/hook",
  ]);
  const cleared = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { title: null, webhook_url: null } });
  assert.equal(cleared.body.title, null);
  assert.equal(cleared.body.webhook_url, null);
  const bad = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { duration: 0 } });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.field, "duration");
  const badUrl = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { webhook_url: "ftp://x" } });
  assert.equal(badUrl.status, 422);
  assert.equal(badUrl.body.error.field, "webhook_url");
  await s.close();
});

Deno.test("DELETE removes the timer; it is then 404 everywhere", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 60 });
  const r = await s.call("DELETE", `/api/v1/timers/${id}`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { deleted: true, timer_id: id });
  assert.equal((await s.call("GET", `/api/v1/timers/${id}`)).status, 404);
  assert.equal((await s.act(id, "start")).status, 404);
  assert.equal((await s.call("DELETE", `/api/v1/timers/${id}`)).status, 404);
  assert.deepEqual((await s.call("GET", "/api/v1/timers")).body.timers, []);
  await s.close();
});

Deno.test("an expired timer answers 404", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create({ type: "countdown", duration: 60 });
  s.clock.advance(30 * 86400_000);
  const r = await s.call("GET", `/api/v1/timers/${id}`);
  assert.equal(r.status, 404);
  assert.deepEqual(r.body, { error: { code: 404, message: "timer not found or expired" } });
  await s.close();
});

Deno.test("a key revoked or deleted elsewhere adds no timer, though this process still has it cached", async () => {
  const { revokeKey } = await import("../lib/accounts/accounts.ts");
  for (const gone of ["revoked", "account deleted"] as const) {
    const s = await setup();
    const body = { type: "interval", work: 1, rest: 0 };
    assert.equal((await s.call("POST", "/api/v1/timers", { body })).status, 201, "the key is now cached");
    // As another process would: the store changes, this process's key cache does not hear of it.
    if (gone === "revoked") await revokeKey(s.store, s.pro.account.id, s.pro.key.id);
    else await s.store.accounts.deleteKeys(s.pro.account.id);
    const r = await s.call("POST", "/api/v1/timers", { body });
    assert.equal(r.status, 401, gone);
    const stored = await Array.fromAsync(s.kv.list({ prefix: ["timer"] }));
    assert.equal(stored.length, 1, `${gone}: only the timer made before`);
    await s.close();
  }
});

Deno.test("what a key or a control token reads is never cached (webhook and control URLs); public events keep theirs", async () => {
  const s = await setup();
  const created = await s.call("POST", "/api/v1/timers", {
    body: { type: "countdown", duration: 60, webhook_url: "https://example.com/hook?token=secret" },
  });
  assert.equal(created.headers.get("cache-control"), "no-store");
  const id = created.body.timer_id;
  const token = created.body.control_url.split("#")[1];
  for (const key of [undefined, token]) {
    assert.equal((await s.call("GET", `/api/v1/timers/${id}`, { key })).headers.get("cache-control"), "no-store");
  }
  assert.equal((await s.call("GET", "/api/v1/timers")).headers.get("cache-control"), "no-store");
  assert.equal((await s.call("GET", "/api/v1/timers/tmr_nothing")).headers.get("cache-control"), "no-store");
  assert.equal(
    (await s.call("GET", "/api/v1/events", { key: null })).headers.get("cache-control"),
    "private, max-age=1",
  );
  await s.close();
});

Deno.test("every answer to a key or a control token is no-store, its 429 and the free plan's 403 included", async () => {
  const { DEFAULT_PLANS } = await import("../config.ts");
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro = { ...plans.pro, per_minute: 3 };
  const s = await setup({ config: { plans } });
  const created = await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: 60 } });
  const token = created.body.control_url.split("#")[1];
  const id = created.body.timer_id;
  for (const key of [undefined, token]) {
    let r;
    do r = await s.call("GET", `/api/v1/timers/${id}`, { key }); while (r.status === 200);
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("cache-control"), "no-store", `429 to ${key ? "a control token" : "a key"}`);
  }
  const free = await s.call("GET", "/api/v1/timers", { key: s.free.apiKey });
  assert.equal(free.status, 403);
  assert.equal(free.headers.get("cache-control"), "no-store");
  await s.close();
});

Deno.test("rate-limit headers on plans without a per-minute figure: the day's figures, or none when unlimited", async () => {
  const { DEFAULT_PLANS } = await import("../config.ts");
  const plans = structuredClone(DEFAULT_PLANS);
  plans.pro = { ...plans.pro, per_minute: null, per_day: 5 };
  plans.enterprise = { ...plans.enterprise, per_minute: null, per_day: null };
  const s = await setup({ config: { plans } });
  const day = await s.call("GET", "/api/v1/timers");
  assert.equal(day.headers.get("x-ratelimit-limit"), "5");
  assert.equal(day.headers.get("x-ratelimit-remaining"), "4");
  const dayEnd = String((Math.floor(s.clock.now() / 86400_000) + 1) * 86400);
  assert.equal(day.headers.get("x-ratelimit-reset"), dayEnd, "Reset is the end of the window it counts: the day");
  const none = await s.call("GET", "/api/v1/timers", { key: s.enterprise.apiKey });
  assert.equal(none.status, 200);
  assert.equal(none.headers.get("x-ratelimit-limit"), null);
  assert.equal(none.headers.get("x-ratelimit-remaining"), null);
  assert.match(none.headers.get("x-ratelimit-reset") ?? "", /^\d+$/);
  // A plan with both limits whose day is spent: the 429 describes the day, so waiting for Reset works.
  for (let i = 0; i < 4; i++) await s.call("GET", "/api/v1/timers");
  const spent = await s.call("GET", "/api/v1/timers");
  assert.equal(spent.status, 429);
  assert.equal(spent.headers.get("x-ratelimit-reset"), dayEnd);
  assert.equal(spent.headers.get("x-ratelimit-limit"), "5");
  assert.equal(Number(spent.headers.get("retry-after")), Number(dayEnd) - Math.floor(s.clock.now() / 1000));
  const mixed = structuredClone(DEFAULT_PLANS);
  mixed.pro = { ...mixed.pro, per_minute: 100, per_day: 2 };
  const m = await setup({ config: { plans: mixed } });
  const first = await m.call("GET", "/api/v1/timers");
  assert.equal(first.headers.get("x-ratelimit-limit"), "100", "the minute's figures while the day has room");
  assert.equal(first.headers.get("x-ratelimit-reset"), String((Math.floor(m.clock.now() / 60_000) + 1) * 60));
  await m.call("GET", "/api/v1/timers");
  const over = await m.call("GET", "/api/v1/timers");
  assert.equal(over.status, 429);
  assert.deepEqual(
    ["limit", "remaining", "reset"].map((h) => over.headers.get(`x-ratelimit-${h}`)),
    ["2", "0", dayEnd],
  );
  await m.close();
  // The document and the guide say so.
  const doc = (await s.call("GET", "/api/v1/openapi.json", { key: null })).body;
  for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining"]) {
    assert.match(doc.components.headers[h].description, /per-minute limit(, or a 429 for a spent day)?: the day.s/, h);
  }
  const guide = await (await s.app.app.request("http://timers.test/docs/guides/rate-limits")).text();
  assert.match(guide, /per-minute limit: the day/);
  await s.close();
});

Deno.test("an account moved to free: its keys get 403, its timers and their control links go on", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60 });
  const token = t.control_url.split("#")[1];
  await setPlan(s.store, s.pro.account.id, "free");
  s.clock.advance(6000); // past the key cache (5 s)
  const viaKey = await s.call("GET", `/api/v1/timers/${t.timer_id}`);
  assert.equal(viaKey.status, 403);
  assert.match(viaKey.body.error.message, /free plan has no API access/);
  const started = await s.act(t.timer_id, "start", token);
  assert.equal(started.status, 200, "the control link still works");
  assert.equal((await s.call("GET", `/api/v1/timers/${t.timer_id}`, { key: token })).body.state, "running");
  s.clock.advance(61_000);
  await s.app.scheduler.sweep();
  assert.equal((await s.store.getTimer(t.timer_id))!.timer.state, "completed", "it ran out as it would have");
  await s.close();
});
