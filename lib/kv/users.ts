/**
 * People who sign in, in Deno KV: users (one per account today), their sessions (by token hash),
 * passkeys, one-time tokens, WebAuthn challenges and sign-in throttles. It stores decisions, it
 * makes none: expiry and limits are checked by lib/accounts.
 */
import { key } from "./keys.ts";
import type { Account } from "./accounts.ts";

export interface User {
  id: string;
  account_id: string;
  /** Lower-cased; unique. */
  email: string;
  /** argon2id PHC string, or null for a passkey-only user. */
  password_hash: string | null;
  email_verified_at: number | null;
  created_at: number;
  /**
   * Counts password changes and resets (missing in records written before it: 0). A reset link
   * carries the count it was issued at and works only while it is unchanged, so one reset or
   * change kills every older link.
   */
  password_epoch?: number;
}

export interface Session {
  /** SHA-256 (hex) of the cookie's token; the token itself is never stored. */
  hash: string;
  user_id: string;
  account_id: string;
  /** The per-session CSRF token forms and fetches carry. */
  csrf: string;
  created_at: number;
  /** Coarse: refreshed at most every few minutes. */
  last_seen_at: number;
}

export interface AuthToken {
  kind: "reset" | "verify";
  user_id: string;
  expires_at: number;
  /** The user's `password_epoch` when a reset link was issued (missing: 0). */
  epoch?: number;
}

/** A user's password epoch (0 for records written before it existed). */
export const passwordEpoch = (u: Pick<User, "password_epoch">): number => u.password_epoch ?? 0;

export interface Passkey {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  transports: string[];
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface Challenge {
  challenge: string;
  kind: "register" | "login" | "signup";
  /** The signed-in user registering a passkey, or the user a password-less sign-up will create. */
  user_id: string | null;
  email: string | null;
  expires_at: number;
}

/** Failed attempts of one subject (an IP or an email) in the current window. */
export interface Throttle {
  failures: number;
  window_start: number;
  /** No attempt is checked before this instant. */
  locked_until: number;
}

/** Lazy expiry for records whose lifetime is also checked in code. */
const DAY = 86_400_000;

/** A one-time result as stored: encrypted with a key only the session's cookie gives. */
export interface SealedOnce {
  /** The page that shows it (a result is shown by its own page only). */
  page: string;
  expires_at: number;
  iv: Uint8Array<ArrayBuffer>;
  data: Uint8Array<ArrayBuffer>;
}

export class UserStore {
  constructor(readonly kv: Deno.Kv) {}

  /** Stores a new user; false when the email is taken. */
  /**
   * Stores a new user unless its email or id is taken; with `account`, that new account in the
   * same commit (a sign-up is never half done: no account without its user, nor the reverse).
   */
  /** A user, with its new account (and the instance's administrator claim) in the same commit. */
  async create(user: User, account?: Account, administrator = false): Promise<boolean> {
    const op = this.kv.atomic()
      .check({ key: key.userEmail(user.email), versionstamp: null })
      .check({ key: key.user(user.id), versionstamp: null })
      .set(key.user(user.id), user)
      .set(key.userEmail(user.email), user.id)
      .set(key.acctUser(user.account_id, user.id), true);
    if (account) op.check({ key: key.account(account.id), versionstamp: null }).set(key.account(account.id), account);
    if (account && administrator) {
      op.check({ key: key.administrator(), versionstamp: null }).set(key.administrator(), account.id);
    }
    return (await op.commit()).ok;
  }

  async get(id: string): Promise<User | null> {
    return (await this.kv.get<User>(key.user(id))).value;
  }

  async byEmail(email: string): Promise<User | null> {
    const id = (await this.kv.get<string>(key.userEmail(email))).value;
    return id ? await this.get(id) : null;
  }

  async ofAccount(acct: string): Promise<User[]> {
    const out: User[] = [];
    for await (const e of this.kv.list({ prefix: key.acctUsers(acct) })) {
      const u = await this.get(e.key[2] as string);
      if (u) out.push(u);
    }
    return out;
  }

  /** Read-modify-write of a user, retried on conflict (the email does not change here). */
  async update(id: string, change: (u: User) => User): Promise<User | null> {
    for (;;) {
      const entry = await this.kv.get<User>(key.user(id));
      if (!entry.value) return null;
      const next = change(entry.value);
      if ((await this.kv.atomic().check(entry).set(key.user(id), next).commit()).ok) return next;
    }
  }

  /** Deletes a user with sessions, passkeys and indexes. */
  async delete(user: User): Promise<void> {
    await this.deleteSessions(user.id);
    for (const p of await this.listPasskeys(user.id)) await this.deletePasskey(user.id, p.id);
    await this.kv.atomic()
      .delete(key.user(user.id))
      .delete(key.userEmail(user.email))
      .delete(key.acctUser(user.account_id, user.id))
      .commit();
  }

  // ── sessions ──────────────────────────────────────────────────────────────────────────────

  async putSession(s: Session, lifetimeMs: number): Promise<void> {
    const expireIn = lifetimeMs + DAY;
    await this.kv.atomic()
      .set(key.session(s.hash), s, { expireIn })
      .set(key.userSession(s.user_id, s.hash), s.created_at, { expireIn })
      .commit();
  }

  async getSession(hash: string): Promise<Session | null> {
    return (await this.kv.get<Session>(key.session(hash))).value;
  }

  /** The session with the versionstamp to touch it against (see `touchSession`). */
  async getSessionEntry(hash: string): Promise<{ session: Session; versionstamp: string } | null> {
    const e = await this.kv.get<Session>(key.session(hash));
    return e.value ? { session: e.value, versionstamp: e.versionstamp } : null;
  }

  /**
   * Writes a session's new `last_seen_at` only if it is as read: one ended meanwhile (sign-out
   * everywhere, a reset, a password change) is not written back. False when it changed or went.
   */
  async touchSession(s: Session, versionstamp: string, lifetimeMs: number): Promise<boolean> {
    const expireIn = lifetimeMs + DAY;
    const res = await this.kv.atomic()
      .check({ key: key.session(s.hash), versionstamp })
      .set(key.session(s.hash), s, { expireIn })
      .set(key.userSession(s.user_id, s.hash), s.created_at, { expireIn })
      .commit();
    return res.ok;
  }

  /** Holds a session's one-time result (one at a time: a newer replaces it). */
  async putOnce(hash: string, sealed: SealedOnce, lifetimeMs: number): Promise<void> {
    await this.kv.set(key.sessionOnce(hash), sealed, { expireIn: lifetimeMs });
  }

  /** Takes the session's one-time result for `page` (another page's stays): of two readers at once, one gets it. */
  async takeOnce(hash: string, page: string): Promise<SealedOnce | null> {
    const e = await this.kv.get<SealedOnce>(key.sessionOnce(hash));
    if (!e.value || e.value.page !== page) return null;
    const res = await this.kv.atomic().check(e).delete(key.sessionOnce(hash)).commit();
    return res.ok ? e.value : null;
  }

  async deleteSession(s: Pick<Session, "hash" | "user_id">): Promise<void> {
    await this.kv.atomic().delete(key.session(s.hash)).delete(key.userSession(s.user_id, s.hash))
      .delete(key.sessionOnce(s.hash)).commit();
  }

  /** A user's sessions as hash and start time, in no particular order. */
  async sessionsOf(userId: string): Promise<{ hash: string; created_at: number }[]> {
    const out: { hash: string; created_at: number }[] = [];
    for await (const e of this.kv.list<number>({ prefix: key.userSessions(userId) })) {
      out.push({ hash: e.key[2] as string, created_at: e.value });
    }
    return out;
  }

  /** Deletes every session of a user (but `keep`); returns how many were deleted. */
  async deleteSessions(userId: string, keep?: string): Promise<number> {
    let n = 0;
    for await (const e of this.kv.list({ prefix: key.userSessions(userId) })) {
      if (e.key[2] === keep) continue;
      await this.deleteSession({ hash: e.key[2] as string, user_id: userId });
      n++;
    }
    return n;
  }

  // ── one-time tokens ───────────────────────────────────────────────────────────────────────

  /** Stores a one-time token for `lifetimeMs` (its own: an hour for a reset, days for others) and a day's slack. */
  async putToken(hash: string, t: AuthToken, lifetimeMs: number): Promise<void> {
    await this.kv.set(key.authToken(hash), t, { expireIn: lifetimeMs + DAY });
  }

  /** Reads a one-time token without using it up. */
  async getToken(hash: string): Promise<AuthToken | null> {
    return (await this.kv.get<AuthToken>(key.authToken(hash))).value;
  }

  /** Reads and deletes a token in one atomic step: a second use finds nothing. */
  async takeToken(hash: string): Promise<AuthToken | null> {
    const e = await this.kv.get<AuthToken>(key.authToken(hash));
    if (!e.value) return null;
    return (await this.kv.atomic().check(e).delete(e.key).commit()).ok ? e.value : null;
  }

  // ── passkeys and challenges ───────────────────────────────────────────────────────────────

  /**
   * Stores a passkey; false if the credential is already registered, or if `session` (the
   * session adding it) has ended meanwhile.
   */
  async addPasskey(p: Passkey, session?: string): Promise<boolean> {
    // A session touched meanwhile (its last-seen time) changed, not ended: read it again, a few times.
    for (let tries = 0; tries < 3; tries++) {
      const op = this.kv.atomic().check({ key: key.passkey(p.id), versionstamp: null });
      if (session !== undefined) {
        const s = await this.kv.get(key.session(session));
        if (!s.value) return false;
        op.check(s);
      }
      const res = await op.set(key.passkey(p.id), p).set(key.userPasskey(p.user_id, p.id), true).commit();
      if (res.ok) return true;
      if ((await this.kv.get(key.passkey(p.id))).value) return false;
    }
    return false;
  }

  async getPasskey(id: string): Promise<Passkey | null> {
    return (await this.kv.get<Passkey>(key.passkey(id))).value;
  }

  /**
   * Records a sign-in with a passkey: its signature counter and last use. Retried when another
   * sign-in wrote meanwhile (two at once both land), but a counter the authenticator reports (not
   * 0) must still be above the stored one: one that is not was used already ("replayed", WebAuthn's
   * sign of a cloned authenticator). "gone": the passkey was removed meanwhile (never written back).
   */
  async recordPasskeyUse(id: string, counter: number, at: number): Promise<"ok" | "gone" | "replayed"> {
    for (;;) {
      const e = await this.kv.get<Passkey>(key.passkey(id));
      if (!e.value) return "gone";
      if (counter !== 0 && counter <= e.value.counter) return "replayed";
      const p = {
        ...e.value,
        counter: Math.max(e.value.counter, counter),
        last_used_at: Math.max(e.value.last_used_at ?? at, at),
      };
      if ((await this.kv.atomic().check(e).set(key.passkey(id), p).commit()).ok) return "ok";
    }
  }

  async listPasskeys(userId: string): Promise<Passkey[]> {
    const out: Passkey[] = [];
    for await (const e of this.kv.list({ prefix: key.userPasskeys(userId) })) {
      const p = await this.getPasskey(e.key[2] as string);
      if (p) out.push(p);
    }
    return out.sort((a, b) => a.created_at - b.created_at);
  }

  async deletePasskey(userId: string, id: string): Promise<void> {
    await this.kv.atomic().delete(key.passkey(id)).delete(key.userPasskey(userId, id)).commit();
  }

  async putChallenge(id: string, c: Challenge): Promise<void> {
    // Lazy expiry keeps unanswered challenges from piling up; their deadline is checked in code.
    await this.kv.set(key.challenge(id), c, { expireIn: Math.max(60_000, c.expires_at - Date.now()) + 60_000 });
  }

  /** Reads and deletes a challenge: each is answered once. */
  async takeChallenge(id: string): Promise<Challenge | null> {
    const e = await this.kv.get<Challenge>(key.challenge(id));
    if (!e.value) return null;
    return (await this.kv.atomic().check(e).delete(e.key).commit()).ok ? e.value : null;
  }

  // ── throttles ─────────────────────────────────────────────────────────────────────────────

  async getThrottle(subject: string): Promise<Throttle | null> {
    return (await this.kv.get<Throttle>(key.authThrottle(subject))).value;
  }

  /** Read-modify-write of a throttle, retried on conflict; a null result deletes it. */
  async updateThrottle(subject: string, change: (t: Throttle | null) => Throttle | null): Promise<Throttle | null> {
    for (;;) {
      const e = await this.kv.get<Throttle>(key.authThrottle(subject));
      const next = change(e.value);
      const op = this.kv.atomic().check(e);
      if (next === null) op.delete(e.key);
      else op.set(e.key, next, { expireIn: DAY });
      if ((await op.commit()).ok) return next;
    }
  }
}
