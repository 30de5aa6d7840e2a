/** Accounts and access: accounts and their keys, resolving credentials, rate limits. */
export * from "./accounts.ts";
export * from "./auth.ts";
export * from "./rate_limit.ts";
