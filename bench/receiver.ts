/**
 * Webhook receiver for the bench, run as its own process so it does not compete with the
 * measuring process: records the arrival time (Date.now()) of every POST with the payload's
 * id / timer_id (or rundown_id) / event / timestamp (the event's instant), and answers 200 after DELAY_MS (0:
 * at once).
 *
 * Control: GET /__count?event=<e> → {"n": arrivals (of that event)}; GET /__dump → every arrival;
 * POST /__reset forgets them.
 */
const delay = Number(Deno.env.get("DELAY_MS") ?? 0);

interface Arrival {
  at: number;
  id: string;
  timer_id: string;
  event: string;
  /** The payload's `timestamp`: when the event happened (a clock event: its deadline). */
  timestamp: string;
  webhook_id: string | null;
  rundown_id?: string;
}

let arrivals: Arrival[] = [];
const byEvent = new Map<string, number>();

Deno.serve({
  port: Number(Deno.env.get("PORT") ?? 0),
  hostname: "127.0.0.1",
  onListen: ({ hostname, port }) =>
    // deno-lint-ignore no-console
    console.log(JSON.stringify({ msg: "listening", hostname, port, receiver: true, delay_ms: delay })),
}, async (req) => {
  const at = Date.now();
  const url = new URL(req.url);
  if (url.pathname === "/__count") {
    const e = url.searchParams.get("event");
    return Response.json({ n: e ? byEvent.get(e) ?? 0 : arrivals.length });
  }
  if (url.pathname === "/__dump") return Response.json(arrivals);
  if (url.pathname === "/__reset") {
    arrivals = [];
    byEvent.clear();
    return Response.json({ ok: true });
  }
  const text = await req.text();
  let p: Record<string, string> = {};
  try {
    p = JSON.parse(text);
  } catch { /* recorded with empty fields */ }
  arrivals.push({
    at,
    id: p.id ?? "",
    timer_id: p.timer_id ?? "",
    event: p.event ?? "",
    timestamp: p.timestamp ?? "",
    webhook_id: req.headers.get("webhook-id"),
    ...(p.rundown_id && { rundown_id: p.rundown_id }),
  });
  byEvent.set(p.event, (byEvent.get(p.event) ?? 0) + 1);
  if (delay > 0) await new Promise((r) => setTimeout(r, delay));
  return new Response("ok");
});
