import assert from "node:assert/strict";
import { acceptsGzip, gzip } from "./gzip.ts";

Deno.test("Accept-Encoding: gzip is taken unless its quality is 0", () => {
  for (const yes of ["gzip", "gzip, deflate, br", "br;q=1.0, GZIP;q=0.5", "*", "deflate, *;q=0.1"]) {
    assert.equal(acceptsGzip(yes), true, yes);
  }
  for (const no of [undefined, "", "br", "gzip;q=0", "gzip; q=0.0, br", "identity", "xgzip"]) {
    assert.equal(acceptsGzip(no), false, String(no));
  }
});

Deno.test("gzip round-trips", async () => {
  const data = new TextEncoder().encode("timer ".repeat(1000));
  const z = await gzip(data);
  assert.ok(z.byteLength < data.byteLength / 10);
  const back = await new Response(new Blob([z]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  assert.deepEqual(new Uint8Array(back), data);
});
