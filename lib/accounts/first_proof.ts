/**
 * Account pre-hijacking: anyone may sign up with an email that is not theirs and, before its
 * owner ever looks, add passkeys, create API keys and reveal the webhook secret. So when a
 * mailbox is proven for the first time (a confirmation link or a reset link of an account never
 * confirmed), everything that gives a way in and was made before that proof is taken away: it
 * may all be a stranger's. The owner makes their own again.
 */
import type { Store } from "../kv/store.ts";
import type { User } from "../kv/users.ts";
import { replaceSeenSecrets } from "./accounts.ts";

/**
 * Deletes the user's passkeys and sessions and every key of the account, and replaces
 * a webhook secret anyone has seen. Passkeys go first, as they could start a new session, then
 * the sessions, so that nobody can make a key once the keys are deleted. Every step can run
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
  await replaceSeenSecrets(store, user.account_id, now);
}
