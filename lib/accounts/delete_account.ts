/** Deleting an account with everything in it: keys, timers, rundowns, logins, endpoints, logs. */
import { deleteRequests } from "../kv/request_log.ts";
import type { Store } from "../kv/store.ts";
import type { User } from "../kv/users.ts";
import type { TimerService } from "../timers/service.ts";

/**
 * Deletes the account and everything in it. Its keys go first, then `keysGone` (the caller
 * forgets cached keys), then the timers, the users and the account: a request still holding a
 * key cannot add a timer after they were listed, and a deletion cut short (a crash) leaves an
 * account its user can sign in to and delete again. (A creation checks in its commit that its key
 * still exists, so another process's key cache adds none either; the sender deletes any timer
 * whose account is gone at its first webhook, as a last net.)
 */
export async function deleteAccount(
  store: Store,
  user: User,
  timers: TimerService,
  keysGone: () => void = () => {},
): Promise<void> {
  const account = await store.accounts.get(user.account_id);
  await store.accounts.deleteKeys(user.account_id);
  keysGone();
  if (account) {
    for (const id of await store.accounts.timerIds(account.id)) {
      // An expired timer answers 404 here; the expiry sweep purges it.
      // Every timer goes, a running show's live item too (its rundown goes next).
      await timers.delete({ kind: "account", account }, id, { evenLiveItem: true }).catch(() => {});
    }
  }
  await deleteRundowns(store, user.account_id, (id) => timers.link?.dropped(id));
  for (const u of await store.users.ofAccount(user.account_id)) await store.users.delete(u);
  await store.endpoints.deleteAll(user.account_id);
  await deleteRequests(store.kv, user.account_id);
  await store.accounts.delete(user.account_id);
}

/** The account's rundowns with their delivery logs (their timers went with the account's timers). */
async function deleteRundowns(store: Store, acct: string, dropped: (id: string) => void): Promise<void> {
  // A rundown changed while being deleted is read and deleted again; a bounded number of passes.
  for (let pass = 0; pass < 10; pass++) {
    const { rundowns } = await store.rundowns.list(acct, { limit: 100 });
    if (!rundowns.length) return;
    for (const r of rundowns) {
      const entry = await store.rundowns.get(r.id);
      if (!entry) continue;
      dropped(r.id); // its deliveries queued in this process go unsent
      await store.rundowns.delete(entry);
    }
  }
}
