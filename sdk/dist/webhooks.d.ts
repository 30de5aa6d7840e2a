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
import type { components } from "./schema.js";
/** Any webhook payload; narrow it on `event`. */
export type WebhookPayload = components["schemas"]["WebhookPayload"];
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;
export interface VerifyOptions {
    /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
    toleranceSeconds?: number;
    /** The current time (epoch milliseconds or a Date); default `Date.now()`. */
    now?: number | Date;
}
/**
 * Verifies a delivery. `rawBody` is the body exactly as received (read it as text before parsing).
 * `secrets` is the account's webhook secret, or a list of them while rotating. Returns the parsed
 * payload when a signature verifies and `webhook-timestamp` is within the tolerance, else null.
 */
export declare function verifyWebhook(rawBody: string, headers: WebhookHeaders, secrets: string | readonly string[], { toleranceSeconds, now }?: VerifyOptions): Promise<WebhookPayload | null>;
