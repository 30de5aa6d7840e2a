/** Floor: a bare Deno.serve answering a small JSON body, no KV, no framework. */
const port = Number(Deno.env.get("PORT") ?? 0);
Deno.serve({
  port,
  onListen: ({ hostname, port }) =>
    // deno-lint-ignore no-console
    console.log(JSON.stringify({ msg: "listening", hostname, port, floor: "hello" })),
}, () => Response.json({ hello: "world" }));
