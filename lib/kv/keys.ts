/** Every Deno KV key of the service is spelled here, and nowhere else. */
import type { TimerType } from "../timers/record.ts";
import type { DueKind } from "./store.ts";

/** A rate-limit window's counter; its start is in the key, so an old window is never reused. */
export function rateKey(subject: string, window: "m" | "d", start: number): [string, string, string, number] {
  return ["rate", subject, window, start];
}

/** Every rate-limit counter, for sweeping out ended windows. */
export const ratePrefix = (): Deno.KvKey => ["rate"];

/**
 * Page cursors name the listing they page ("t." timers, "d." deliveries): a cursor of one listing
 * handed to another is refused (TypeError, as for a cursor KV cannot decode) instead of paging
 * from a meaningless place.
 */
export const pageCursor = {
  wrap: (listing: "t" | "d" | "r" | "a", kv: string) => `${listing}.${kv}`,
  unwrap(listing: "t" | "d" | "r" | "a", cursor: string | undefined): string | undefined {
    if (cursor === undefined) return undefined;
    if (!cursor.startsWith(`${listing}.`)) throw new TypeError("a cursor of another listing");
    return cursor.slice(2);
  },
};

export const key = {
  account: (id: string) => ["account", id],
  /** The id of the account whose sign-up was the instance's first (its administrator's). */
  administrator: () => ["instance", "administrator"],
  /** A key's SHA-256 → `{ account_id, key_id }` (a bare account id in data written before named keys). */
  keyHash: (hash: string) => ["key_hash", hash],
  apiKey: (acct: string, id: string) => ["api_key", acct, id],
  user: (id: string) => ["user", id],
  userEmail: (email: string) => ["user_email", email],
  acctUser: (acct: string, user: string) => ["acct_user", acct, user],
  /** A session by the SHA-256 of its token. */
  session: (hash: string) => ["session", hash],
  userSession: (user: string, hash: string) => ["user_session", user, hash],
  /** A session's one-time result (a secret to show once after a redirect), encrypted, by the session's hash. */
  sessionOnce: (hash: string) => ["session_once", hash],
  /** A one-time token (password reset, email verification) by its SHA-256. */
  authToken: (hash: string) => ["auth_token", hash],
  passkey: (credentialId: string) => ["passkey", credentialId],
  userPasskey: (user: string, credentialId: string) => ["user_passkey", user, credentialId],
  challenge: (id: string) => ["webauthn_challenge", id],
  /** Failed sign-ins or sign-ups of one subject (an IP or an email). */
  authThrottle: (subject: string) => ["auth_throttle", subject],
  timer: (id: string) => ["timer", id],
  /** An account's webhook endpoints (one record: the list). */
  webhookEndpoints: (acct: string) => ["webhook_endpoints", acct],
  acctSeq: (acct: string) => ["acct_seq", acct],
  acctTimer: (acct: string, created: number, id: string) => ["acct_timers", acct, created, id],
  acctTimerByType: (acct: string, type: TimerType, created: number, id: string) => [
    "acct_timers_type",
    acct,
    type,
    created,
    id,
  ],
  rundown: (id: string) => ["rundown", id],
  acctRundown: (acct: string, created: number, id: string) => ["acct_rundowns", acct, created, id],
  acctRundowns: (acct: string) => ["acct_rundowns", acct],
  /** What is due when. Expiries apart (`["expiry", at, id]`): nobody waits for them, so arming never reads them. */
  due: (at: number, kind: DueKind, ref: string) => kind === "expire" ? ["expiry", at, ref] : ["due", at, kind, ref],
  /** The record a due entry was written with (same commit, same versionstamp), apart so arming reads no records. */
  dueRecord: (at: number, kind: DueKind, ref: string) => ["due_rec", at, kind, ref],
  /** Scratch keys the start-up probe checks (never written): how many checks one commit may carry. */
  probe: (n: number) => ["probe", "checks", n],
  /** A running scheduler's heartbeat counter: claims of an instance whose counter stood still are taken over. */
  instance: (id: string) => ["instance", id],
  /**
   * A shard of the due work → `{ by }`, the instance holding it (lib/webhooks/shards.ts). Shards cut
   * by id range; `["shard", n]` held the leases of the versions that cut them by a hash.
   */
  shard: (n: number) => ["shard_range", n],
  delivery: (timerId: string, id: string) => ["delivery", timerId, id],
  /** An account's deliveries of every timer, by event id (ids sort by time) → `{ timer_id, event }`. */
  acctDelivery: (acct: string, id: string) => ["acct_delivery", acct, id],
  /** One slot of an account's API request log (a ring of REQUEST_LOG_SIZE) and its sequence counter. */
  requestLog: (acct: string, slot: number) => ["api_request", acct, slot],
  requestLogSeq: (acct: string) => ["api_request_seq", acct],
  /** How many deliveries a timer's log holds, and how many of them failed (Deno.KvU64 counters). */
  logCount: (timerId: string) => ["log_n", timerId],
  logFailed: (timerId: string) => ["log_failed", timerId],
  /** A timer deleted whose deliveries did not fit the delete's commit: no claim lands while it stands. */
  timerGone: (id: string) => ["timer_gone", id],
  timersGone: () => ["timer_gone"],
  // Prefixes, for listings.
  accounts: () => ["account"],
  apiKeys: (acct: string) => ["api_key", acct],
  acctUsers: (acct: string) => ["acct_user", acct],
  userSessions: (user: string) => ["user_session", user],
  userPasskeys: (user: string) => ["user_passkey", user],
  acctTimers: (acct: string) => ["acct_timers", acct],
  acctTimersOfType: (acct: string, type: TimerType) => ["acct_timers_type", acct, type],
  deliveries: (timerId: string) => ["delivery", timerId],
  acctDeliveries: (acct: string) => ["acct_delivery", acct],
  requestLogs: (acct: string) => ["api_request", acct],
  dueBefore: (until: number) => ({ start: ["due"], end: ["due", until] }),
  dueAt: (at: number, kind?: DueKind) => kind ? ["due", at, kind] : ["due", at],
  dues: () => ["due"],
  shards: () => ["shard_range"],
  /** Every instance's heartbeat (and the administrator's key, which shares the prefix). */
  instances: () => ["instance"],
  expiriesBefore: (until: number) => ({ start: ["expiry"], end: ["expiry", until] }),
  dueRecordsBefore: (until: number) => ({ start: ["due_rec"], end: ["due_rec", until] }),
  dueRecordsAt: (at: number, kind?: DueKind) => kind ? ["due_rec", at, kind] : ["due_rec", at],
} as const;
