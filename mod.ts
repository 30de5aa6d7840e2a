/**
 * What receivers and scripts may import from this project.
 *
 * ```ts
 * import { verifyWebhook } from "./mod.ts"; // the SDK's verifier (sdk/src/webhooks.ts), WebCrypto only
 * const payload = await verifyWebhook(rawBody, request.headers, [Deno.env.get("WEBHOOK_SECRET")!]);
 * if (!payload) return new Response("bad signature", { status: 401 });
 * ```
 *
 * From Node, Bun or a browser, install the SDK instead (`npm pack` in sdk/, or a path install).
 */
export { createClient, verifyWebhook } from "./sdk/src/index.ts";
export type { VerifyOptions, WebhookHeaders, WebhookPayload } from "./sdk/src/index.ts";
export { signDelivery } from "./lib/webhooks/signing.ts";
export { isPrivateAddress } from "./lib/webhooks/destinations.ts";
