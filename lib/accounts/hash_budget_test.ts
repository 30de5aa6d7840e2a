import assert from "node:assert/strict";
import { ApiError } from "../errors.ts";
import { HashBudget, JUDGED_HASH_COST, MAX_HASHING } from "./hash_budget.ts";

const refusal = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 503;

Deno.test("the budget lets through a second's worth at once, then its rate; a refusal runs nothing", async () => {
  let t = 0;
  const budget = new HashBudget(3, () => t);
  for (let i = 0; i < 3; i++) assert.equal(await budget.run(() => Promise.resolve(i)), i);
  let ran = false;
  await assert.rejects(
    budget.run(() => Promise.resolve(ran = true)),
    (e) => refusal(e) && e.headers["Retry-After"] === "1",
  );
  assert.equal(ran, false);
  t += 340; // one token back after a third of a second
  assert.equal(await budget.run(() => Promise.resolve("ok")), "ok");
  await assert.rejects(budget.run(() => Promise.resolve()), refusal);
  t += 60_000; // idle time refills to the burst, no further
  for (let i = 0; i < 3; i++) await budget.run(() => Promise.resolve());
  await assert.rejects(budget.run(() => Promise.resolve()), refusal);
});

Deno.test("at most a few hashes run at once, whatever the rate allows", async () => {
  const budget = new HashBudget(1000, () => 0);
  const { promise: hold, resolve } = Promise.withResolvers<void>();
  const running = Array.from({ length: MAX_HASHING }, () => budget.run(() => hold));
  await assert.rejects(budget.run(() => Promise.resolve()), refusal);
  resolve();
  await Promise.all(running);
  await budget.run(() => Promise.resolve());
});

Deno.test("one client gets a quarter of the budget: its own sign-ins again and again leave the others theirs", async () => {
  let t = 0;
  const budget = new HashBudget(8, () => t);
  for (let i = 0; i < 2; i++) await budget.run(() => Promise.resolve(), { client: "203.0.113.7" });
  await assert.rejects(
    budget.run(() => Promise.resolve(), { client: "203.0.113.7" }),
    (e) => e instanceof ApiError && e.status === 429 && e.headers["Retry-After"] === "1",
  );
  // Everyone else is still served from the rest.
  for (let i = 0; i < 6; i++) await budget.run(() => Promise.resolve(), { client: `198.51.100.${i}` });
  t += 500; // half a second: one more for that client
  await budget.run(() => Promise.resolve(), { client: "203.0.113.7" });
  await assert.rejects(
    budget.run(() => Promise.resolve(), { client: "203.0.113.7" }),
    (e) => e instanceof ApiError && e.status === 429,
  );
});

Deno.test("sign-in: one address signing in again and again gets 429 from its share; another address is still heard", async () => {
  const { accountsWorld } = await import("../../tests/helpers.ts");
  const w = await accountsWorld({ passwordHashesPerSecond: 8 });
  try {
    const users = w.app.auth.users;
    const status = (email: string, ip: string) =>
      users.signIn(email, "correct horse battery staple", ip).then(() => 200, (e: ApiError) => e.status);
    // Unknown emails: each still costs a hash (and is not the email throttle's business).
    assert.deepEqual([await status("a@example.com", "203.0.113.7"), await status("b@example.com", "203.0.113.7")], [
      401,
      401,
    ]);
    assert.equal(await status("c@example.com", "203.0.113.7"), 429);
    assert.equal(await status("d@example.com", "198.51.100.9"), 401, "another client is not refused");
  } finally {
    await w.close();
  }
});

Deno.test("judging a new password costs several hashes, clamped to what the budget holds", async () => {
  let t = 0;
  const budget = new HashBudget(10, () => t);
  await budget.run(() => Promise.resolve(), { cost: JUDGED_HASH_COST });
  await budget.run(() => Promise.resolve(), { cost: JUDGED_HASH_COST });
  await assert.rejects(budget.run(() => Promise.resolve()), refusal, "two judged passwords spent the second");
  const small = new HashBudget(2, () => t);
  await small.run(() => Promise.resolve(), { cost: JUDGED_HASH_COST, client: "203.0.113.7" }); // still possible
  await assert.rejects(small.run(() => Promise.resolve()), refusal);
  t += 1000;
  await small.run(() => Promise.resolve());
});
