/**
 * Accounts and access: accounts and their named API keys, resolving credentials, rate limits,
 * usage against the plan; people who sign in (users, passwords, passkeys), their sessions and
 * CSRF protection, brute-force throttles, and the mailer for reset and verification links.
 *
 * Contract for the dashboard (functions take the Store first; secrets are returned only on creation):
 * - `listKeys(store, accountId)` → ApiKey[] {id, name, prefix, created_at, last_used_at, revoked_at}
 *   (never a secret); `last_used_at` is coarse (written at most once an hour per key).
 * - `createKey(store, accountId, name)` → { key: ApiKey, secret } — show `secret` once; 422 ApiError
 *   (field "name") for an empty or over-long name.
 * - `revokeKey(store, accountId, keyId)` → ApiKey; 404 ApiError when the key is not the account's.
 *   Servers stop accepting it within the KeyResolver's TTL (5 s); `app.keys.clear()` makes it at once
 *   in this process.
 * - `accountUsage(store, plans, accountId, now)` → { plan, limits, requests_this_minute,
 *   requests_today, timers_stored } (request counts lag by one rate-limit merge interval).
 *
 * Sessions: `createApp()` returns `auth` (an `Auth`, lib/accounts/service.ts). Mount pages behind
 *   `sub.use(auth.requireSession(), auth.csrfProtect())` on a `Hono<SessionEnv>`:
 * - `requireSession()` sets `c.var.session` = { user: User, account: Account, csrf: string,
 *   record: Session } or answers 303 → `/login?next=<path>` (401 JSON when Accept is JSON). Idle
 *   (7 days) and absolute (30 days) expiry are checked on every request.
 * - `csrfProtect()` refuses (403) any POST/PUT/PATCH/DELETE whose Origin is not SITE_URL's origin
 *   (or, without Origin, whose Sec-Fetch-Site is cross-site / same-site) or that lacks the
 *   session's token in the form field CSRF_FIELD ("_csrf") or the header CSRF_HEADER ("x-csrf-token").
 * - Sign out: a form POST to `/logout`; everywhere: POST `/logout/everywhere` (both with `_csrf`).
 * - Account parts (routes/auth/account.tsx): `AccountPanel` or `PasswordSection`,
 *   `PasskeysSection`, `SessionsSection`, `DeleteSection` with props { csrf, email, hasPassword,
 *   passkeys, back } — their forms post to /account/* and return to `back` (`?done=…`); /account
 *   shows them all on its own page.
 */
export * from "./accounts.ts";
export * from "./auth.ts";
export * from "./gate.ts";
export * from "./rate_limit.ts";
export * from "./usage.ts";
export * from "./sessions.ts";
export * from "./service.ts";
export type { Mail, Mailer } from "./mailer.ts";
export { WRONG_LOGIN } from "./users.ts";
