/** Random identifiers, secrets and their hashes. */
import { createHash } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `n` uniformly random base62 characters (rejection sampling keeps them unbiased). */
export function randomBase62(n: number): string {
  let out = "";
  while (out.length < n) {
    for (const b of crypto.getRandomValues(new Uint8Array(n * 2))) {
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}

/** `tmr_` + 16 base62 chars (~95 bits): public, appears in viewer and embed URLs. */
export const newTimerId = () => `tmr_${randomBase62(16)}`;
/** `tsk_` + 32 base62 chars (~190 bits). */
export const newRundownId = () => `rdn_${randomBase62(16)}`;

export const newApiKey = () => `tsk_${randomBase62(32)}`;
/** `tct_` + 24 base62 chars (~142 bits): the capability in a control URL's fragment. */
export const newControlToken = () => `tct_${randomBase62(24)}`;
export const newAccountId = () => `acct_${randomBase62(12)}`;
/** `key_` + 12 base62 chars: names an API key in listings (not a secret). */
export const newKeyId = () => `key_${randomBase62(12)}`;
export const newUserId = () => `usr_${randomBase62(16)}`;
/** A session or one-time token: 43 base62 chars (~256 bits). */
export const newSecretToken = () => randomBase62(43);
/** `evt_` + the event's time in base36 (so ids sort by time) + 14 random base62 chars. */
export const newEventId = (at: number) => `evt_${at.toString(36).padStart(9, "0")}${randomBase62(14)}`;

/**
 * How many of the API's latest write ids a record keeps (Timer.write_ids, Rundown.write_ids):
 * a refused commit's own id is still found after as many writes built on it landed meanwhile.
 */
export const WRITE_IDS_KEPT = 8;

/** The write ids of a record the API writes: a new one (the last) added to those kept. */
export function withWriteId(ids: string[] | undefined): string[] {
  return [...(ids ?? []).slice(1 - WRITE_IDS_KEPT), randomBase62(12)];
}

/** `whsec_` + base64 of 32 random bytes, the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** Hex SHA-256 of a UTF-8 string; secrets are stored only as this hash. Synchronous: it is on the hot path. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** Compares two strings in time that depends only on their lengths. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
