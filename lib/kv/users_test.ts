import assert from "node:assert/strict";
import { type Passkey, type Session, UserStore } from "./users.ts";

const passkey = (id: string): Passkey => ({
  id,
  user_id: "usr_1",
  name: "Laptop",
  public_key: "AAAA",
  counter: 0,
  transports: [],
  created_at: 0,
  last_used_at: null,
});

Deno.test("a passkey is added while its session lasts, even if the session was touched meanwhile", async () => {
  const kv = await Deno.openKv(":memory:");
  const users = new UserStore(kv);
  const session: Session = {
    hash: "s1",
    user_id: "usr_1",
    account_id: "acct_1",
    csrf: "c",
    created_at: 0,
    last_seen_at: 0,
  };
  await users.putSession(session, 60_000);
  // The session's last-seen touch lands between the read and the commit of the first try.
  const atomic = kv.atomic.bind(kv);
  let touched = false;
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = async () => {
      if (!touched) {
        touched = true;
        await users.putSession({ ...session, last_seen_at: 1 }, 60_000);
      }
      return await commit();
    };
    return op;
  };
  assert.equal(await users.addPasskey(passkey("cred-1"), "s1"), true);
  assert.ok(touched);
  assert.ok(await users.getPasskey("cred-1"));
  // Already registered, or the session ended: refused.
  assert.equal(await users.addPasskey(passkey("cred-1"), "s1"), false);
  await users.deleteSession(session);
  assert.equal(await users.addPasskey(passkey("cred-2"), "s1"), false);
  assert.equal(await users.getPasskey("cred-2"), null);
  kv.close();
});

Deno.test("sign-ins with one passkey: two at once both land; a counter that did not advance is refused", async () => {
  const kv = await Deno.openKv(":memory:");
  const users = new UserStore(kv);
  assert.equal(await users.addPasskey({ ...passkey("pk1"), counter: 4 }), true);
  // Another sign-in lands between this one's read and its commit: the commit fails its check
  // and is retried, landing when its counter is still ahead.
  const meanwhile = (counter: number, at: number) => {
    const atomic = kv.atomic.bind(kv);
    kv.atomic = () => {
      const op = atomic();
      const commit = op.commit.bind(op);
      op.commit = async () => {
        kv.atomic = atomic; // once
        assert.equal(await users.recordPasskeyUse("pk1", counter, at), "ok");
        return await commit();
      };
      return op;
    };
  };
  meanwhile(5, 10);
  assert.equal(await users.recordPasskeyUse("pk1", 6, 20), "ok", "both verified against 4: both land");
  const used = (await users.getPasskey("pk1"))!;
  assert.deepEqual([used.counter, used.last_used_at], [6, 20]);
  // The same counter landed meanwhile (one answer used twice: replayed, or a cloned authenticator).
  meanwhile(7, 30);
  assert.equal(await users.recordPasskeyUse("pk1", 7, 31), "replayed");
  assert.equal(await users.recordPasskeyUse("pk1", 3, 40), "replayed");
  assert.equal((await users.getPasskey("pk1"))!.counter, 7);
  // Authenticators that keep no counter (synced passkeys) always report 0.
  assert.equal(await users.addPasskey(passkey("pk0")), true);
  assert.deepEqual(
    await Promise.all([users.recordPasskeyUse("pk0", 0, 10), users.recordPasskeyUse("pk0", 0, 11)]),
    ["ok", "ok"],
  );
  // Removed meanwhile: nothing is written back.
  await users.deletePasskey("usr_1", "pk1");
  assert.equal(await users.recordPasskeyUse("pk1", 9, 50), "gone");
  assert.equal(await users.getPasskey("pk1"), null);
  kv.close();
});
