import assert from "node:assert/strict";
import { Store } from "../kv/store.ts";
import type { User } from "../kv/users.ts";
import { createAccount, createKey, listKeys } from "./accounts.ts";
import { dropAccessBeforeProof } from "./first_proof.ts";

Deno.test("a key created while the first proof deletes the keys does not outlive it", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = new Store(kv, { useQueue: false });
  const { account } = await createAccount(store, { plan: "pro", name: "Pre-hijacked" });
  const user = { id: "usr_test", account_id: account.id } as User;
  // A stranger's key creation that passed its session check before the sessions ended, and
  // counts the keys while they are being deleted.
  const list = store.accounts.listKeys.bind(store.accounts);
  let raced = false;
  store.accounts.listKeys = async (id: string) => {
    const keys = await list(id);
    if (!raced) {
      raced = true;
      await createKey(store, account.id, "late");
    }
    return keys;
  };
  await dropAccessBeforeProof(store, user, Date.now());
  store.accounts.listKeys = list;
  assert.ok(raced);
  assert.deepEqual((await listKeys(store, account.id)).map((k) => k.name), []);
  kv.close();
});
