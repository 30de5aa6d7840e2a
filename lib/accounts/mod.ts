/**
 * Accounts and access: accounts and their named API keys, resolving credentials, rate limits,
 * usage against the plan.
 *
 * Contract for the dashboard (all take the Store first; secrets are returned only on creation):
 * - `listKeys(store, accountId)` → ApiKey[] {id, name, prefix, created_at, last_used_at, revoked_at}
 *   (no secret, no hash to show); `last_used_at` is coarse (written at most once an hour).
 * - `createKey(store, accountId, name)` → { key: ApiKey, secret } — show `secret` once; 422 ApiError
 *   (field "name") for an empty or over-long name.
 * - `revokeKey(store, accountId, keyId)` → ApiKey; 404 ApiError when the key is not the account's.
 *   Servers stop accepting it within the KeyResolver's TTL (5 s); `app.keys.clear()` makes it at once
 *   in this process.
 * - `accountUsage(store, plans, accountId, now)` → { plan, limits, requests_this_minute,
 *   requests_today, timers_stored } (request counts lag by one rate-limit merge interval).
 */
export * from "./accounts.ts";
export * from "./auth.ts";
export * from "./rate_limit.ts";
export * from "./usage.ts";
