/** Who is calling: an account by API key, a timer's control token, or an anonymous client IP. */
import { ApiError } from "../errors.ts";
import { sha256Hex } from "../ids.ts";
import type { Account, ApiKey, Store } from "../kv/store.ts";

export type Principal =
  | { kind: "anonymous"; ip: string }
  /** `guard`: the key's index entry as read (API keys only); a write checking it fails once the key is gone. */
  | { kind: "account"; account: Account; guard?: Deno.AtomicCheck; keyPrefix?: string }
  | { kind: "control"; token: string };

export const BEARER_CHALLENGE = 'Bearer realm="api"';

/** 401 with the challenge header RFC 6750 asks for. */
export function unauthorized(message: string): ApiError {
  return new ApiError(401, message, undefined, { "WWW-Authenticate": BEARER_CHALLENGE });
}

/**
 * The only shape an API key has ever had (`newApiKey`): anything else is refused without a
 * lookup and without a place in the cache, which is keyed by the key as presented (a made-up
 * key as long as a header may be, 64 KB, kept 10 000 times, held 640 MB).
 */
const API_KEY = /^tsk_[0-9A-Za-z]{32}$/;

/** How often a key's `last_used_at` is written at most: coarse, so no KV write per request. */
export const LAST_USED_RESOLUTION_MS = 3600_000;

interface Resolved {
  account: Account;
  key: ApiKey;
  guard: Deno.AtomicCheck;
}

/**
 * Resolves API keys to their accounts, caching each answer for `ttlMs` so the hot read path does
 * not read KV for the key on every request. A revoked key stops working within `ttlMs`. A key's
 * `last_used_at` is written at most once per LAST_USED_RESOLUTION_MS per process.
 */
export class KeyResolver {
  #cache = new Map<string, { found: Resolved | null; until: number }>();
  #touched = new Map<string, number>();
  /** Counts clear() calls. */
  #generation = 0;

  constructor(readonly store: Store, readonly opts: { ttlMs: number; now: () => number }) {}

  /** The account and key record of a live key, or null. */
  async resolveKey(key: string): Promise<Resolved | null> {
    const now = this.opts.now();
    // Cached by the key as presented (in this process's memory only, like the request it came
    // with): the hash is computed on a miss, not on every request (≈ 4 % of a GET's CPU).
    const hit = this.#cache.get(key);
    let found: Resolved | null;
    if (hit && hit.until > now) found = hit.found;
    else {
      const generation = this.#generation;
      found = await this.store.accounts.byKeyHash(sha256Hex(key));
      if (this.#cache.size > 10_000) this.#cache.clear();
      // A read that began before clear() may have seen a key deleted since: not cached.
      if (generation === this.#generation) this.#cache.set(key, { found, until: now + this.opts.ttlMs });
    }
    if (found) await this.#touch(found, now);
    return found;
  }

  async #touch({ account, key }: Resolved, now: number): Promise<void> {
    const last = this.#touched.get(key.id) ?? key.last_used_at ?? -Infinity;
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    if (this.#touched.size > 10_000) this.#touched.clear();
    this.#touched.set(key.id, now);
    await this.store.accounts.touchKey(account.id, key.id, now);
  }

  /** Forgets cached answers (after a key or plan change in this process). */
  clear(): void {
    this.#generation++;
    this.#cache.clear();
  }

  /** The principal of a request from its Authorization header and client IP. */
  async principal(authorization: string | undefined, ip: string): Promise<Principal> {
    if (authorization === undefined || authorization.trim() === "") return { kind: "anonymous", ip };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw unauthorized("the Authorization header must be: Bearer <API_KEY>");
    const token = m[1];
    if (token.startsWith("tct_")) return { kind: "control", token };
    const found = API_KEY.test(token) ? await this.resolveKey(token) : null;
    if (!found) throw unauthorized("invalid or revoked API key");
    return { kind: "account", account: found.account, guard: found.guard, keyPrefix: found.key.prefix };
  }
}
