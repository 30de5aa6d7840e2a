/**
 * Timer Service SDK: a typed client and a webhook verifier.
 *
 * ```ts
 * import { createClient, verifyWebhook } from "timer-service-sdk";
 * const api = createClient({ baseUrl: "https://timers.example.com", apiKey: process.env.TIMER_API_KEY });
 * const { data, error } = await api.POST("/timers", { body: { type: "countdown", duration: 300 } });
 * ```
 */
export { createClient } from "./client.js";
export { verifyWebhook } from "./webhooks.js";
