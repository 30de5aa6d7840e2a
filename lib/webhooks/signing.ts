/**
 * Webhook signing (where deliveries may go: destinations.ts; one attempt: deliver.ts). Verifying is
 * the receiver's side: the one verifier is the SDK's `verifyWebhook` (sdk/src/webhooks.ts, mod.ts).
 *
 * Two signatures travel with every delivery:
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256, keyed by the whole secret string (UTF-8),
 *   over the compact JSON of the payload *without* `signature`; the body is that same JSON with
 *   `"signature":"sha256=<hex>"` appended as its last member.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): HMAC-SHA256,
 *   keyed by the base64-decoded bytes after `whsec_`, over `${id}.${timestamp}.${body}`.
 */
import { createHash, type Hash } from "node:crypto";
import type { WebhookPayload } from "../kv/store.ts";

/**
 * HMAC-SHA256 (RFC 2104) from SHA-256 states keyed once per secret: `createHmac` hashes the key
 * pads again for every message, which made signing a tenth of a burst's main-thread time
 * (measured: 14.5 µs per HMAC, 5.6 µs from the kept states). Checked against `createHmac` in
 * signing_test.ts. Synchronous: a burst of thousands of deliveries signs without async hops.
 */
class KeyedSha256 {
  #inner: Hash;
  #outer: Hash;
  constructor(key: Uint8Array) {
    const block = new Uint8Array(64);
    block.set(key.length > 64 ? createHash("sha256").update(key).digest() : key);
    this.#inner = createHash("sha256").update(block.map((b) => b ^ 0x36));
    this.#outer = createHash("sha256").update(block.map((b) => b ^ 0x5c));
  }
  digest(message: string, encoding: "hex" | "base64"): string {
    const inner = this.#inner.copy().update(message).digest();
    return this.#outer.copy().update(inner).digest(encoding);
  }
}

/** Keyed states: per secret string, and per key bytes object (standardKey hands out one per secret). */
const byString = new Map<string, KeyedSha256>();
const byBytes = new WeakMap<Uint8Array, KeyedSha256>();

/** HMAC-SHA256 of `message` keyed by `key` (a string is keyed by its UTF-8 bytes). */
export function hmacSha256(key: Uint8Array | string, message: string, encoding: "hex" | "base64"): string {
  let k = typeof key === "string" ? byString.get(key) : byBytes.get(key);
  if (!k) {
    if (typeof key === "string") {
      // Secrets are few; the cache is dropped whole if it ever grows large.
      if (byString.size > 1000) byString.clear();
      byString.set(key, k = new KeyedSha256(new TextEncoder().encode(key)));
    } else byBytes.set(key, k = new KeyedSha256(key));
  }
  return k.digest(message, encoding);
}

/** The key bytes of a `whsec_…` secret for Standard Webhooks (decoded once per secret). */
const standardKeys = new Map<string, Uint8Array>();
function standardKey(secret: string): Uint8Array {
  let key = standardKeys.get(secret);
  if (!key) {
    if (standardKeys.size > 1000) standardKeys.clear();
    key = Uint8Array.from(atob(secret.startsWith("whsec_") ? secret.slice(6) : secret), (c) => c.charCodeAt(0));
    standardKeys.set(secret, key);
  }
  return key;
}

/** `sha256=<hex>` of `content` keyed by the whole secret string (UTF-8). */
export function serviceSignature(content: string, secret: string): string {
  return `sha256=${hmacSha256(secret, content, "hex")}`;
}

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/** Which secret signs X-Service-Signature and which sign webhook-signature (one signature each). */
export interface SecretsForHeaders {
  header: string;
  standard: string[];
}

/**
 * Serialises and signs a payload. `secrets` says which secret signs which header (during a
 * rotation's grace period the header keeps the previous secret: accounts.ts `signingSecrets`);
 * a plain list, newest first, signs X-Service-Signature with the newest and webhook-signature
 * with each.
 */
export function signDelivery(
  payload: WebhookPayload,
  secrets: SecretsForHeaders | string[],
  nowMs: number,
): SignedRequest {
  const { header, standard: all } = Array.isArray(secrets) ? { header: secrets[0], standard: secrets } : secrets;
  const content = JSON.stringify(payload);
  const signature = serviceSignature(content, header);
  const body = `${content.slice(0, -1)},"signature":"${signature}"}`;
  const timestamp = String(Math.floor(nowMs / 1000));
  const signed = `${payload.id}.${timestamp}.${body}`;
  const standard = all.map((s) => `v1,${hmacSha256(standardKey(s), signed, "base64")}`);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": "TimerService-Webhooks/1",
      "x-service-signature": signature,
      "webhook-id": payload.id,
      "webhook-timestamp": timestamp,
      "webhook-signature": standard.join(" "),
    },
  };
}
