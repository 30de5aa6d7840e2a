/**
 * The API's front door (apiGate): CORS, who is calling, the rate limit and its headers, 401 and
 * the plan's API access; and the cache of control tokens checked against their timers.
 */
import type { MiddlewareHandler } from "hono";
import type { Plans } from "../../config.ts";
import { type KeyResolver, type Principal, unauthorized } from "./auth.ts";
import type { RateLimiter } from "./rate_limit.ts";
import { addressBucket } from "./throttle.ts";
import { ApiError } from "../errors.ts";
import type { AppEnv } from "../http.ts";
import { sha256Hex, timingSafeEqual } from "../ids.ts";
import type { Store } from "../kv/store.ts";

/**
 * Control tokens verified against their timer, so only a real token gets its own budget: a
 * made-up `tct_…` counts against the caller's IP and leaves nothing in KV. Valid answers are
 * cached for `ttlMs` (its timer may go, which the route answers); a token the route finds
 * replaced is forgotten, so the old link does not spend the new one's budget.
 */
export class ControlTokens {
  #valid = new Map<string, { id: string; until: number }>();

  constructor(
    readonly store: Pick<Store, "getTimer" | "rundowns">,
    readonly opts: { ttlMs: number; now: () => number },
  ) {}

  /** Whether `token` controls timer (or rundown) `id`. */
  async verify(id: string, token: string): Promise<boolean> {
    const hash = sha256Hex(token);
    const now = this.opts.now();
    const hit = this.#valid.get(hash);
    if (hit && hit.until > now) return hit.id === id;
    // Timer ids are short; anything longer is no timer (and too long for a KV key).
    if (id.length > 64) return false;
    const stored = id.startsWith("rdn_")
      ? (await this.store.rundowns.get(id))?.rundown.control_token_hash
      : (await this.store.getTimer(id))?.timer.control_token_hash;
    if (!stored || !timingSafeEqual(hash, stored)) return false;
    if (this.#valid.size >= 10_000) this.#valid.clear();
    this.#valid.set(hash, { id, until: now + this.opts.ttlMs });
    return true;
  }

  /** Drops `token` from the cache (the route found that it no longer controls its timer). */
  forget(token: string): void {
    this.#valid.delete(sha256Hex(token));
  }
}

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const EXPOSED =
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, X-Request-Id, WWW-Authenticate, Allow";
/**
 * The timer or rundown a path names, against which a control token is checked. The routes under it
 * decide what a token may do there (403 beyond its timer's read, state, messages and actions).
 */
const CONTROL_PATH = /^\/api\/v1\/(?:timers|rundowns)\/([^/]+)(?:\/.*)?$/;
/** Routes that answer only an authenticated caller (everything but the public events and the document). */
const AUTHENTICATED = /^\/api\/v1\/(timers|rundowns|webhook_endpoints|deliveries|requests)(\/|$)/;

/**
 * The API's front door, one middleware for speed: CORS (keys are bearer tokens, never cookies,
 * so any origin may call), who is calling, the rate limit with its X-RateLimit-* headers on every
 * response (429 with Retry-After when over), then 401 for a caller without a valid credential on
 * an authenticated route (before any validation or lookup, so no answer tells whether an id
 * exists), and the plan's API access. Unknown keys and tokens count against the caller's IP.
 */
export function apiGate(
  limiter: RateLimiter,
  plans: Plans,
  keys: KeyResolver,
  controls: ControlTokens,
): MiddlewareHandler<AppEnv> {
  return async function apiGate(c, next) {
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", EXPOSED);
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
      c.header("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE");
      c.header("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id");
      c.header("Access-Control-Max-Age", "86400");
      return c.body(null, 204);
    }
    // A plain OPTIONS asks what a path answers: the 204 with Allow needs no credential (notFoundHandler).
    if (c.req.method === "OPTIONS") return await next();
    const ip = c.get("ip");
    let principal: Principal;
    let authError: unknown = null;
    try {
      principal = await keys.principal(c.req.header("authorization"), ip);
    } catch (e) {
      // A bad key still counts against the caller's address, and the 401 carries the headers.
      authError = e;
      principal = { kind: "anonymous", ip };
    }
    // An IPv6 /64 is one address (one subscriber holds all of it).
    let subject = `ip:${addressBucket(ip)}`;
    let plan = plans.anonymous;
    if (principal.kind === "account") {
      subject = `acct:${principal.account.id}`;
      plan = plans[principal.account.plan];
      c.set("loggedFor", { for: { account: principal.account.id }, keyPrefix: principal.keyPrefix ?? null });
    } else if (principal.kind === "control") {
      const m = CONTROL_PATH.exec(c.req.path);
      if (m && await controls.verify(safeDecode(m[1]), principal.token)) {
        subject = `ctl:${m[1]}`;
        plan = plans.pro;
        // Filed under the timer's account (request_log.ts resolves it when writing).
        c.set("loggedFor", { for: { controlled: safeDecode(m[1]) }, keyPrefix: null });
      } else if (m) {
        authError = unauthorized("the control token does not match this timer");
      } else if (AUTHENTICATED.test(c.req.path)) {
        // No timer in the path to check it against: a made-up token must not reach validation.
        authError = unauthorized("a control token works only on its own timer's routes; send an API key");
      }
    }
    // What a key or a control token reads (webhook URLs, control URLs) stays out of every cache; so
    // does every answer to one, its 429 and 403 included (set before they are thrown).
    if (principal.kind !== "anonymous" && !authError) c.header("Cache-Control", "no-store");
    let d = limiter.check(subject, plan);
    if (d instanceof Promise) d = await d;
    // Set before the response exists, so Hono merges them without copying the response.
    c.header("X-RateLimit-Reset", String(d.reset));
    if (d.limit !== null) c.header("X-RateLimit-Limit", String(d.limit));
    if (d.remaining !== null) c.header("X-RateLimit-Remaining", String(Math.max(0, d.remaining)));
    if (!d.allowed) {
      throw new ApiError(
        429,
        `rate limit of ${
          d.window === "day" ? `${plan.per_day} requests per day` : `${plan.per_minute} requests per minute`
        } exceeded; retry in ${d.retryAfter} s`,
        undefined,
        { "Retry-After": String(d.retryAfter) },
      );
    }
    if (authError) throw authError;
    if (principal.kind === "anonymous" && AUTHENTICATED.test(c.req.path)) {
      throw unauthorized("missing API key: send Authorization: Bearer <API_KEY>");
    }
    // Free plans have public events only.
    if (principal.kind === "account" && !plan.api && AUTHENTICATED.test(c.req.path)) {
      throw new ApiError(403, `the ${principal.account.plan} plan has no API access; upgrade to pro or enterprise`);
    }
    c.set("principal", principal);
    await next();
    // Cached as valid, refused by the route: the token was replaced (POST /timers/{id}/control_token).
    if (principal.kind === "control" && c.res.status === 401) controls.forget(principal.token);
  };
}
