/** Who is calling: an account by API key, a timer's control token, or an anonymous client IP. */
import { ApiError } from "../errors.ts";
import { sha256Hex } from "../ids.ts";
import type { Account, Store } from "../kv/store.ts";

export type Principal =
  | { kind: "anonymous"; ip: string }
  | { kind: "account"; account: Account }
  | { kind: "control"; token: string };

export const BEARER_CHALLENGE = 'Bearer realm="api"';

/** 401 with the challenge header RFC 6750 asks for. */
export function unauthorized(message: string): ApiError {
  return new ApiError(401, message, undefined, { "WWW-Authenticate": BEARER_CHALLENGE });
}

/**
 * Resolves API keys to accounts, caching each answer for `ttlMs` so the hot read path does not
 * read KV for the key on every request. A revoked key stops working within `ttlMs`.
 */
export class KeyResolver {
  #cache = new Map<string, { account: Account | null; until: number }>();

  constructor(readonly store: Store, readonly opts: { ttlMs: number; now: () => number }) {}

  async resolve(key: string): Promise<Account | null> {
    const hash = sha256Hex(key);
    const now = this.opts.now();
    const hit = this.#cache.get(hash);
    if (hit && hit.until > now) return hit.account;
    const account = await this.store.accountByKeyHash(hash);
    const valid = account && account.revoked_at === null && account.key_hash === hash ? account : null;
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(hash, { account: valid, until: now + this.opts.ttlMs });
    return valid;
  }

  /** Forgets cached answers (after a key or plan change in this process). */
  clear(): void {
    this.#cache.clear();
  }

  /** The principal of a request from its Authorization header and client IP. */
  async principal(authorization: string | undefined, ip: string): Promise<Principal> {
    if (authorization === undefined || authorization.trim() === "") return { kind: "anonymous", ip };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw unauthorized("the Authorization header must be: Bearer <API_KEY>");
    const token = m[1];
    if (token.startsWith("tct_")) return { kind: "control", token };
    const account = token.startsWith("tsk_") ? await this.resolve(token) : null;
    if (!account) throw unauthorized("invalid or revoked API key");
    return { kind: "account", account };
  }
}
