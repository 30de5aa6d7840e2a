/**
 * The little of protobuf's wire format the test KV Connect server reads and writes itself: the
 * top-level fields of a message (to see an AtomicWrite's enqueues, an AtomicWriteOutput's status).
 * The messages proper are decoded and encoded by denokv's own code in its native module.
 */

/** denokv's one database id, the nil UUID (clients send it back in `x-denokv-database-id`). */
export const DATABASE_ID = "00000000-0000-0000-0000-000000000000";

/** Protobuf wire types (https://protobuf.dev/programming-guides/encoding/). */
export const VARINT = 0, FIXED64 = 1, BYTES = 2, FIXED32 = 5;

/** One top-level field: its number, wire type, and its value (a number, or the bytes of a length-delimited field). */
export interface Field {
  no: number;
  type: number;
  value: bigint | Uint8Array;
}

function readVarint(buf: Uint8Array, at: number): [bigint, number] {
  let v = 0n, shift = 0n;
  for (;;) {
    if (at >= buf.length) throw new RangeError("protobuf: truncated varint");
    const b = buf[at++];
    v |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return [v, at];
    shift += 7n;
    if (shift > 63n) throw new RangeError("protobuf: varint longer than 10 bytes");
  }
}

/** The top-level fields of a message, in order; throws RangeError on malformed input. */
export function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const [tag, next] = readVarint(buf, at);
    at = next;
    const no = Number(tag >> 3n), type = Number(tag & 7n);
    if (no === 0) throw new RangeError("protobuf: field number 0");
    if (type === VARINT) {
      const [v, n] = readVarint(buf, at);
      out.push({ no, type, value: v });
      at = n;
    } else if (type === BYTES) {
      const [len, n] = readVarint(buf, at);
      const end = n + Number(len);
      if (end > buf.length) throw new RangeError("protobuf: truncated bytes field");
      out.push({ no, type, value: buf.subarray(n, end) });
      at = end;
    } else if (type === FIXED64 || type === FIXED32) {
      const size = type === FIXED64 ? 8 : 4;
      if (at + size > buf.length) throw new RangeError("protobuf: truncated fixed field");
      let v = 0n;
      for (let i = size - 1; i >= 0; i--) v = (v << 8n) | BigInt(buf[at + i]);
      out.push({ no, type, value: v });
      at += size;
    } else throw new RangeError(`protobuf: unsupported wire type ${type}`);
  }
  return out;
}

function varint(v: bigint): number[] {
  const out: number[] = [];
  let x = BigInt.asUintN(64, v);
  do {
    const b = Number(x & 0x7fn);
    x >>= 7n;
    out.push(x ? b | 0x80 : b);
  } while (x);
  return out;
}

/** Encodes fields (varints and length-delimited ones) as a message. */
export function encode(list: { no: number; value: bigint | number | Uint8Array }[]): Uint8Array<ArrayBuffer> {
  const parts: number[] = [];
  for (const f of list) {
    if (f.value instanceof Uint8Array) {
      parts.push(...varint(BigInt((f.no << 3) | BYTES)), ...varint(BigInt(f.value.length)), ...f.value);
    } else parts.push(...varint(BigInt((f.no << 3) | VARINT)), ...varint(BigInt(f.value)));
  }
  return new Uint8Array(parts);
}

/** The value of a varint field (proto3 default 0 when absent). */
export function varintField(buf: Uint8Array, no: number): number {
  const f = fields(buf).findLast((f) => f.no === no && f.type === VARINT);
  return f ? Number(f.value) : 0;
}

/** How many times a field occurs (a repeated field's length). */
export function countField(buf: Uint8Array, no: number): number {
  return fields(buf).filter((f) => f.no === no).length;
}
