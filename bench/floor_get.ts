/**
 * GET floor: a bare Deno.serve that does one kv.get on a KV file per request and returns the
 * record as JSON. Records are seeded at start, shaped and sized like a stored timer (~600 bytes).
 * GET /t/<id> reads ["timer", <id>]; GET /ids lists the seeded ids.
 */
import { floorRecord } from "./floor_record.ts";

const kv = await Deno.openKv(Deno.env.get("KV_PATH")!);
const count = Number(Deno.env.get("RECORDS") ?? 100);
const ids: string[] = [];
for (let i = 0; i < count; i++) {
  const r = floorRecord();
  await kv.set(["timer", r.id], r);
  ids.push(r.id);
}
Deno.serve({
  port: Number(Deno.env.get("PORT") ?? 0),
  onListen: ({ hostname, port }) =>
    // deno-lint-ignore no-console
    console.log(JSON.stringify({ msg: "listening", hostname, port, floor: "get" })),
}, async (req) => {
  const path = new URL(req.url).pathname;
  if (path === "/ids") return Response.json(ids);
  const id = path.slice(path.lastIndexOf("/") + 1);
  const e = await kv.get(["timer", id]);
  if (!e.value) return Response.json({ error: "not found" }, { status: 404 });
  return Response.json(e.value);
});
