/**
 * Webhooks and scheduling: the delivery model, signing, destinations, one POST (deliver.ts); the
 * scheduler's wake-ups (scheduler.ts, due_heap.ts, lease.ts) and the steps they run at a due
 * instant (steps.ts); the sender's admission and attempts (sender.ts, pool.ts) and the recorder of
 * their outcomes (recorder.ts, log_trim.ts).
 */
export * from "./signing.ts";
export * from "./destinations.ts";
export * from "./deliver.ts";
export * from "./scheduler.ts";
export * from "./steps.ts";
export * from "./pool.ts";
export * from "./manual.ts";
export * from "./delivery_model.ts";
export * from "./sender.ts";
export * from "./recorder.ts";
export * from "./due_heap.ts";
export * from "./endpoints.ts";
