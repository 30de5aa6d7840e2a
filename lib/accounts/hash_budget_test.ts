import assert from "node:assert/strict";
import { ApiError } from "../errors.ts";
import { HashBudget, MAX_HASHING } from "./hash_budget.ts";

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
