/**
 * Timer Service SDK: a typed client and a webhook verifier.
 *
 * ```ts
 * import { createClient, verifyWebhook } from "timer-service-sdk";
 * const api = createClient({ baseUrl: "https://timers.example.com", apiKey: process.env.TIMER_API_KEY });
 * const { data, error } = await api.POST("/timers", { body: { type: "countdown", duration: 300 } });
 * ```
 */
export { type ClientOptions, createClient, type TimerClient } from "./client.js";
export { type VerifyOptions, verifyWebhook, type WebhookHeaders, type WebhookPayload } from "./webhooks.js";
export type { components, operations, paths, webhooks } from "./schema.js";
