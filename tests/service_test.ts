import assert from "node:assert/strict";
import { setup } from "./helpers.ts";

Deno.test("GET /api/v1/openapi.json is an OpenAPI 3.1 document covering every endpoint", async () => {
  const s = await setup();
  const r = await s.call("GET", "/api/v1/openapi.json", { key: null });
  assert.equal(r.status, 200);
  assert.equal(r.body.openapi, "3.1.0");
  const ops = Object.entries(r.body.paths).flatMap(([p, item]) => Object.keys(item as object).map((m) => `${m} ${p}`));
  for (
    const op of [
      "post /timers",
      "get /timers",
      "get /timers/{id}",
      "patch /timers/{id}",
      "patch /timers/{id}/state",
      "delete /timers/{id}",
    ]
  ) assert.ok(ops.includes(op), op);
  // One create shape per type, each closed to foreign fields.
  const schemas = r.body.components.schemas;
  assert.equal(schemas.CreateTimer.discriminator.propertyName, "type");
  const countdown = schemas.CountdownCreate;
  assert.equal(countdown.additionalProperties, false);
  assert.ok(countdown.required.includes("type"));
  assert.equal(countdown.properties.duration.maximum, 31536000);
  assert.ok(r.body.components.securitySchemes.bearer);
  assert.equal(r.body.servers[0].url, "http://timers.test/api/v1");
  await s.close();
});

Deno.test("GET /healthz answers 200 while KV is reachable", async () => {
  const s = await setup();
  const r = await s.call("GET", "/healthz", { key: null });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { ok: true });
  await s.close();
});

Deno.test("a store that cannot be reached answers 503 with the error envelope, as the reference says", async () => {
  const s = await setup();
  const t = await s.create({ type: "countdown", duration: 60 });
  await s.app.scheduler.stop();
  await s.app.limiter.stop();
  s.kv.close();
  for (
    const [method, path, body] of [
      ["GET", `/api/v1/timers/${t.timer_id}`],
      ["POST", "/api/v1/timers", { type: "countdown", duration: 60 }],
      ["PATCH", `/api/v1/timers/${t.timer_id}/state`, { action: "start" }],
      ["GET", "/healthz"],
    ] as const
  ) {
    const r = await s.call(method, path, { body, key: path === "/healthz" ? null : s.enterprise.apiKey });
    assert.equal(r.status, 503, `${method} ${path}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, 503);
    assert.match(r.body.error.message, /retry later/);
  }
});

Deno.test("each request is logged as one JSON line with a request id and no secrets", async () => {
  const s = await setup();
  const lines: Record<string, unknown>[] = [];
  const { createApp } = await import("../app.ts");
  const app = createApp({ store: s.store, config: { ...s.config, logRequests: true }, log: (l) => lines.push(l) });
  const res = await app.app.request("http://timers.test/api/v1/timers", {
    headers: { authorization: `Bearer ${s.pro.apiKey}` },
  });
  await res.body?.cancel();
  assert.equal(lines.length, 1);
  assert.match(String(lines[0].request_id), /^req_/);
  assert.equal(res.headers.get("x-request-id"), lines[0].request_id);
  assert.ok(!JSON.stringify(lines).includes(s.pro.apiKey));
  await app.limiter.stop();
  await s.close();
});

Deno.test("the API answers CORS preflights and exposes the rate-limit headers", async () => {
  const s = await setup();
  const pre = await s.call("OPTIONS", "/api/v1/timers", {
    key: null,
    headers: { origin: "https://example.com", "access-control-request-method": "POST" },
  });
  assert.ok(pre.status === 204 || pre.status === 200);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  const r = await s.call("GET", "/api/v1/events", { key: null, headers: { origin: "https://example.com" } });
  assert.equal(r.headers.get("access-control-allow-origin"), "*");
  assert.match(r.headers.get("access-control-expose-headers") ?? "", /X-RateLimit-Remaining/);
  // A browser client can read why it was refused: the challenge of a 401, the methods of a 405.
  const unauthorized = await s.call("GET", "/api/v1/timers", { key: null, headers: { origin: "https://example.com" } });
  assert.equal(unauthorized.status, 401);
  assert.match(unauthorized.headers.get("access-control-expose-headers") ?? "", /WWW-Authenticate/);
  assert.match(unauthorized.headers.get("access-control-expose-headers") ?? "", /\bAllow\b/);
  await s.close();
});
