import assert from "node:assert/strict";
import { ApiError } from "../errors.ts";
import { accountsWorld, T0 } from "../../tests/helpers.ts";
import { ProcessBudget } from "./process_budget.ts";

Deno.test("a process budget gives the hour's worth at once, then its rate", () => {
  let t = 0;
  const budget = new ProcessBudget(4, () => t);
  for (let i = 0; i < 4; i++) assert.equal(budget.take(), 0);
  assert.equal(budget.take(), 900, "one back in a quarter of an hour");
  t += 900_000;
  assert.equal(budget.take(), 0);
  assert.ok(budget.take() > 0);
});

Deno.test("sign-ups past SIGNUP_PER_HOUR from any addresses answer 503; mails past MAILS_PER_HOUR are not sent", async () => {
  const w = await accountsWorld({ signupPerHour: 2, mailsPerHour: 1 });
  try {
    const users = w.app.auth.users;
    const pw = "correct horse battery staple";
    await users.signUp("one@example.com", pw, "203.0.113.1");
    await users.signUp("two@example.com", pw, "198.51.100.2");
    await assert.rejects(
      users.signUp("three@example.com", pw, "192.0.2.3"),
      (e) => e instanceof ApiError && e.status === 503 && Number(e.headers["Retry-After"]) > 0,
    );
    assert.equal(await w.store.users.byEmail("three@example.com"), null);
    // One verification mail went out; the second sign-up's was held back (the sign-up stands).
    assert.equal(w.logs.filter((l) => String(l.link ?? "").includes("/verify?token=")).length, 1);
    assert.ok(await w.store.users.byEmail("two@example.com"));
  } finally {
    await w.close();
  }
});

Deno.test("a reset request answers before its mail is sent: a slow mail server tells nobody who has an account", async () => {
  const { Store } = await import("../kv/store.ts");
  const { testConfig } = await import("../../config.ts");
  const { Users } = await import("./users.ts");
  const { createBareAccount } = await import("./accounts.ts");
  const kv = await Deno.openKv(":memory:");
  const store = new Store(kv);
  const release = Promise.withResolvers<void>();
  const sent: string[] = [];
  const delivered = Promise.withResolvers<void>();
  const mailer = {
    kind: "smtp" as const,
    send: async (m: { to: string }) => {
      await release.promise;
      sent.push(m.to);
      delivered.resolve();
    },
  };
  const users = new Users({ store, config: testConfig(), now: () => T0, mailer }); // a pinned day: budgets count by windows
  try {
    const { account } = await createBareAccount(store, { plan: "pro", name: "x" });
    await users.setLogin(account.id, "has@example.com", "correct horse battery staple");
    await users.requestReset("has@example.com", "203.0.113.1"); // resolves with the mail still on its way
    assert.deepEqual(sent, []);
    release.resolve();
    await delivered.promise;
    assert.deepEqual(sent, ["has@example.com"]);
  } finally {
    release.resolve();
    kv.close();
  }
});
