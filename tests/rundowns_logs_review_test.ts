/** A rundown's webhook deliveries in the account's log: filtered by event, redelivered, dropped with its URL. */
import assert from "node:assert/strict";
import { advance, clocked, receiver } from "./helpers.ts";

type S = Awaited<ReturnType<typeof clocked>>;
interface Delivery {
  id: string;
  event: string;
  state: string;
  attempts: { status: number | null; error: string | null }[];
  payload: { id: string; rundown_id?: string };
}

const talk = (title: string, duration: number) => ({ type: "countdown", title, duration });

/** Reads the account-wide log until `ok` holds for it (deliveries are recorded after they are sent). */
async function logUntil(s: S, query: string, ok: (ds: Delivery[]) => boolean): Promise<Delivery[]> {
  for (let i = 0; i < 200; i++) {
    const r = await s.call("GET", `/api/v1/deliveries${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (ok(r.body.deliveries)) return r.body.deliveries;
    await s.app.scheduler.settled();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the log never matched for ${query}`);
}

Deno.test("the account's delivery log filters rundown events, in the API and the document", async () => {
  const s = await clocked();
  const rx = receiver();
  try {
    const r = await s.call("POST", "/api/v1/rundowns", {
      body: { items: [talk("One", 60), talk("Two", 60)], webhook_url: rx.url },
    });
    const id = r.body.rundown_id;
    await s.call("POST", `/api/v1/rundowns/${id}/actions/start`);
    await s.call("POST", `/api/v1/rundowns/${id}/actions/next`);
    await advance(s, 0);
    await rx.waitFor(2);
    const started = await logUntil(s, "?event=rundown.started", (ds) => ds[0]?.state === "succeeded");
    assert.deepEqual(started.map((d) => d.payload.rundown_id), [id]);
    const advanced = await logUntil(s, `?event=rundown.advanced&timer_id=${id}`, (ds) => ds.length === 1);
    assert.equal(advanced[0].event, "rundown.advanced");
    const doc = (await s.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const param = doc.paths["/deliveries"].get.parameters.find((p: { name: string }) => p.name === "event");
    assert.ok(param.schema.enum.includes("rundown.completed"), JSON.stringify(param.schema));
    assert.ok(doc.components.schemas.Delivery.properties.event.enum.includes("rundown.advanced"));
  } finally {
    await rx.close();
    await s.close();
  }
});
