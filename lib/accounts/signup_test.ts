import assert from "node:assert/strict";
import { accountsWorld } from "../../tests/helpers.ts";

Deno.test("a sign-up writes its account and its first user in one commit; a taken email writes no account", async () => {
  const w = await accountsWorld();
  try {
    // Every commit's set keys, by kind (the first part of the key).
    const commits: string[][] = [];
    const atomic = w.kv.atomic.bind(w.kv);
    w.kv.atomic = () => {
      const op = atomic();
      const kinds: string[] = [];
      const set = op.set.bind(op);
      op.set = (k, v, o) => (kinds.push(String(k[0])), set(k, v, o));
      const commit = op.commit.bind(op);
      op.commit = () => (commits.push(kinds), commit());
      return op;
    };
    const user = await w.app.auth.users.signUp("new@example.com", "correct horse battery staple", "203.0.113.7");
    const withAccount = commits.filter((c) => c.includes("account"));
    assert.equal(withAccount.length, 1);
    assert.ok(withAccount[0].includes("user") && withAccount[0].includes("user_email"), withAccount[0].join());
    assert.ok(await w.store.accounts.get(user.account_id));
    commits.length = 0;
    await assert.rejects(
      w.app.auth.users.signUp("NEW@example.com", "another horse battery staple", "203.0.113.8"),
      /an account with this email exists/,
    );
    assert.equal(commits.filter((c) => c.includes("account")).length, 0, "no account written, none to undo");
    w.kv.atomic = atomic;
    let accounts = 0;
    for await (const _ of w.kv.list({ prefix: ["account"] })) accounts++;
    assert.equal(accounts, 1);
  } finally {
    await w.close();
  }
});
