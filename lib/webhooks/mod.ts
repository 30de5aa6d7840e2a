/** Webhooks and scheduling: signing, destinations, delivery attempts, the scheduler's wake-ups and its one step. */
export * from "./signing.ts";
export * from "./destinations.ts";
export * from "./deliver.ts";
export * from "./scheduler.ts";
export * from "./pool.ts";
export * from "./manual.ts";
export * from "./delivery_model.ts";
export * from "./sender.ts";
export * from "./due_heap.ts";
export * from "./endpoints.ts";
