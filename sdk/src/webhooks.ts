/**
 * Webhook verification with WebCrypto only (Node 18+, Deno, Bun, browsers, edge runtimes).
 *
 * Deliveries carry two signatures:
 * - Standard Webhooks: `webhook-signature: v1,<base64>` (one per current secret, space-separated),
 *   HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${rawBody}` keyed by the base64-decoded bytes
 *   after `whsec_`. It covers the timestamp.
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 of the body without its trailing
 *   `,"signature":"sha256=<hex>"` member, keyed by the whole secret string (UTF-8).
 *
 * Both are checked against every secret given (rotation), and both need a `webhook-timestamp`
 * within the tolerance, so an old delivery replayed later is refused.
 */
import type { components } from "./schema.ts";

/** Any webhook payload; narrow it on `event`. */
export type WebhookPayload = components["schemas"]["WebhookPayload"];

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (epoch milliseconds or a Date); default `Date.now()`. */
  now?: number | Date;
}

const SIGNATURE_MEMBER = /,"signature":"(sha256=[0-9a-f]{64})"\}$/;
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function hmac(key: Uint8Array<ArrayBuffer>, message: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, encoder.encode(message)));
}

const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const toBase64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

/** Compares without stopping at the first difference. */
function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The key bytes of a Standard Webhooks secret (`whsec_` + base64); null when it is not base64. */
function standardKey(secret: string): Uint8Array<ArrayBuffer> | null {
  try {
    return base64ToBytes(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  } catch {
    return null;
  }
}

/**
 * Verifies a delivery. `rawBody` is the body exactly as received (read it as text before parsing).
 * `secrets` is the account's webhook secret, or a list of them while rotating. Returns the parsed
 * payload when a signature verifies and `webhook-timestamp` is within the tolerance, else null.
 */
export async function verifyWebhook(
  rawBody: string,
  headers: WebhookHeaders,
  secrets: string | readonly string[],
  { toleranceSeconds = 300, now }: VerifyOptions = {},
): Promise<WebhookPayload | null> {
  const list = (typeof secrets === "string" ? [secrets] : [...secrets]).filter((s) => s.length > 0);
  const ts = header(headers, "webhook-timestamp");
  if (list.length === 0 || !ts || !/^\d{1,12}$/.test(ts)) return null;
  const nowMs = now === undefined ? Date.now() : typeof now === "number" ? now : now.getTime();
  if (Math.abs(nowMs / 1000 - Number(ts)) > toleranceSeconds) return null;

  const id = header(headers, "webhook-id");
  const standard = header(headers, "webhook-signature");
  if (id && standard) {
    const offered = standard.split(" ").filter((s) => s.startsWith("v1,")).map((s) => s.slice(3));
    for (const secret of list) {
      const key = standardKey(secret);
      if (!key) continue;
      const expected = toBase64(await hmac(key, `${id}.${ts}.${rawBody}`));
      if (offered.some((sig) => safeEqual(sig, expected))) return parse(rawBody);
    }
  }

  const service = header(headers, "x-service-signature");
  const member = SIGNATURE_MEMBER.exec(rawBody);
  if (service && member && member[1] === service) {
    const content = `${rawBody.slice(0, member.index)}}`;
    for (const secret of list) {
      const expected = `sha256=${toHex(await hmac(encoder.encode(secret), content))}`;
      if (!safeEqual(service, expected)) continue;
      // `webhook-timestamp` is not covered by this signature (a replayer can write a fresh one):
      // the payload's own, signed `timestamp` must be within the tolerance too.
      const payload = parse(rawBody);
      const signedAt = Date.parse(String(payload?.timestamp));
      return Math.abs(nowMs - signedAt) <= toleranceSeconds * 1000 ? payload : null;
    }
  }
  return null;
}

function parse(rawBody: string): WebhookPayload | null {
  try {
    return JSON.parse(rawBody) as WebhookPayload;
  } catch {
    return null;
  }
}
