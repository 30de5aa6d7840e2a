/**
 * Webhook signing, verification and one HTTP attempt.
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

/**
 * Serialises and signs a payload. `secrets` are newest first: X-Service-Signature uses the
 * newest; webhook-signature carries one signature per secret.
 */
export function signDelivery(payload: WebhookPayload, secrets: string[], nowMs: number): SignedRequest {
  const content = JSON.stringify(payload);
  const signature = serviceSignature(content, secrets[0]);
  const body = `${content.slice(0, -1)},"signature":"${signature}"}`;
  const timestamp = String(Math.floor(nowMs / 1000));
  const signed = `${payload.id}.${timestamp}.${body}`;
  const standard = secrets.map((s) => `v1,${hmac(standardKey(s), signed, "base64")}`);
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

// ── sending ───────────────────────────────────────────────────────────────────────────────

export interface AttemptResult {
  status: number | null;
  error: string | null;
  duration_ms: number;
  ok: boolean;
}

/** Whether an IP address is loopback, private, link-local, multicast or otherwise not public. */
export function isPrivateAddress(ip: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
      (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
  }
  const v6 = ip.toLowerCase().replace(/^\[|\]$/g, "");
  if (v6 === "::" || v6 === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return isPrivateAddress(mapped[1]);
  return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(v6) || v6.startsWith("64:ff9b:") || v6.startsWith("2001:db8");
}

/** Resolves a host and refuses any non-public address (checked after DNS resolution). */
export async function checkDestination(url: URL): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "destination is loopback";
  let addresses: string[];
  if (/^[\d.]+$/.test(host) || host.includes(":")) addresses = [host];
  else {
    const results = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
    addresses = results.flatMap((r) => r.status === "fulfilled" ? r.value : []);
    if (addresses.length === 0) return `could not resolve ${host}`;
  }
  const bad = addresses.find(isPrivateAddress);
  return bad ? `destination ${host} resolves to a non-public address (${bad})` : null;
}

/** Reads at most `max` bytes of a response body and drops the rest: receivers' bodies are never kept. */
async function drain(res: Response, max = 64 * 1024): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let size = 0;
  try {
    while (size <= max) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** One POST: 2xx is success; redirects are not followed; no answer within `timeoutMs` fails. */
export async function postOnce(
  url: string,
  req: SignedRequest,
  opts: { timeoutMs: number; allowPrivate: boolean; fetch?: typeof fetch },
): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    if (!opts.allowPrivate) {
      const refused = await checkDestination(new URL(url));
      if (refused) return { status: null, error: refused, duration_ms: took(), ok: false };
    }
    const signal = AbortSignal.timeout(opts.timeoutMs);
    const res = await (opts.fetch ?? fetch)(url, {
      method: "POST",
      headers: req.headers,
      body: req.body,
      redirect: "manual",
      signal,
    });
    // The body is read (to keep the connection reusable) but not kept; the signal also ends a
    // body that trickles past the timeout, and the status received stands.
    const length = Number(res.headers.get("content-length") ?? NaN);
    await (length <= 64 * 1024 ? res.arrayBuffer() : drain(res)).catch(() => {});
    const ok = res.status >= 200 && res.status < 300;
    const error = ok
      ? null
      : res.status >= 300 && res.status < 400
      ? `redirect (${res.status}) not followed`
      : `HTTP ${res.status}`;
    return { status: res.status, error, duration_ms: took(), ok };
  } catch (e) {
    const err = e as Error;
    const error = err.name === "TimeoutError" || err.name === "AbortError"
      ? `no answer within ${opts.timeoutMs} ms`
      : `network error: ${err.message.slice(0, 200)}`;
    return { status: null, error, duration_ms: took(), ok: false };
  }
}
