import assert from "node:assert/strict";
import { setup } from "./helpers.ts";

const cd = { type: "countdown", duration: 60 };

/** [body, field] pairs that must each answer 422 naming the field. */
const INVALID: [Record<string, unknown>, string][] = [
  [{}, "type"],
  [{ type: "alarm" }, "type"],
  [{ type: 1 }, "type"],
  [{ type: "countdown" }, "duration"],
  [{ type: "countdown", duration: "60" }, "duration"],
  [{ type: "countdown", duration: 1.5 }, "duration"],
  [{ type: "countdown", duration: 0 }, "duration"],
  [{ type: "countdown", duration: -5 }, "duration"],
  [{ type: "countdown", duration: 31_536_001 }, "duration"],
  [{ type: "countdown", duration: null }, "duration"],
  [{ type: "event" }, "target_date"],
  [{ type: "event", target_date: "tomorrow" }, "target_date"],
  [{ type: "event", target_date: "2026-12-01" }, "target_date"],
  [{ type: "event", target_date: "2026-12-01T00:00:00" }, "target_date"],
  [{ type: "event", target_date: "2026-13-01T00:00:00Z" }, "target_date"],
  [{ type: "event", target_date: "2026-11-22T11:59:59Z" }, "target_date"],
  [{ type: "event", target_date: "2036-12-01T00:00:00Z" }, "target_date"],
  [{ type: "event", target_date: 1790000000 }, "target_date"],
  [{ type: "interval", rest: 10 }, "work"],
  [{ type: "interval", work: 10 }, "rest"],
  [{ type: "interval", work: 0, rest: 10 }, "work"],
  [{ type: "interval", work: 86_401, rest: 10 }, "work"],
  [{ type: "interval", work: 10, rest: -1 }, "rest"],
  [{ type: "interval", work: 10, rest: 2.5 }, "rest"],
  [{ type: "interval", work: 10, rest: 10, rounds: 0 }, "rounds"],
  [{ type: "interval", work: 10, rest: 10, rounds: 10_001 }, "rounds"],
  [{ type: "countdown", duration: 5, work: 5 }, "work"],
  [{ type: "interval", work: 5, rest: 5, duration: 5 }, "duration"],
  [{ ...cd, title: "x".repeat(101) }, "title"],
  [{ ...cd, title: 42 }, "title"],
  [{ ...cd, theme: "blue" }, "theme"],
  [{ ...cd, color: "#6C63FF" }, "color"],
  [{ ...cd, color: "6C63F" }, "color"],
  [{ ...cd, color: "GGGGGG" }, "color"],
  [{ ...cd, webhook_url: "not a url" }, "webhook_url"],
  [{ ...cd, webhook_url: "/relative" }, "webhook_url"],
  [{ ...cd, webhook_url: "ftp://example.com/x" }, "webhook_url"],
  [{ ...cd, webhook_url: 5 }, "webhook_url"],
  [{ ...cd, colour: "6C63FF" }, "colour"],
];

Deno.test("every field rule answers 422 with the offending field", async () => {
  const s = await setup();
  for (const [body, field] of INVALID) {
    const r = await s.call("POST", "/api/v1/timers", { body });
    assert.equal(r.status, 422, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, 422);
    assert.equal(r.body.error.field, field, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`);
    assert.equal(typeof r.body.error.message, "string");
  }
  // Nothing was half-written.
  assert.deepEqual((await s.call("GET", "/api/v1/timers")).body.timers, []);
  await s.close();
});

Deno.test("error messages name the field, the rule and the value", async () => {
  const s = await setup();
  const r = await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: "abc" } });
  assert.equal(r.body.error.message, 'duration must be an integer from 1 to 31536000 (seconds), got "abc"');
  await s.close();
});

Deno.test("a 100-character title (in code points) is accepted", async () => {
  const s = await setup();
  const t = await s.create({ ...cd, title: "⏰".repeat(100) });
  assert.equal([...t.title].length, 100);
  await s.close();
});

Deno.test("plain http webhooks are refused unless the operator allows them", async () => {
  const s = await setup({ config: { webhookAllowPrivate: false } });
  const r = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "http://example.com/h" } });
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "webhook_url");
  const ok = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "https://example.com/h" } });
  assert.equal(ok.status, 201);
  assert.equal(ok.body.webhook_url, "https://example.com/h");
  await s.close();
});

Deno.test("malformed JSON, wrong Content-Type and non-object bodies answer 400/422", async () => {
  const s = await setup();
  const malformed = await s.call("POST", "/api/v1/timers", { raw: '{"type":' });
  assert.equal(malformed.status, 400);
  assert.match(malformed.body.error.message, /malformed JSON/);
  const noType = await s.call("POST", "/api/v1/timers", { raw: JSON.stringify(cd), headers: { "content-type": "" } });
  assert.equal(noType.status, 400);
  const text = await s.call("POST", "/api/v1/timers", {
    raw: JSON.stringify(cd),
    headers: { "content-type": "text/plain" },
  });
  assert.equal(text.status, 400);
  assert.match(text.body.error.message, /Content-Type must be application\/json/);
  const charset = await s.call("POST", "/api/v1/timers", {
    raw: JSON.stringify(cd),
    headers: { "content-type": "application/json; charset=utf-8" },
  });
  assert.equal(charset.status, 201);
  const array = await s.call("POST", "/api/v1/timers", { body: [cd] });
  assert.equal(array.status, 422);
  const empty = await s.call("POST", "/api/v1/timers", { raw: "" });
  assert.equal(empty.status, 400);
  await s.close();
});

Deno.test("a body over 16 KiB answers 413", async () => {
  const s = await setup();
  const r = await s.call("POST", "/api/v1/timers", { body: { ...cd, title: "x".repeat(17 * 1024) } });
  assert.equal(r.status, 413);
  assert.equal(r.body.error.code, 413);
  await s.close();
});

Deno.test("an unknown action answers 422 naming action", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create(cd);
  for (const body of [{ action: "explode" }, { action: 1 }, {}, { action: "start", extra: 1 }]) {
    const r = await s.call("PATCH", `/api/v1/timers/${id}/state`, { body });
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.equal(r.body.error.field, Object.keys(body).includes("extra") ? "extra" : "action");
  }
  await s.close();
});

Deno.test("unknown routes answer 404 and wrong methods 405, both in the envelope", async () => {
  const s = await setup();
  const nf = await s.call("GET", "/api/v1/nothing");
  assert.equal(nf.status, 404);
  assert.equal(nf.body.error.code, 404);
  const put = await s.call("PUT", "/api/v1/timers/tmr_x", { body: {} });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get("allow"), "GET, PATCH, DELETE");
  assert.equal(put.body.error.code, 405);
  const post = await s.call("POST", "/api/v1/timers/tmr_x/state", { body: { action: "start" } });
  assert.equal(post.status, 405);
  const unknownTimer = await s.call("GET", "/api/v1/timers/tmr_doesnotexist0000");
  assert.equal(unknownTimer.status, 404);
  await s.close();
});

Deno.test("no response leaks a stack trace on an unexpected error", async () => {
  const lines: Record<string, unknown>[] = [];
  const s = await setup();
  s.kv.close(); // every KV call now throws
  const { createApp } = await import("../app.ts");
  const broken = createApp({ store: s.store, config: s.config, log: (l) => lines.push(l) });
  const res = await broken.app.request("http://timers.test/api/v1/timers", {
    headers: { authorization: `Bearer ${s.pro.apiKey}` },
  });
  const body = await res.json();
  assert.equal(res.status, 500);
  assert.match(body.error.message, /^unexpected error; quote request id req_/);
  assert.ok(!JSON.stringify(body).includes("at "));
  assert.ok(lines.some((l) => l.level === "error"));
  await broken.limiter.stop().catch(() => {});
});
