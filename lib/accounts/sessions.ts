/**
 * Dashboard sessions: a random 256-bit token in a `__Host-` cookie (HttpOnly, SameSite=Lax,
 * Secure), only its SHA-256 in KV; idle and absolute expiry checked here in code (KV's expireIn
 * is lazy). On a plain-http SITE_URL other than localhost the cookie cannot be Secure, so it goes
 * without the `__Host-` prefix, which browsers would refuse there (development only).
 */
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Config } from "../../config.ts";
import { ApiError } from "../errors.ts";
import { type AppEnv, formFields } from "../http.ts";
import { newSecretToken, sha256Hex, timingSafeEqual } from "../ids.ts";
import type { Account, Store } from "../kv/store.ts";
import { passwordEpoch, type Session, type User } from "../kv/users.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;
/** A session unused this long ends. */
export const IDLE_MS = 7 * DAY;
/** A session ends this long after sign-in, used or not. */
export const ABSOLUTE_MS = 30 * DAY;
/** Sessions one user may hold; signing in once more ends the oldest. */
export const MAX_SESSIONS = 50;
/** `last_seen_at` is written at most this often: no KV write per request. */
const TOUCH_MS = 5 * MINUTE;
/**
 * How long after sign-in a session may add a way in or reveal a secret (passkeys, API keys, the
 * webhook secret, a first password, deleting the account): a cookie stolen later must not turn
 * into access that outlives it.
 */
export const FRESH_MS = 15 * MINUTE;

/** Whether the session was started (sign-up, sign-in, reset) less than FRESH_MS ago. */
export function isFresh(s: Session, now: number): boolean {
  return now - s.created_at < FRESH_MS;
}

/** The sign-in page that makes the session fresh again and comes back to `next`. */
export function reauthPath(next: string): string {
  return `/login?reauth=1&next=${encodeURIComponent(next)}`;
}

/** The form field and the header that carry the CSRF token. */
export const CSRF_FIELD = "_csrf";
export const CSRF_HEADER = "x-csrf-token";

/** What `requireSession()` puts in `c.var.session`. */
export interface SessionInfo {
  user: User;
  account: Account;
  /** The per-session CSRF token: put it in CSRF_FIELD of every form (or CSRF_HEADER of a fetch). */
  csrf: string;
  record: Session;
}

export type SessionEnv = AppEnv & { Variables: AppEnv["Variables"] & { session: SessionInfo } };

export interface SessionsDeps {
  store: Store;
  config: Config;
  now: () => number;
}

export class Sessions {
  constructor(readonly deps: SessionsDeps) {}

  /** The site's origin (read each time: tests set SITE_URL once the server listens). */
  get siteOrigin(): string {
    return new URL(this.deps.config.siteUrl).origin;
  }

  /** Whether cookies can be Secure (https, or localhost, which browsers treat as secure). */
  get secure(): boolean {
    const site = new URL(this.deps.config.siteUrl);
    return site.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(site.hostname);
  }

  get cookieName(): string {
    return this.secure ? "__Host-session" : "session";
  }

  /**
   * Starts a session for the user and sets its cookie on the response. This browser's previous
   * session ends: signing in again (as /login?reauth=1 asks) replaces it, leaving no older one.
   */
  async start(c: Context, user: User): Promise<Session> {
    const previous = getCookie(c, this.cookieName);
    const old = previous && previous.length <= 100 ? await this.deps.store.users.getSession(sha256Hex(previous)) : null;
    if (old) await this.deps.store.users.deleteSession(old);
    const token = newSecretToken();
    const now = this.deps.now();
    const s: Session = {
      hash: sha256Hex(token),
      user_id: user.id,
      account_id: user.account_id,
      // The same person signing in again in this browser keeps its CSRF token: forms open in
      // other tabs still post. Anyone else (another user) starts with a new one.
      csrf: old?.user_id === user.id ? old.csrf : newSecretToken(),
      created_at: now,
      last_seen_at: now,
    };
    await this.deps.store.users.putSession(s, ABSOLUTE_MS);
    // A reset or a password change ends every session, once the password is replaced: a sign-in
    // that read the user before (its proof checked against the old password, or a passkey a first
    // proof deleted) may only write its session after that end. Read again now, it sees the change.
    const current = await this.deps.store.users.get(user.id);
    if (!current || passwordEpoch(current) !== passwordEpoch(user)) {
      await this.deps.store.users.deleteSession(s);
      throw new ApiError(401, "the password was changed while signing in; sign in again");
    }
    // Bounded: repeated sign-ins (a script's) cannot pile up sessions; the oldest go first.
    const all = await this.deps.store.users.sessionsOf(user.id);
    if (all.length > MAX_SESSIONS) {
      all.sort((a, b) => a.created_at - b.created_at);
      for (const old of all.slice(0, all.length - MAX_SESSIONS)) {
        if (old.hash !== s.hash) await this.deps.store.users.deleteSession({ hash: old.hash, user_id: user.id });
      }
    }
    setCookie(c, this.cookieName, token, {
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure: this.secure,
      maxAge: ABSOLUTE_MS / 1000,
    });
    return s;
  }

  /** The request's live session, or null (an expired one is deleted). */
  async read(c: Context): Promise<SessionInfo | null> {
    const token = getCookie(c, this.cookieName);
    if (!token || token.length > 100) return null;
    const { store, now: clock } = this.deps;
    const entry = await store.users.getSessionEntry(sha256Hex(token));
    if (!entry) return null;
    const s = entry.session;
    const now = clock();
    if (now - s.created_at >= ABSOLUTE_MS || now - s.last_seen_at >= IDLE_MS) {
      await store.users.deleteSession(s);
      return null;
    }
    const [user, account] = await Promise.all([store.users.get(s.user_id), store.accounts.get(s.account_id)]);
    if (!user || !account) return null;
    let record = s;
    if (now - s.last_seen_at >= TOUCH_MS) {
      record = { ...s, last_seen_at: now };
      // Against the session as read: one ended meanwhile stays ended (a plain write brought it back).
      if (!(await store.users.touchSession(record, entry.versionstamp, ABSOLUTE_MS - (now - s.created_at)))) {
        const again = await store.users.getSession(s.hash);
        if (!again) return null;
        record = again; // touched by another request meanwhile
      }
    }
    return { user, account, csrf: s.csrf, record };
  }

  /** Ends this session and clears its cookie. */
  async end(c: Context, s: Session): Promise<void> {
    await this.deps.store.users.deleteSession(s);
    this.clearCookie(c);
  }

  /** Whether this session may do what needs a recent sign-in (see FRESH_MS). */
  fresh(s: SessionInfo): boolean {
    return isFresh(s.record, this.deps.now());
  }

  clearCookie(c: Context): void {
    deleteCookie(c, this.cookieName, { path: "/", secure: this.secure });
  }

  /** Ends every session of the user, everywhere (stolen cookies included). */
  endAll(userId: string): Promise<number> {
    return this.deps.store.users.deleteSessions(userId);
  }

  /** Same-origin by `Origin`, else by `Sec-Fetch-Site`; a request with neither is not a browser's. */
  sameOrigin(c: Context): boolean {
    const origin = c.req.header("origin");
    // A page sent with Referrer-Policy: no-referrer posts `Origin: null`; its fetch metadata still tells.
    if (origin !== undefined && origin !== "null") return origin === this.siteOrigin;
    const site = c.req.header("sec-fetch-site");
    if (site !== undefined) return site === "same-origin" || site === "none";
    return true;
  }

  /** Sets `c.var.session`, or sends the browser to /login (401 for a JSON caller). */
  requireSession(): MiddlewareHandler<SessionEnv> {
    return async (c, next) => {
      const session = await this.read(c);
      if (!session) {
        if (c.req.header("accept")?.includes("application/json")) {
          throw new ApiError(401, "sign in first: no session or it has ended");
        }
        // An event stream (the dashboard's live feed) is told so, and its page stops asking; its
        // `retry` keeps a plain EventSource from asking again for a day.
        if (c.req.header("accept")?.includes("text/event-stream")) {
          return c.body("retry: 86400000\nevent: signed-out\ndata: {}\n\n", 200, {
            "content-type": "text/event-stream; charset=utf-8",
            "cache-control": "no-store",
          });
        }
        const here = new URL(c.req.url);
        return c.redirect(`/login?next=${encodeURIComponent(here.pathname + here.search)}`, 303);
      }
      c.set("session", session);
      await next();
    };
  }

  /**
   * Refuses a state-changing request (not GET/HEAD/OPTIONS) that is cross-site (403) or lacks the
   * session's CSRF token in CSRF_FIELD (a form) or CSRF_HEADER. Runs after requireSession().
   */
  csrfProtect(): MiddlewareHandler<SessionEnv> {
    return async (c, next) => {
      if (["GET", "HEAD", "OPTIONS"].includes(c.req.method)) return await next();
      const expected = c.get("session")?.csrf;
      if (!this.sameOrigin(c)) throw new ApiError(403, "cross-site request refused", CSRF_FIELD);
      const sent = await csrfTokenOf(c);
      if (!expected || !sent || !timingSafeEqual(sent, expected)) {
        throw new ApiError(403, "missing or wrong CSRF token; reload the page and try again", CSRF_FIELD);
      }
      await next();
    };
  }
}

/** The CSRF token a request carries: the header, else the form field (the parsed body is cached). */
export async function csrfTokenOf(c: Context): Promise<string | null> {
  const header = c.req.header(CSRF_HEADER);
  if (header) return header;
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return null;
  return (await formFields(c))[CSRF_FIELD] ?? null;
}
