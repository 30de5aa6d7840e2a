import assert from "node:assert/strict";
import { maxUnrecorded } from "./recorder.ts";

Deno.test("answers awaiting their record: 32 on a local file, 4× over KV Connect's 32 commits in flight", () => {
  assert.equal(maxUnrecorded(2), 32);
  assert.equal(maxUnrecorded(undefined), 32);
  assert.equal(maxUnrecorded(32), 128);
});
