/** Rundowns as an outside checker attacks them: stream limits, deleted items, logs, validation. */
import assert from "node:assert/strict";
import { setup } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;
const talk = (title: string, duration: number) => ({ type: "countdown", title, duration });

async function rundown(s: S, body: Record<string, unknown>) {
  const r = await s.call("POST", "/api/v1/rundowns", { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return {
    id: r.body.rundown_id as string,
    ids: r.body.items.map((i: { timer_id: string }) => i.timer_id) as string[],
  };
}

/** Opens the stage's stream; `close` cancels it. */
async function openStage(s: S, id: string, ip = "203.0.113.9") {
  const res = await s.app.app.request(`http://timers.test/live/r/${id}`, { headers: { "x-forwarded-for": ip } });
  return {
    res,
    close: async () => {
      await res.body?.cancel().catch(() => {});
    },
  };
}

Deno.test("the stage's stream allows the configured number of open streams per client IP, then 429", async () => {
  const s = await setup({ config: { liveStreamsPerIp: 2, trustProxyHops: 1 } });
  try {
    const { id } = await rundown(s, { items: [talk("One", 60)] });
    const [a, b, c] = [await openStage(s, id), await openStage(s, id), await openStage(s, id)];
    assert.deepEqual([a.res.status, b.res.status, c.res.status], [200, 200, 429]);
    const refused = await c.res.json();
    assert.match(refused.error.message, /at most 2 live streams/);
    assert.ok(c.res.headers.get("retry-after"));
    // Another address is not refused, and a closed stream frees its place.
    const other = await openStage(s, id, "198.51.100.4");
    assert.equal(other.res.status, 200);
    await a.close();
    const d = await openStage(s, id);
    assert.equal(d.res.status, 200, "a closed stream frees its place");
    await Promise.all([b.close(), d.close(), other.close()]);
  } finally {
    await s.close();
  }
});
