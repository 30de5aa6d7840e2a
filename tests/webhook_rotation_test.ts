/**
 * Webhook secret rotation as receivers see it: X-Service-Signature keeps the previous secret for
 * the grace period, webhook-signature carries every kept secret, and the newest takes over both
 * after 24 h or when the previous one is retired (API functions and `deno task keys retire-secret`).
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import {
  createBareAccount,
  retirePreviousSecret,
  revealSecret,
  rotateSecret,
  SECRET_GRACE_MS,
  secretRevealable,
  signingSecrets,
} from "../lib/accounts/accounts.ts";
import { ApiError } from "../lib/errors.ts";
import { Store } from "../lib/kv/store.ts";
import { verifyWebhook } from "../mod.ts";
import { receiver, setup } from "./helpers.ts";

/** What the README's receivers do for X-Service-Signature: cut the trailing member, HMAC with the whole secret. */
function serviceHeaderVerifies(body: string, header: string | null, secret: string): boolean {
  const m = /,"signature":"(sha256=[0-9a-f]{64})"\}$/.exec(body);
  if (!m || m[1] !== header) return false;
  const content = `${body.slice(0, m.index)}}`;
  return header === `sha256=${createHmac("sha256", secret).update(content).digest("hex")}`;
}

/** Whether the standardwebhooks library accepts the delivery with `secret` (timestamps near real time). */
function libraryVerifies(got: { body: string; headers: Headers }, secret: string): boolean {
  try {
    new Webhook(secret).verify(got.body, Object.fromEntries(got.headers));
    return true;
  } catch {
    return false;
  }
}

Deno.test("the header keeps its secret for 24 h after the last rotation; a second rotation never drops it", async () => {
  const s = await setup();
  try {
    const id = s.pro.account.id;
    const s0 = s.pro.webhookSecret;
    const t1 = s.clock.now();
    assert.deepEqual(signingSecrets(s.pro.account, t1), { header: s0, standard: [s0], graceEndsAt: null });
    const { webhookSecret: s1, account: a1 } = await rotateSecret(s.store, id, t1);
    assert.deepEqual(signingSecrets(a1, t1), { header: s0, standard: [s1, s0], graceEndsAt: t1 + SECRET_GRACE_MS });
    assert.equal(signingSecrets(a1, t1 + SECRET_GRACE_MS - 1).header, s0);
    assert.deepEqual(signingSecrets(a1, t1 + SECRET_GRACE_MS), { header: s1, standard: [s1], graceEndsAt: null });

    // A second rotation 12 h in: receivers verify the header with s0 at that moment, so s0 stays
    // the header for a full 24 h from then, and s1 (which some may have deployed) still signs.
    const t2 = t1 + 12 * 3600_000;
    const { webhookSecret: s2, account: a2 } = await rotateSecret(s.store, id, t2);
    assert.deepEqual(signingSecrets(a2, t2), { header: s0, standard: [s2, s1, s0], graceEndsAt: t2 + SECRET_GRACE_MS });
    assert.equal(signingSecrets(a2, t1 + SECRET_GRACE_MS + 1).header, s0, "not dropped at the first grace's end");
    assert.deepEqual(signingSecrets(a2, t2 + SECRET_GRACE_MS), { header: s2, standard: [s2], graceEndsAt: null });

    // A rotation after a grace period has ended starts from the secret then in force.
    const t3 = t2 + SECRET_GRACE_MS + 1;
    const { webhookSecret: s3, account: a3 } = await rotateSecret(s.store, id, t3);
    assert.deepEqual(signingSecrets(a3, t3).standard, [s3, s2]);
    assert.equal(signingSecrets(a3, t3).header, s2);

    // Retiring early: only the newest signs, both headers.
    const { account: a4, retired } = await retirePreviousSecret(s.store, id, t3 + 1);
    assert.equal(retired, 1);
    assert.deepEqual(signingSecrets(a4, t3 + 1), { header: s3, standard: [s3], graceEndsAt: null });
    assert.equal((await retirePreviousSecret(s.store, id, t3 + 2)).retired, 0, "retiring twice is harmless");

    // Many rotations within one grace period: at most four kept, never losing the newest or the header's.
    const many: string[] = [];
    for (let i = 0; i < 6; i++) many.push((await rotateSecret(s.store, id, t3 + 10 + i)).webhookSecret);
    const last = signingSecrets((await s.store.accounts.get(id))!, t3 + 20);
    assert.equal(last.header, s3);
    assert.equal(last.standard.length, 4);
    assert.deepEqual(last.standard.slice(0, 3), [many[5], many[4], many[3]]);
  } finally {
    await s.close();
  }
});

Deno.test("a secret nobody was shown is replaced at once by a rotation; once revealed, it gets the grace", async () => {
  const s = await setup();
  try {
    const t = s.clock.now();
    // Sign-up: the account's first secret is not shown on the site.
    const { account, webhookSecret: unseen } = await createBareAccount(s.store, {
      plan: "free",
      name: "a@b.test",
      now: t,
    });
    assert.ok(secretRevealable(account));
    const { webhookSecret: s1, account: a1 } = await rotateSecret(s.store, account.id, t);
    assert.deepEqual(
      signingSecrets(a1, t),
      { header: s1, standard: [s1], graceEndsAt: null },
      "the never-shown secret signs neither header after the rotation",
    );
    assert.ok(!a1.webhook_secrets.some((x) => x.secret === unseen));
    assert.ok(!secretRevealable(a1), "a rotated-in secret was shown to whoever rotated");
    await assert.rejects(() => revealSecret(s.store, account.id), (e: ApiError) => e.status === 409);

    // Revealed on the dashboard: someone may verify with it now, so a rotation keeps the full grace.
    const { account: b } = await createBareAccount(s.store, { plan: "free", name: "c@d.test", now: t });
    const [shown, again] = await Promise.allSettled([revealSecret(s.store, b.id), revealSecret(s.store, b.id)]);
    const won = [shown, again].filter((r) => r.status === "fulfilled");
    assert.equal(won.length, 1, "two simultaneous reveals: exactly one gets the secret");
    const secret = (won[0] as PromiseFulfilledResult<string>).value;
    assert.equal(secret, b.webhook_secrets[0].secret);
    await assert.rejects(() => revealSecret(s.store, b.id), /already shown once; rotate it/);
    const { webhookSecret: b1, account: b2 } = await rotateSecret(s.store, b.id, t);
    assert.deepEqual(signingSecrets(b2, t), {
      header: secret,
      standard: [b1, secret],
      graceEndsAt: t + SECRET_GRACE_MS,
    });

    // CLI accounts showed theirs on creation; records written before the flag count as shown.
    assert.ok(!secretRevealable(s.pro.account));
    await assert.rejects(() => revealSecret(s.store, s.pro.account.id), (e: ApiError) => e.status === 409);
    const legacy = (await s.store.accounts.update(s.other.account.id, (x) => ({
      ...x,
      webhook_secrets: x.webhook_secrets.map(({ secret, created_at }) => ({ secret, created_at })),
    })))!;
    assert.ok(!secretRevealable(legacy));
    const { webhookSecret: l1, account: l2 } = await rotateSecret(s.store, legacy.id, t);
    assert.deepEqual(signingSecrets(l2, t).standard, [l1, s.other.webhookSecret]);
    assert.equal(signingSecrets(l2, t).header, s.other.webhookSecret);
  } finally {
    await s.close();
  }
});

Deno.test("deliveries through a rotation: old receivers keep verifying, then the new secret takes over", async () => {
  const s = await setup();
  s.clock.t = Date.now(); // near real time, so the standardwebhooks library accepts the timestamps
  s.app.scheduler.start();
  const rx = receiver();
  try {
    const t = await s.create({ type: "countdown", duration: 60, webhook_url: rx.url });
    const send = async () => {
      const r = await s.call("POST", `/api/v1/timers/${t.timer_id}/webhook/test`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const got = rx.received.at(-1)!;
      return { ...got, service: got.headers.get("x-service-signature") };
    };
    const old = s.pro.webhookSecret;
    const before = await send();
    assert.ok(serviceHeaderVerifies(before.body, before.service, old));

    const { webhookSecret: fresh } = await rotateSecret(s.store, s.pro.account.id, s.clock.now());
    s.clock.advance(1100); // past the scheduler's one-second account cache
    const during = await send();
    assert.ok(serviceHeaderVerifies(during.body, during.service, old), "a receiver of the old secret keeps working");
    assert.ok(!serviceHeaderVerifies(during.body, during.service, fresh));
    assert.equal(during.headers.get("webhook-signature")!.split(" ").length, 2);
    assert.ok(libraryVerifies(during, fresh), "standardwebhooks verifies with the new secret");
    assert.ok(libraryVerifies(during, old), "and with the previous one");
    // A receiver verifying against a list of secrets accepts it, whichever it holds.
    const list = [fresh, old];
    assert.ok(list.some((secret) => serviceHeaderVerifies(during.body, during.service, secret)));

    await retirePreviousSecret(s.store, s.pro.account.id, s.clock.now());
    s.clock.advance(1100);
    const retired = await send();
    assert.ok(serviceHeaderVerifies(retired.body, retired.service, fresh), "after retiring, the new secret signs");
    assert.ok(!serviceHeaderVerifies(retired.body, retired.service, old));
    assert.equal(retired.headers.get("webhook-signature")!.split(" ").length, 1);
    assert.ok(libraryVerifies(retired, fresh));
    assert.ok(!libraryVerifies(retired, old));

    // Once more, and this time the grace period runs out (injected clock).
    const { webhookSecret: third } = await rotateSecret(s.store, s.pro.account.id, s.clock.now());
    s.clock.advance(SECRET_GRACE_MS);
    const after = await send();
    assert.ok(serviceHeaderVerifies(after.body, after.service, third), "after 24 h the newest signs the header");
    assert.ok(!serviceHeaderVerifies(after.body, after.service, fresh));
    assert.equal(after.headers.get("webhook-signature")!.split(" ").length, 1);
    // The timestamp is a day ahead of the real clock: verify the standard signature at the service's time.
    const standardOnly = {
      "webhook-id": after.headers.get("webhook-id")!,
      "webhook-timestamp": after.headers.get("webhook-timestamp")!,
      "webhook-signature": after.headers.get("webhook-signature")!,
    };
    assert.ok(await verifyWebhook(after.body, standardOnly, third, { now: s.clock.now() }));
    assert.equal(await verifyWebhook(after.body, standardOnly, fresh, { now: s.clock.now() }), null);
  } finally {
    await s.close();
    await rx.close();
  }
});

Deno.test("deno task keys retire-secret ends the grace period on the KV file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite3`;
  const keys = async (...args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/keys.ts", ...args],
      cwd: new URL("..", import.meta.url).pathname,
      env: { KV_PATH: path },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  };
  try {
    const created = JSON.parse((await keys("create", "--plan", "pro", "--name", "Rotating", "--json")).stdout);
    const rotated = await keys("rotate-secret", created.account_id, "--json");
    assert.equal(rotated.code, 0, rotated.stderr);
    const fresh = JSON.parse(rotated.stdout).webhook_secret;
    const read = async () => {
      const kv = await Deno.openKv(path);
      try {
        return signingSecrets((await new Store(kv).accounts.get(created.account_id))!, Date.now());
      } finally {
        kv.close();
      }
    };
    assert.deepEqual((await read()).standard, [fresh, created.webhook_secret]);
    assert.equal((await read()).header, created.webhook_secret);
    const retired = await keys("retire-secret", created.account_id);
    assert.equal(retired.code, 0, retired.stderr);
    assert.match(retired.stdout, /retired 1 previous webhook secret/);
    assert.ok(!retired.stdout.includes(fresh.slice(6)) && !retired.stdout.includes(created.webhook_secret.slice(6)));
    assert.deepEqual(await read(), { header: fresh, standard: [fresh], graceEndsAt: null });
    const again = await keys("retire-secret", created.account_id);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /nothing to retire/);
    const missing = await keys("retire-secret");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /retire-secret needs a key prefix or account id/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
