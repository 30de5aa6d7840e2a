/** Through the real app: private webhook destinations are refused when a timer is created or changed. */
import assert from "node:assert/strict";
import { PRIVATE_HOSTS } from "../lib/webhooks/testdata/private_hosts.ts";
import { setup } from "./helpers.ts";

Deno.test("POST and PATCH refuse a webhook_url whose host is a non-public IP literal or localhost (422)", async () => {
  const s = await setup({ config: { webhookAllowPrivate: false } });
  try {
    const ok = await s.create({ type: "countdown", duration: 60, webhook_url: "https://hooks.example.com/x" });
    for (const host of PRIVATE_HOSTS) {
      const url = `https://${host}:8443/hook`;
      const created = await s.call("POST", "/api/v1/timers", {
        body: { type: "countdown", duration: 60, webhook_url: url },
      });
      assert.equal(created.status, 422, `${host}: ${JSON.stringify(created.body)}`);
      assert.equal(created.body.error.field, "webhook_url");
      assert.match(created.body.error.message, /must point to a public address/);
      const patched = await s.call("PATCH", `/api/v1/timers/${ok.timer_id}`, { body: { webhook_url: url } });
      assert.equal(patched.status, 422, host);
      assert.equal(patched.body.error.field, "webhook_url");
    }
    const kept = await s.call("GET", `/api/v1/timers/${ok.timer_id}`);
    assert.equal(kept.body.webhook_url, "https://hooks.example.com/x");
    const pub = await s.call("PATCH", `/api/v1/timers/${ok.timer_id}`, { body: { webhook_url: "https://8.8.8.8/x" } });
    assert.equal(pub.status, 200);
  } finally {
    await s.close();
  }
});

Deno.test("with WEBHOOK_ALLOW_PRIVATE a loopback webhook_url is accepted", async () => {
  const s = await setup();
  try {
    const t = await s.create({ type: "countdown", duration: 60, webhook_url: "http://[::ffff:127.0.0.1]:9/x" });
    assert.equal(t.webhook_url, "http://[::ffff:7f00:1]:9/x");
  } finally {
    await s.close();
  }
});

Deno.test("a webhook_url on a port other than 80, 443 or 1024–65535 (less browsers' bad ports) is refused (422)", async () => {
  const s = await setup({ config: { webhookAllowPrivate: false } });
  try {
    for (const port of [22, 25, 1023, 5060, 6667, 10080]) {
      const r = await s.call("POST", "/api/v1/timers", {
        body: { type: "countdown", duration: 60, webhook_url: `https://hooks.example.com:${port}/x` },
      });
      assert.equal(r.status, 422, `${port}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.field, "webhook_url");
      assert.match(r.body.error.message, new RegExp(`got ${port}`));
    }
    for (const port of ["", ":80", ":443", ":1024", ":8443", ":65535"]) {
      const url = `${port === ":80" ? "http" : "https"}://hooks.example.com${port}/x`;
      const r = await s.call("POST", "/api/v1/timers", { body: { type: "countdown", duration: 60, webhook_url: url } });
      // Plain http is refused on its own rule here; only the port rule is under test.
      if (port !== ":80") assert.equal(r.status, 201, `${url}: ${JSON.stringify(r.body)}`);
      else assert.doesNotMatch(r.body.error.message, /port/);
    }
  } finally {
    await s.close();
  }
});
