/**
 * One-time results of the dashboard's forms (Post/Redirect/Get): a POST that makes a secret (an
 * API key, a signing secret, a control link) holds it here for its session, redirects, and the
 * page's GET takes it, once. A reload or the back button finds nothing, so nothing is made twice
 * and no secret shows again. Stored encrypted with a key derived from the session's cookie, which
 * the server never stores: the KV holds nothing that reveals the secret.
 */
import type { Store } from "../kv/store.ts";

/** How long a result waits for its page. */
export const ONCE_TTL_MS = 5 * 60_000;

const enc = new TextEncoder();

async function keyOf(sessionToken: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", enc.encode(sessionToken), "HKDF", false, ["deriveKey"]);
  return await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: enc.encode("dashboard one-time result") },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export class OnceResults {
  constructor(readonly deps: { store: Store; now: () => number }) {}

  /** Holds `value` for the next GET of `page` in the session of `sessionToken` (its hash: `sessionHash`). */
  async hold(sessionHash: string, sessionToken: string, page: string, value: unknown): Promise<void> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const plain = enc.encode(JSON.stringify(value));
    const data = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: enc.encode(page) },
        await keyOf(sessionToken),
        plain,
      ),
    );
    await this.deps.store.users.putOnce(
      sessionHash,
      { page, expires_at: this.deps.now() + ONCE_TTL_MS, iv, data },
      ONCE_TTL_MS,
    );
  }

  /** The result held for `page`, taken (a second call gets null); null when none, expired or unreadable. */
  async take<T>(sessionHash: string, sessionToken: string, page: string): Promise<T | null> {
    const sealed = await this.deps.store.users.takeOnce(sessionHash, page);
    if (!sealed || sealed.expires_at <= this.deps.now()) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: sealed.iv, additionalData: enc.encode(page) },
        await keyOf(sessionToken),
        sealed.data,
      );
      return JSON.parse(new TextDecoder().decode(plain)) as T;
    } catch {
      return null;
    }
  }
}
