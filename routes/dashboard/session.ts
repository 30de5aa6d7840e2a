/**
 * What the dashboard takes from sign-in (lib/accounts): the session middleware, the CSRF guard
 * and the account's key functions. The pages reach sign-in only through this module.
 */
import type { MiddlewareHandler } from "hono";
import type { Config } from "../../config.ts";
import { type SessionEnv, Sessions } from "../../lib/accounts/sessions.ts";
import type { Store } from "../../lib/kv/store.ts";

export { createKey, listKeys, revokeKey } from "../../lib/accounts/accounts.ts";
export { ABSOLUTE_MS, CSRF_FIELD, isFresh } from "../../lib/accounts/sessions.ts";

export type DashEnv = SessionEnv & {
  Variables: SessionEnv["Variables"] & {
    /** Whether the dashboard's own cookies (flash, language) are Secure: exactly when the session's is. */
    secureCookies: boolean;
  };
};

/**
 * What every dashboard route sits behind: whether cookies are Secure (as sign-in decides for the
 * session cookie), a live session, and CSRF on state changes.
 */
export function dashboardGuards(deps: { store: Store; config: Config; now: () => number }) {
  const sessions = new Sessions(deps);
  const cookies: MiddlewareHandler<DashEnv> = async (c, next) => {
    c.set("secureCookies", sessions.secure);
    await next();
  };
  return [cookies, sessions.requireSession(), sessions.csrfProtect()] as const;
}
