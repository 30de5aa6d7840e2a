/**
 * POST floor: a bare Deno.serve that reads a JSON body and does one kv.atomic() commit of a new
 * record (~600 bytes, shaped like a stored timer, with an insert-only check), answering 201.
 */
import { floorRecord } from "./floor_record.ts";

const kv = await Deno.openKv(Deno.env.get("KV_PATH")!);
Deno.serve({
  port: Number(Deno.env.get("PORT") ?? 0),
  onListen: ({ hostname, port }) =>
    // deno-lint-ignore no-console
    console.log(JSON.stringify({ msg: "listening", hostname, port, floor: "post" })),
}, async (req) => {
  const input = await req.json();
  const r = floorRecord(input.title ?? null);
  const res = await kv.atomic().check({ key: ["timer", r.id], versionstamp: null }).set(["timer", r.id], r).commit();
  if (!res.ok) return Response.json({ error: "conflict" }, { status: 409 });
  return Response.json(r, { status: 201 });
});
