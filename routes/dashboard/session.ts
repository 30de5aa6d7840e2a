/**
 * What the dashboard takes from sign-in (lib/accounts): the session middleware, the CSRF guard
 * and the account's key functions. The pages reach sign-in only through this module.
 */
import type { Config } from "../../config.ts";
import { type SessionEnv, Sessions } from "../../lib/accounts/sessions.ts";
import type { Store } from "../../lib/kv/store.ts";

export { createKey, listKeys, revokeKey } from "../../lib/accounts/accounts.ts";
export { ABSOLUTE_MS, CSRF_FIELD } from "../../lib/accounts/sessions.ts";

export type DashEnv = SessionEnv;

/** The two guards every dashboard route sits behind: a live session, and CSRF on state changes. */
export function dashboardGuards(deps: { store: Store; config: Config; now: () => number }) {
  const sessions = new Sessions(deps);
  return [sessions.requireSession(), sessions.csrfProtect()] as const;
}
