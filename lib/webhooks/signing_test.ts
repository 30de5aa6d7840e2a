import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { verifyWebhook } from "../../mod.ts";
import { VECTOR } from "../../tests/webhook_vector.ts";
import * as signing from "./signing.ts";
import { hmacSha256, signDelivery } from "./signing.ts";

Deno.test("the signature covers the payload without its signature member, which comes last", async () => {
  const req = signDelivery(VECTOR.payload, [VECTOR.secret], VECTOR.nowMs);
  const sig = req.headers["x-service-signature"];
  assert.equal(sig, VECTOR.headers["x-service-signature"]);
  assert.equal(req.headers["webhook-signature"], VECTOR.headers["webhook-signature"]);
  assert.ok(req.body.endsWith(`,"signature":"${sig}"}`));
  const parsed = JSON.parse(req.body);
  assert.equal(parsed.signature, sig);
  assert.deepEqual(Object.keys(parsed), ["id", "event", "timestamp", "timer_id", "title", "type", "data", "signature"]);
  // A receiver in any language: HMAC over the body with the trailing member cut out.
  const content = req.body.replace(/,"signature":"sha256=[0-9a-f]{64}"\}$/, "}");
  assert.equal(content, JSON.stringify(VECTOR.payload));
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(VECTOR.secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content)));
  assert.equal(sig, `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`);
  assert.equal(req.headers["webhook-id"], VECTOR.payload.id);
  assert.equal(req.headers["webhook-timestamp"], "1795348810");
});

Deno.test("the SDK's verifyWebhook accepts both signature forms and refuses tampering and replays", async () => {
  const req = signDelivery(VECTOR.payload, [VECTOR.secret], VECTOR.nowMs);
  const h = req.headers;
  const now = VECTOR.nowMs;
  assert.ok(await verifyWebhook(req.body, h, VECTOR.secret, { now }));
  // X-Service-Signature with the webhook-timestamp the service sends alongside.
  const onlyService = { "x-service-signature": h["x-service-signature"], "webhook-timestamp": h["webhook-timestamp"] };
  assert.ok(await verifyWebhook(req.body, onlyService, VECTOR.secret, { now }));
  assert.equal(await verifyWebhook(req.body, onlyService, VECTOR.secret, { now: now + 3600_000 }), null, "replayed");
  const onlyStandard = new Headers({
    "webhook-id": h["webhook-id"],
    "webhook-timestamp": h["webhook-timestamp"],
    "webhook-signature": h["webhook-signature"],
  });
  assert.ok(await verifyWebhook(req.body, onlyStandard, VECTOR.secret, { now }));
  assert.equal(await verifyWebhook(req.body, onlyStandard, VECTOR.secret, { now: now + 3600_000 }), null);
  const tampered = req.body.replace('"Tea"', '"Coffee"');
  assert.equal(await verifyWebhook(tampered, h, VECTOR.secret, { now }), null);
  assert.equal(await verifyWebhook(req.body, h, "whsec_b3RoZXJvdGhlcm90aGVyb3RoZXJvdGhlcg==", { now }), null);
});

Deno.test("signing.ts signs only: the one verifier is the SDK's", () => {
  assert.equal("verifyWebhook" in signing, false);
});

Deno.test("the standardwebhooks library verifies our deliveries, with either secret during a rotation", async () => {
  const old = VECTOR.secret;
  const fresh = "whsec_" + btoa("another-32-byte-secret-for-tests");
  const now = Date.now();
  const payload = { ...VECTOR.payload, timestamp: new Date(now).toISOString() };
  // During the grace period X-Service-Signature keeps the previous secret; webhook-signature carries both.
  const req = signDelivery(payload, { header: old, standard: [fresh, old] }, now);
  assert.equal(req.headers["webhook-signature"].split(" ").length, 2);
  for (const secret of [fresh, old]) {
    const verified = new Webhook(secret).verify(req.body, req.headers) as Record<string, unknown>;
    assert.equal(verified.id, VECTOR.payload.id);
  }
  const serviceOnly = (r: typeof req) => ({
    "x-service-signature": r.headers["x-service-signature"],
    "webhook-timestamp": r.headers["webhook-timestamp"],
  });
  assert.ok(await verifyWebhook(req.body, serviceOnly(req), old, { now }));
  assert.equal(await verifyWebhook(req.body, serviceOnly(req), fresh, { now }), null);
  // A plain list, newest first: the newest signs X-Service-Signature.
  const plain = signDelivery(payload, [fresh, old], now);
  assert.ok(await verifyWebhook(plain.body, serviceOnly(plain), fresh, { now }));
});

Deno.test("hmacSha256 equals node's createHmac for short, block-sized, long and non-ASCII keys and messages", async () => {
  const { createHmac } = await import("node:crypto");
  const keys: (string | Uint8Array)[] = [
    "",
    "k",
    "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    "x".repeat(64),
    "y".repeat(65),
    "ключ🔑".repeat(20),
    crypto.getRandomValues(new Uint8Array(32)),
    crypto.getRandomValues(new Uint8Array(64)),
    crypto.getRandomValues(new Uint8Array(200)),
  ];
  const messages = ["", "a", '{"id":"evt_1"}', "é€😀".repeat(300), "z".repeat(10_000)];
  for (const key of keys) {
    for (const m of messages) {
      for (const enc of ["hex", "base64"] as const) {
        // Twice: the kept states must not change between messages.
        for (let i = 0; i < 2; i++) {
          assert.equal(hmacSha256(key, m, enc), createHmac("sha256", key).update(m).digest(enc));
        }
      }
    }
  }
});
