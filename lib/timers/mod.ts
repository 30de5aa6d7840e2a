/** Timers: the pure model and state machine, request validation, and the service that applies actions. */
export * from "./model.ts";
export * from "./service.ts";
export * from "./validation.ts";
export * from "./changes.ts";
