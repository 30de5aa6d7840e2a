/**
 * What receivers and scripts may import from this project.
 *
 * ```ts
 * import { verifyWebhook } from "./mod.ts";
 * const payload = await verifyWebhook(rawBody, request.headers, Deno.env.get("WEBHOOK_SECRET")!);
 * if (!payload) return new Response("bad signature", { status: 401 });
 * ```
 */
export { signDelivery, verifyWebhook } from "./lib/webhooks/signing.ts";
export { isPrivateAddress } from "./lib/webhooks/destinations.ts";
export type { WebhookPayload } from "./lib/kv/store.ts";
