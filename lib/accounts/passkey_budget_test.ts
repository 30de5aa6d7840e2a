import assert from "node:assert/strict";
import { testConfig } from "../../config.ts";
import { ApiError } from "../errors.ts";
import { Store } from "../kv/store.ts";
import { LOGIN_CHALLENGES_PER_SECOND, Passkeys } from "./passkeys.ts";

Deno.test("anonymous passkey challenges have a process-wide budget, whatever addresses ask", async () => {
  const kv = await Deno.openKv(":memory:");
  let t = Date.parse("2026-11-22T12:00:00Z");
  const passkeys = new Passkeys({ store: new Store(kv), config: testConfig(), now: () => t });
  try {
    const burst = LOGIN_CHALLENGES_PER_SECOND * 60;
    for (let i = 0; i < burst; i++) await passkeys.loginOptions();
    await assert.rejects(
      passkeys.loginOptions(),
      (e) => e instanceof ApiError && e.status === 503 && e.headers["Retry-After"] === "1",
    );
    let stored = 0;
    for await (const _ of kv.list({ prefix: ["webauthn_challenge"] })) stored++;
    assert.equal(stored, burst, "a refused request stores nothing");
    t += 1000; // a second later: that second's worth again
    for (let i = 0; i < LOGIN_CHALLENGES_PER_SECOND; i++) await passkeys.loginOptions();
    await assert.rejects(passkeys.loginOptions(), (e) => e instanceof ApiError && e.status === 503);
  } finally {
    kv.close();
  }
});
