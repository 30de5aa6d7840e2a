/**
 * What a receiver answered, as the delivery log keeps it: the first 2 KB of the body and the
 * headers, both capped, so a stranger's server cannot grow a delivery record past KV's 64 KiB.
 * Pure: the sender collects the bytes, the log renders the text escaped.
 */

/** How much of a receiver's body the log keeps (bytes). */
export const RESPONSE_BODY_BYTES = 2048;
/** How much of the headers the log keeps: characters of names and values together, each value clipped. */
export const RESPONSE_HEADER_CHARS = 1024;
const HEADER_VALUE_CHARS = 256;
/** Headers whose values are not kept: a receiver's own session cookies are none of the log's business. */
const REDACTED_HEADERS = new Set(["set-cookie", "authorization", "proxy-authenticate", "www-authenticate"]);

export interface ResponseExcerpt {
  /** The body's first RESPONSE_BODY_BYTES, decoded as UTF-8 (a character cut in two is left out). */
  body: string;
  /** The body was longer than what is kept. */
  truncated: boolean;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Some headers did not fit RESPONSE_HEADER_CHARS and were left out. */
  headers_truncated?: boolean;
}

/** Decodes bodies kept whole (no state left between calls). */
const whole = new TextDecoder();

/** The excerpt of an answer: its headers and the chunks of its body read so far (`size` bytes in all). */
export function excerptOf(
  raw: Record<string, string | string[] | undefined>,
  chunks: Uint8Array[],
  size: number,
): ResponseExcerpt {
  const cut = size > RESPONSE_BODY_BYTES;
  // `stream` leaves out a multi-byte character the cut split, instead of a replacement character
  // (a decoder of its own then: a streaming one keeps that part for its next call).
  const decoder = cut ? new TextDecoder() : whole;
  let body: string;
  if (chunks.length === 1 && chunks[0].byteLength <= RESPONSE_BODY_BYTES) {
    body = decoder.decode(chunks[0], { stream: cut });
  } else {
    let kept = 0;
    for (const c of chunks) kept += c.byteLength;
    const bytes = new Uint8Array(Math.min(RESPONSE_BODY_BYTES, kept));
    let at = 0;
    for (const c of chunks) {
      if (at >= bytes.length) break;
      const part = c.subarray(0, bytes.length - at);
      bytes.set(part, at);
      at += part.byteLength;
    }
    body = decoder.decode(bytes, { stream: cut });
  }
  const headers: Record<string, string> = {};
  let used = 0, dropped = false;
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const joined = REDACTED_HEADERS.has(name.toLowerCase())
      ? "[not kept]"
      : Array.isArray(value)
      ? value.join(", ")
      : value;
    const v = joined.length > HEADER_VALUE_CHARS ? `${joined.slice(0, HEADER_VALUE_CHARS - 1)}…` : joined;
    const n = name.toLowerCase().slice(0, 100);
    if (used + n.length + v.length > RESPONSE_HEADER_CHARS) {
      dropped = true;
      continue;
    }
    used += n.length + v.length;
    headers[n] = v;
  }
  return { body, truncated: cut, headers, ...(dropped && { headers_truncated: true }) };
}

/**
 * How many characters of responses a delivery keeps over all its attempts: with MAX_ATTEMPTS_KEPT
 * attempts and the longest URL (under 40 KB), the record stays under KV's 64 KiB. Small answers fit
 * for every attempt; with 2-KB bodies at least the newest few keep theirs.
 */
export const RESPONSE_CHARS_KEPT = 8 * 1024;

const charsOf = (r: ResponseExcerpt) =>
  r.body.length + Object.entries(r.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);

/** The attempts (oldest first) with the responses of older ones dropped beyond RESPONSE_CHARS_KEPT. */
export function keepResponses<A extends { response?: ResponseExcerpt }>(attempts: A[]): A[] {
  let used = 0, full = false;
  const out = [...attempts];
  for (let i = out.length - 1; i >= 0; i--) {
    const r = out[i].response;
    if (!r) continue;
    if (!full && used + charsOf(r) <= RESPONSE_CHARS_KEPT) {
      used += charsOf(r);
      continue;
    }
    full = true;
    const { response: _, ...rest } = out[i];
    out[i] = rest as A;
  }
  return out;
}
