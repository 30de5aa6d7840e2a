/**
 * Webhook signing and verification (where deliveries may go: destinations.ts; one attempt: deliver.ts).
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

function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const SIGNATURE_MEMBER = /,"signature":"(sha256=[0-9a-f]{64})"\}$/;

/**
 * Verifies a delivery as a receiver would: by `X-Service-Signature` (cutting the trailing
 * `signature` member out of the raw body) or, failing that, by the Standard Webhooks headers
 * (timestamp within `toleranceSeconds`). `headers` may be a Headers or a plain object.
 * Returns the parsed payload, or null when no signature verifies.
 */
export function verifyWebhook(
  body: string,
  headers: Headers | Record<string, string | undefined>,
  secret: string,
  opts: { toleranceSeconds?: number; nowMs?: number } = {},
): Promise<Record<string, unknown> | null> {
  return Promise.resolve(verify(body, headers, secret, opts));
}

function verify(
  body: string,
  headers: Headers | Record<string, string | undefined>,
  secret: string,
  opts: { toleranceSeconds?: number; nowMs?: number },
): Record<string, unknown> | null {
  const get = (name: string) =>
    headers instanceof Headers
      ? headers.get(name) ?? undefined
      : Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const service = get("x-service-signature");
  const m = SIGNATURE_MEMBER.exec(body);
  if (service && m && m[1] === service) {
    const content = `${body.slice(0, m.index)}}`;
    if (safeEqual(serviceSignature(content, secret), service)) return JSON.parse(body);
  }
  const id = get("webhook-id");
  const ts = get("webhook-timestamp");
  const sigs = get("webhook-signature");
  if (id && ts && sigs && /^\d+$/.test(ts)) {
    const now = (opts.nowMs ?? Date.now()) / 1000;
    if (Math.abs(now - Number(ts)) > (opts.toleranceSeconds ?? 300)) return null;
    const expected = `v1,${hmac(standardKey(secret), `${id}.${ts}.${body}`, "base64")}`;
    if (sigs.split(" ").some((s) => safeEqual(s, expected))) return JSON.parse(body);
  }
  return null;
}
