/**
 * Rundowns: ordered timers on one stage URL. The pure model and view (model.ts), what actions and
 * an item's finish do (actions.ts), the finish committed with its advance (follow.ts), and the
 * service behind the API (service.ts) with its refusals (refusals.ts).
 */
export * from "./model.ts";
export * from "./actions.ts";
export * from "./follow.ts";
export * from "./service.ts";
