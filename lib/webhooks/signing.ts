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
import { createHmac } from "node:crypto";
import type { WebhookPayload } from "../kv/store.ts";

/** HMAC-SHA256 encoded natively; synchronous: a burst of thousands of deliveries signs without async hops. */
function hmac(key: Uint8Array | string, message: string, encoding: "hex" | "base64"): string {
  return createHmac("sha256", key).update(message).digest(encoding);
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
  return `sha256=${hmac(secret, content, "hex")}`;
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
  const standard = all.map((s) => `v1,${hmac(standardKey(s), signed, "base64")}`);
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
