/**
 * Account pre-hijacking: anyone may sign up with an email that is not theirs and, before its
 * owner ever looks, add passkeys, create API keys, add webhook endpoints (a lasting feed of the
 * account's events) and reveal the webhook secret. So when a
 * mailbox is proven for the first time (a confirmation link or a reset link of an account never
 * confirmed), everything that gives a way in and was made before that proof is taken away: it
 * may all be a stranger's. The owner makes their own again.
 */
import type { Store } from "../kv/store.ts";
import type { User } from "../kv/users.ts";
import { ApiError } from "../errors.ts";
import { replaceSeenSecrets } from "./accounts.ts";
import type { Principal } from "./auth.ts";

/**
 * Deletes the user's passkeys and sessions, every key and webhook endpoint of the account, and
 * replaces a webhook secret anyone has seen. Passkeys go first, as they could start a new session,
 * then the sessions, so that nobody can make a key once the keys are deleted, then the keys, so
 * that nobody can add an endpoint once the endpoints are deleted (an endpoint added by a request
 * that passed its check before is deleted by that request: see `undoIfLoggedOut`). Every step can run
 * twice: the caller marks the email verified only after this, so a proof cut short (a crash)
 * leaves the account unconfirmed and the next proof does all of it again.
 */
export async function dropAccessBeforeProof(store: Store, user: User, now: number): Promise<void> {
  for (const p of await store.users.listPasskeys(user.id)) await store.users.deletePasskey(user.id, p.id);
  await store.users.deleteSessions(user.id);
  // Deleted, not revoked: revoked keys stay listed and count towards MAX_KEYS, which a stranger
  // could have filled before the owner came. A key added moves the account to a new version: one
  // added while they were being deleted (its request began before the sessions ended) is deleted too.
  for (let seen = await store.accounts.version(user.account_id);;) {
    await store.accounts.deleteKeys(user.account_id);
    const after = await store.accounts.version(user.account_id);
    if (after.versionstamp === seen.versionstamp) break;
    seen = after;
  }
  await store.endpoints.deleteAll(user.account_id);
  await replaceSeenSecrets(store, user.account_id, now);
}

/**
 * Runs `add` (a change that lasts: a webhook endpoint), then checks with `live` that the credential
 * the request came with still exists. A first proof ends the sessions and deletes the keys before
 * it deletes the endpoints, so what a request that passed its check before made after them is seen
 * here: `undo` takes it away and `refusal` (a 401) is thrown.
 */
export async function undoIfLoggedOut<T>(
  live: () => Promise<boolean>,
  add: () => Promise<T>,
  undo: (made: T) => Promise<unknown>,
  refusal = () => new ApiError(401, "the session ended while this was being done; sign in again"),
): Promise<T> {
  const made = await add();
  if (await live()) return made;
  await undo(made).catch(() => {}); // already gone (the proof deleted it): nothing left to undo
  throw refusal();
}

/** Whether the API key a request came with (its index entry as read) is still there; other callers: true. */
export async function keyStillThere(kv: Deno.Kv, p: Principal): Promise<boolean> {
  if (p.kind !== "account" || !p.guard) return true;
  return (await kv.get(p.guard.key)).versionstamp === p.guard.versionstamp;
}
