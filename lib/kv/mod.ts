/** The store: opening Deno KV and every read and write of it (every key is spelled in keys.ts). It stores decisions, it makes none. */
export * from "./open.ts";
export * from "./store.ts";
export * from "./keys.ts";
export * from "./accounts.ts";
export * from "./users.ts";
export * from "./batch.ts";
export * from "./due.ts";
export * from "./timers.ts";
export * from "./deliveries.ts";
export * from "./endpoints.ts";
export * from "./shards.ts";
