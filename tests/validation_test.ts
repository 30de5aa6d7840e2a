import assert from "node:assert/strict";
import { documentAjv, setup } from "./helpers.ts";

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

Deno.test("a null title on create means no title, as it does on PATCH", async () => {
  const s = await setup();
  const t = await s.create({ ...cd, title: null });
  assert.equal(t.title, null);
  await s.close();
});

Deno.test("plain http webhooks are refused unless the operator allows them", async () => {
  const s = await setup({ config: { webhookAllowPrivate: false } });
  const r = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "http://example.com/h" } });
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "webhook_url");
  // The refusal says how a developer allows a receiver on their own machine.
  assert.match(
    r.body.error.message,
    /must be an absolute https URL.*for local development, start it with WEBHOOK_ALLOW_PRIVATE=1/,
  );
  const local = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "http://localhost:3000/h" } });
  assert.match(local.body.error.message, /WEBHOOK_ALLOW_PRIVATE=1/);
  const ftp = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "ftp://example.com/h" } });
  assert.doesNotMatch(ftp.body.error.message, /WEBHOOK_ALLOW_PRIVATE/, "only plain http is helped so");
  const ok = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "https://example.com/h" } });
  assert.equal(ok.status, 201);
  assert.equal(ok.body.webhook_url, "https://example.com/h");
  // A scheme in capitals is the same URL (stored normalised); plain HTTP in capitals is still plain http.
  const caps = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "HTTPS://Example.com/h" } });
  assert.equal(caps.status, 201);
  assert.equal(caps.body.webhook_url, "https://example.com/h");
  const plainCaps = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: "HTTP://example.com/h" } });
  assert.equal(plainCaps.status, 422);
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
  // RFC 9110 lets spaces surround `;` and quotes a parameter's value: all of these are JSON.
  for (const type of ["application/json ; charset=utf-8", 'APPLICATION/JSON;charset="utf-8"', "application/json;"]) {
    const r = await s.call("POST", "/api/v1/timers", { raw: JSON.stringify(cd), headers: { "content-type": type } });
    assert.equal(r.status, 201, type);
  }
  const patched = await s.call("PATCH", `/api/v1/timers/${charset.body.timer_id}`, {
    raw: JSON.stringify({ title: "spaced" }),
    headers: { "content-type": "application/json ;charset=utf-8" },
  });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.title, "spaced");
  // Every type refused is refused with the same message (the validators behind agree on what JSON is).
  for (const type of ["application/json;foo", "application/jsonx", "application/json, text/plain", "text/json"]) {
    const r = await s.call("POST", "/api/v1/timers", { raw: JSON.stringify(cd), headers: { "content-type": type } });
    assert.equal(r.status, 400, type);
    assert.match(r.body.error.message, /Content-Type must be application\/json/, type);
  }
  const suffix = await s.call("POST", "/api/v1/timers", {
    raw: JSON.stringify(cd),
    headers: { "content-type": "application/merge-patch+json" },
  });
  assert.equal(suffix.status, 201);
  // Bytes that are not UTF-8 are refused, not replaced by U+FFFD.
  const enc = new TextEncoder();
  const bytes = new Uint8Array([
    ...enc.encode('{"type":"countdown","duration":5,"title":"a'),
    0xff,
    ...enc.encode('"}'),
  ]);
  const latin = await s.call("POST", "/api/v1/timers", { raw: bytes });
  assert.equal(latin.status, 400);
  assert.match(latin.body.error.message, /not valid UTF-8/);
  // A lone surrogate is no text: strict JSON parsers would refuse every later answer holding it.
  const lone = await s.call("POST", "/api/v1/timers", { raw: '{"type":"countdown","duration":5,"title":"a\\ud800b"}' });
  assert.equal(lone.status, 422);
  assert.equal(lone.body.error.field, "title");
  for (const bad of ["a\\u0000b", "a\\u202eb", "tab\\there", "a\\u0085b"]) {
    const r = await s.call("POST", "/api/v1/timers", { raw: `{"type":"countdown","duration":5,"title":"${bad}"}` });
    assert.equal(r.status, 422, bad);
    assert.equal(r.body.error.field, "title");
    assert.match(r.body.error.message, /control characters/);
  }
  const pair = await s.call("POST", "/api/v1/timers", {
    raw: '{"type":"countdown","duration":5,"title":"a\\ud83d\\ude00"}',
  });
  assert.equal(pair.status, 201);
  assert.equal(pair.body.title, "a\u{1F600}");
  const array = await s.call("POST", "/api/v1/timers", { body: [cd] });
  assert.equal(array.status, 422);
  const empty = await s.call("POST", "/api/v1/timers", { raw: "" });
  assert.equal(empty.status, 400);
  await s.close();
});

Deno.test("a Content-Type of many empty parameters is refused at once, not after minutes of backtracking", async () => {
  const s = await setup();
  // Spaces between ';'s could go to either of two quantifiers: each more ";  " tripled the time,
  // with the event loop blocked (17 of them: several seconds; 20: over a minute).
  const type = "application/json" + ";  ".repeat(17) + "x";
  const t0 = performance.now();
  const r = await s.call("POST", "/api/v1/timers", { raw: JSON.stringify(cd), headers: { "content-type": type } });
  const ms = performance.now() - t0;
  assert.equal(r.status, 400);
  assert.ok(ms < 1000, `took ${Math.round(ms)} ms`);
  const ok = await s.call("POST", "/api/v1/timers", {
    raw: JSON.stringify(cd),
    headers: { "content-type": "application/json" + ";  ".repeat(17) },
  });
  assert.equal(ok.status, 201);
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
  assert.equal(put.headers.get("allow"), "GET, HEAD, PATCH, DELETE, OPTIONS");
  assert.equal(put.body.error.code, 405);
  const post = await s.call("POST", "/api/v1/timers/tmr_x/state", { body: { action: "start" } });
  assert.equal(post.status, 405);
  const unknownTimer = await s.call("GET", "/api/v1/timers/tmr_doesnotexist0000");
  assert.equal(unknownTimer.status, 404);
  const health = await s.call("POST", "/healthz", { body: {} });
  assert.equal(health.status, 405);
  assert.equal(health.headers.get("allow"), "GET, HEAD, OPTIONS");
  const head = await s.app.app.request("http://timers.test/healthz", { method: "HEAD" });
  assert.equal(head.status, 200, "HEAD is answered where Allow names it");
  // OPTIONS too, without a key (it tells what a path answers, nothing about a timer).
  for (const path of ["/api/v1/timers/tmr_x", "/healthz", "/api/v1/events"]) {
    const o = await s.app.app.request(`http://timers.test${path}`, { method: "OPTIONS" });
    assert.equal(o.status, 204, path);
    assert.match(o.headers.get("allow") ?? "", /^GET, HEAD, .*OPTIONS$/, path);
  }
  const nowhere = await s.app.app.request("http://timers.test/api/v1/nothing", { method: "OPTIONS" });
  assert.equal(nowhere.status, 404);
  // A path no method answers is 404 for every method, never a 405 naming a method that 404s.
  const { timer_id: id } = await s.create(cd);
  for (const path of [`/api/v1/timers/${id}/state/`, "/api/v1/timers/", "/api/v1/events/", "/healthz/"]) {
    for (const method of ["GET", "PATCH", "POST"]) {
      const r = await s.call(method, path, method === "GET" ? {} : { body: { action: "start" } });
      assert.equal(r.status, 404, `${method} ${path}`);
    }
  }
  await s.close();
});

Deno.test("no response leaks a stack trace on an unexpected error", async () => {
  const lines: Record<string, unknown>[] = [];
  const s = await setup();
  // Every KV read now throws an error nobody planned for (a closed store answers 503 instead).
  const boom = () => Promise.reject(new Error("boom"));
  Object.assign(s.kv, {
    get: boom,
    getMany: boom,
    list: () => ({ next: boom, [Symbol.asyncIterator]: () => ({ next: boom }) }),
  });
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
  await s.close();
});

Deno.test("impossible calendar dates answer 422 naming target_date, not a date in the next month", async () => {
  const s = await setup();
  for (
    const d of ["2027-02-30T00:00:00Z", "2027-04-31T12:00:00+02:00", "2027-02-29T00:00:00Z", "2027-06-31T00:00:00Z"]
  ) {
    const r = await s.call("POST", "/api/v1/timers", { body: { type: "event", target_date: d } });
    assert.equal(r.status, 422, d);
    assert.equal(r.body.error.field, "target_date", d);
    assert.match(r.body.error.message, /^target_date must be an ISO 8601 date-time/, d);
  }
  const leap = await s.call("POST", "/api/v1/timers", { body: { type: "event", target_date: "2028-02-29T00:00:00Z" } });
  assert.equal(leap.status, 201);
  // RFC 3339 allows a lower-case "t" and "z".
  const lower = await s.call("POST", "/api/v1/timers", {
    body: { type: "event", target_date: "2028-02-29t00:00:00z" },
  });
  assert.equal(lower.status, 201, JSON.stringify(lower.body));
  assert.equal(lower.body.target_date, "2028-02-29T00:00:00.000Z");
  await s.close();
});

Deno.test("an over-long title answers the rule with the length it got", async () => {
  const s = await setup();
  const r = await s.call("POST", "/api/v1/timers", { body: { ...cd, title: "x".repeat(101) } });
  assert.equal(r.status, 422);
  assert.deepEqual(r.body.error, {
    code: 422,
    message: "title must be at most 100 characters, got 101",
    field: "title",
  });
  const { timer_id: id } = await s.create(cd);
  const p = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { title: "⏰".repeat(120) } });
  assert.equal(p.body.error.message, "title must be at most 100 characters, got 120");
  await s.close();
});

Deno.test("a number beyond the double range is called what it is, not null", async () => {
  const s = await setup();
  for (const raw of ['{"type":"countdown","duration":1e400}', '{"type":"countdown","duration":-1e400}']) {
    const r = await s.call("POST", "/api/v1/timers", { raw });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.field, "duration");
    assert.equal(
      r.body.error.message,
      "duration must be an integer from 1 to 31536000 (seconds), got a number too large to represent",
    );
  }
  await s.close();
});

Deno.test("fields of another type and missing type fields say which type they belong to", async () => {
  const s = await setup();
  const other = await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: 5, work: 5 } });
  assert.equal(other.body.error.message, 'work applies only to interval timers, not to type "countdown"');
  const missing = await s.call("POST", "/api/v1/timers", { body: { type: "interval", work: 5 } });
  assert.equal(missing.body.error.field, "rest");
  assert.match(missing.body.error.message, /^rest is required when type is "interval"/);
  await s.close();
});

Deno.test("ids of any length or shape answer 404 on every id route, never 500", async () => {
  const s = await setup();
  const { timer_id: id } = await s.create(cd);
  for (const bad of ["x".repeat(3000), "tmr_" + "a".repeat(2100), "tmr_short", encodeURIComponent("tmr_é")]) {
    const routes: [string, string, unknown?][] = [
      ["GET", `/api/v1/timers/${bad}`],
      ["PATCH", `/api/v1/timers/${bad}`, { title: "x" }],
      ["DELETE", `/api/v1/timers/${bad}`],
      ["PATCH", `/api/v1/timers/${bad}/state`, { action: "start" }],
      ["GET", `/api/v1/timers/${bad}/deliveries`],
      ["POST", `/api/v1/timers/${bad}/webhook/test`],
      ["POST", `/api/v1/timers/${bad}/deliveries/evt_x/redeliver`],
      ["POST", `/api/v1/timers/${id}/deliveries/${bad}/redeliver`],
    ];
    for (const [method, path, body] of routes) {
      const r = await s.call(method, path, { body });
      assert.equal(r.status, 404, `${method} ${path.slice(0, 60)} → ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 404);
    }
  }
  await s.close();
});

Deno.test("every path of the OpenAPI document answers a method it does not list with 405 and its Allow", async () => {
  const s = await setup();
  const doc = (await s.call("GET", "/api/v1/openapi.json")).body;
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    const allowed = Object.keys(ops).map((m) => m.toUpperCase()).filter((m) => m !== "PARAMETERS")
      .flatMap((m) => m === "GET" ? ["GET", "HEAD"] : [m]).concat("OPTIONS");
    const real = `/api/v1${path.replace(/\{[^}]+\}/g, "x1")}`;
    const method = allowed.includes("PUT") ? "POST" : "PUT";
    const r = await s.call(method, real, { body: {} });
    assert.equal(r.status, 405, `${method} ${path}`);
    assert.deepEqual(r.headers.get("allow")?.split(", ").sort(), allowed.sort(), path);
  }
  await s.close();
});

Deno.test("a webhook_url is at most 2048 characters as stored, so the URL a timer answers can be sent back", async () => {
  const s = await setup();
  // 1020 characters as sent, 6020 once each é is percent-encoded: what would be stored, answered and POSTed to.
  const long = "https://example.com/" + "é".repeat(1000);
  const r = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: long } });
  assert.equal(r.status, 422);
  assert.equal(r.body.error.field, "webhook_url");
  assert.match(r.body.error.message, /2048/);
  const { timer_id: id } = await s.create(cd);
  const p = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { webhook_url: long } });
  assert.equal(p.status, 422);
  // What is accepted reads back within the limit, and PATCHing it back is accepted.
  const ok = await s.call("PATCH", `/api/v1/timers/${id}`, {
    body: { webhook_url: "https://example.com/" + "é".repeat(300) },
  });
  assert.equal(ok.status, 200);
  assert.ok(ok.body.webhook_url.length <= 2048);
  const back = await s.call("PATCH", `/api/v1/timers/${id}`, { body: { webhook_url: ok.body.webhook_url } });
  assert.equal(back.status, 200);
  await s.close();
});

Deno.test("a webhook_url is stored and answered as a valid RFC 3986 URI, as the document's format says", async () => {
  // WHATWG URL percent-encodes non-ASCII but leaves [ ] \ ^ ` { | }, a lone % and a second # in place:
  // answered as they were, every read of such a timer broke `format: uri` for clients validating responses.
  const s = await setup();
  const doc = (await s.call("GET", "/api/v1/openapi.json", { key: null })).body;
  const ajv = documentAjv(doc);
  const timerSchema = ajv.getSchema("openapi.json#/components/schemas/Timer")!;
  const cases: [string, string][] = [
    ["https://example.com/a[1]^b|c", "https://example.com/a%5B1%5D%5Eb%7Cc"],
    ["https://example.com/p?q=[1]{2}|`x`\\", "https://example.com/p?q=%5B1%5D%7B2%7D%7C%60x%60%5C"],
    ["https://example.com/100%:off?r=%zz", "https://example.com/100%25:off?r=%25zz"],
    ["https://example.com/h#frag#more^", "https://example.com/h#frag%23more%5E"],
    ["https://例え.jp/パス?ok=%41", "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?ok=%41"],
    // An empty query or fragment is kept, and the path with it.
    ["https://example.com/hook?", "https://example.com/hook?"],
    ["https://example.com/hook[1]#", "https://example.com/hook%5B1%5D#"],
  ];
  for (const [sent, stored] of cases) {
    const r = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: sent } });
    assert.equal(r.status, 201, sent);
    assert.equal(r.body.webhook_url, stored, sent);
    assert.ok(timerSchema(r.body), `${sent}: ${JSON.stringify(timerSchema.errors)}`);
    // Sending the answered URL back stores it unchanged.
    const back = await s.call("PATCH", `/api/v1/timers/${r.body.timer_id}`, { body: { webhook_url: stored } });
    assert.equal(back.status, 200);
    assert.equal(back.body.webhook_url, stored);
    assert.ok(timerSchema(back.body), `${stored}: ${JSON.stringify(timerSchema.errors)}`);
  }
  // A host name WHATWG URL takes but RFC 3986 (and DNS) does not: refused, not stored.
  for (const host of ['a"b.example', "a`b.example", "a{b}.example", '𝆹𝅥"𝑁,-.example']) {
    const r = await s.call("POST", "/api/v1/timers", { body: { ...cd, webhook_url: `https://${host}/h` } });
    assert.equal(r.status, 422, host);
    assert.equal(r.body.error.field, "webhook_url");
  }
  await s.close();
});

Deno.test("the document's target_date refuses what the server refuses (a space for T, 10 fraction digits)", async () => {
  // `format: date-time` alone lets a validator take "2027-01-01 00:00:00Z", which the server answers 422.
  const s = await setup();
  const doc = (await s.call("GET", "/api/v1/openapi.json", { key: null })).body;
  const ajv = documentAjv(doc);
  const eventCreate = ajv.getSchema("openapi.json#/components/schemas/EventCreate")!;
  for (
    const date of [
      "2027-01-01T00:00:00Z",
      "2027-01-01t00:00:00z",
      "2027-01-01T00:00:00.123456789+09:00",
      "2027-01-01 00:00:00Z",
      "2027-01-01T00:00:00.1234567891Z",
      "2027-01-01T00:00:00+0900",
      "2027-01-01T00:00Z",
    ]
  ) {
    const body = { type: "event", target_date: date };
    const r = await s.call("POST", "/api/v1/timers", { body });
    assert.equal(eventCreate(body), r.status === 201, `${date}: server ${r.status}, document ${eventCreate(body)}`);
  }
  await s.close();
});
