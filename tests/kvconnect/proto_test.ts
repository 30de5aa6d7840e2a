import assert from "node:assert/strict";
import { BYTES, countField, encode, fields, VARINT, varintField } from "./proto.ts";

Deno.test("fields reads back what encode wrote: varints (large ones too) and bytes", () => {
  const buf = encode([
    { no: 1, value: 2 },
    { no: 2, value: new Uint8Array([1, 2, 3]) },
    { no: 4, value: 300 },
    { no: 4, value: 2n ** 63n },
  ]);
  const f = fields(buf);
  assert.deepEqual(f.map((x) => [x.no, x.type]), [[1, VARINT], [2, BYTES], [4, VARINT], [4, VARINT]]);
  assert.deepEqual(f[1].value, new Uint8Array([1, 2, 3]));
  assert.equal(f[2].value, 300n);
  assert.equal(f[3].value, 2n ** 63n);
  assert.equal(varintField(buf, 1), 2);
  assert.equal(varintField(buf, 9), 0, "an absent field reads as proto3's default");
  assert.equal(countField(buf, 4), 2);
});

Deno.test("fields skips fixed-width fields and refuses truncated input", () => {
  // Field 3 fixed32 (tag 0x1d) then field 1 varint 7.
  assert.equal(varintField(new Uint8Array([0x1d, 1, 0, 0, 0, 0x08, 7]), 1), 7);
  assert.throws(() => fields(new Uint8Array([0x12, 5, 1])), RangeError);
  assert.throws(() => fields(new Uint8Array([0x08, 0x80])), RangeError);
});
