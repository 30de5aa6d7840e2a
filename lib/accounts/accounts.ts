/** Account and key management: what `deno task keys …` does, as functions tests can call. */
import { PLAN_NAMES, type PlanName } from "../../config.ts";
import { ApiError } from "../errors.ts";
import { newAccountId, newApiKey, newKeyId, newWebhookSecret, sha256Hex } from "../ids.ts";
import type { Account, ApiKey, Store, WebhookSecret } from "../kv/store.ts";
import { controlIn } from "../timers/validation.ts";

/** How long a rotated-out webhook secret keeps signing alongside the new one. */
export const SECRET_GRACE_MS = 24 * 3600_000;

export function parsePlan(raw: string | undefined): PlanName {
  if (!raw || !(PLAN_NAMES as readonly string[]).includes(raw)) {
    throw new Error(`plan must be one of ${PLAN_NAMES.join(", ")}, got ${JSON.stringify(raw ?? "")}`);
  }
  return raw as PlanName;
}

/** How a new key is shown to its owner, once. */
export interface NewKey {
  key: ApiKey;
  /** The secret `tsk_…`; only its hash is stored, so this is the one time it exists. */
  secret: string;
}

function freshKey(accountId: string, name: string, now: number): NewKey {
  const secret = newApiKey();
  const key: ApiKey = {
    id: newKeyId(),
    account_id: accountId,
    name,
    prefix: secret.slice(0, 12),
    hash: sha256Hex(secret),
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  return { key, secret };
}

/**
 * A key name: 1 to 60 characters after trimming, without control characters or bidi overrides
 * (`keys list` prints it to the operator's terminal, where an escape sequence would act).
 */
export function parseKeyName(raw: string | undefined): string {
  const name = (raw ?? "").trim();
  if (name.length < 1 || [...name].length > 60 || controlIn(name)) {
    throw new ApiError(
      422,
      `key name must be 1 to 60 characters without control characters, got ${JSON.stringify(raw ?? "")}`,
      "name",
    );
  }
  return name;
}

/**
 * Creates an account with its webhook secret and no key (sign-up: keys come from the dashboard).
 * Nobody has seen the secret yet: the dashboard reveals it once (`revealSecret`).
 */
export async function createBareAccount(store: Store, opts: { plan: PlanName; name: string; now?: number }) {
  const { account, webhookSecret } = newAccount(opts, false);
  await store.accounts.create(account);
  return { account, webhookSecret };
}

/**
 * A sign-up's account, not stored (the sign-up stores it with its first user, in one commit). With
 * `plan` set (SIGNUP_PLAN), on it. Unset, the instance's first sign-up is its administrator's and
 * gets the top plan (a self-hoster's `npm start` then sign-up can use everything); every later one
 * gets free. `administrator`: the commit must also claim the instance's administrator.
 */
export async function signupAccount(
  store: Store,
  opts: { plan: PlanName | undefined; name: string; now?: number; administrator?: boolean },
) {
  if (opts.plan) return { ...newAccount({ ...opts, plan: opts.plan }, false), administrator: false };
  const first = (opts.administrator ?? true) && !(await store.accounts.administrator());
  return { ...newAccount({ ...opts, plan: first ? "enterprise" : "free" }, false), administrator: first };
}

/** A new account record with a fresh webhook secret, `revealed` when the caller shows it. */
function newAccount(opts: { plan: PlanName; name: string; now?: number }, revealed: boolean) {
  const now = opts.now ?? Date.now();
  const webhookSecret = newWebhookSecret();
  const account: Account = {
    id: newAccountId(),
    name: opts.name,
    plan: opts.plan,
    created_at: now,
    webhook_secrets: [{ secret: webhookSecret, created_at: now, revealed }],
  };
  return { account, webhookSecret, now };
}

/**
 * Creates an account with a webhook secret and a first API key; both secrets are returned only
 * here, and the caller shows them (the CLI prints them), so the webhook secret counts as revealed.
 */
export async function createAccount(
  store: Store,
  opts: { plan: PlanName; name: string; now?: number; keyName?: string },
) {
  const { account, webhookSecret, now } = newAccount(opts, true);
  const first = freshKey(account.id, opts.keyName ?? "default", now);
  await store.accounts.create(account, first.key);
  return { account, apiKey: first.secret, key: first.key, webhookSecret };
}

/** Keys an account may have in use at once. */
export const MAX_LIVE_KEYS = 50;
/** Keys an account may hold in all: revoked ones stay listed (and stored), so they count too. */
export const MAX_KEYS = 200;

/** A new named key for an existing account; the secret is returned only here. */
export async function createKey(store: Store, accountId: string, name: string, now = Date.now()): Promise<NewKey> {
  const k = freshKey(accountId, parseKeyName(name), now);
  // Counted and added against one version of the account: simultaneous requests cannot pass the limits together.
  for (let attempt = 0; attempt < 10; attempt++) {
    const seen = await store.accounts.version(accountId);
    const keys = await store.accounts.listKeys(accountId);
    if (keys.filter((x) => x.revoked_at === null).length >= MAX_LIVE_KEYS) {
      throw new ApiError(
        409,
        `an account has at most ${MAX_LIVE_KEYS} active keys; revoke one it no longer uses first`,
      );
    }
    if (keys.length >= MAX_KEYS) {
      throw new ApiError(409, `an account holds at most ${MAX_KEYS} keys, revoked ones included; ask the operator`);
    }
    if (await store.accounts.addKey(k.key, seen)) return k;
  }
  throw new ApiError(409, "the account's keys changed meanwhile; try again");
}

/** The account's keys (never their secrets), revoked ones included, oldest first. */
export function listKeys(store: Store, accountId: string): Promise<ApiKey[]> {
  return store.accounts.listKeys(accountId);
}

/** Revokes one key of an account; 404 if the account has no such key. Revoking twice is harmless. */
export async function revokeKey(store: Store, accountId: string, keyId: string, now = Date.now()): Promise<ApiKey> {
  const k = await store.accounts.updateKey(accountId, keyId, (x) => ({ ...x, revoked_at: x.revoked_at ?? now }));
  if (!k) throw new ApiError(404, `no key "${keyId}" in this account; list the keys to find its id`, "key_id");
  return k;
}

/** Finds an account by id or by the start of one of its keys (at least 8 characters). */
export async function findAccount(store: Store, ref: string): Promise<Account> {
  const direct = /^acct_/.test(ref) ? await store.accounts.get(ref) : null;
  if (direct) return direct;
  const hits = ref.length >= 8 ? (await findKeys(store, ref)).map((k) => k.account_id) : [];
  const ids = [...new Set(hits)];
  if (ids.length === 0) throw new Error(`no account with id or key prefix "${ref}"`);
  if (ids.length > 1) throw new Error(`"${ref}" matches ${ids.length} accounts; use the account id`);
  return (await store.accounts.get(ids[0]))!;
}

/** Keys whose prefix starts with `ref` or is the start of `ref`. */
async function findKeys(store: Store, ref: string): Promise<ApiKey[]> {
  const out: ApiKey[] = [];
  for (const a of await store.accounts.list()) {
    for (const k of await store.accounts.listKeys(a.id)) {
      if (ref.startsWith(k.prefix) || k.prefix.startsWith(ref)) out.push(k);
    }
  }
  return out;
}

/**
 * The CLI's revoke: a key prefix revokes that key; an account id revokes every key of the
 * account (its timers stay; `keys create --account` gives it a new key).
 */
export async function revokeByRef(store: Store, ref: string, now = Date.now()): Promise<ApiKey[]> {
  const direct = /^acct_/.test(ref) ? await store.accounts.get(ref) : null;
  if (!direct && !/^acct_/.test(ref) && ref.length < 8) {
    throw new Error(`a key prefix has at least 8 characters (as "keys list" shows them), got "${ref}"`);
  }
  const keys = direct ? await store.accounts.listKeys(direct.id) : ref.length >= 8 ? await findKeys(store, ref) : [];
  if (keys.length === 0) throw new Error(`no account or key with id or key prefix "${ref}"`);
  if (!direct && keys.length > 1) throw new Error(`"${ref}" matches ${keys.length} keys; give more characters`);
  const out: ApiKey[] = [];
  for (const k of keys) out.push(await revokeKey(store, k.account_id, k.id, now));
  return out;
}

export async function setPlan(store: Store, ref: string, plan: PlanName): Promise<Account> {
  const a = await findAccount(store, ref);
  return (await store.accounts.update(a.id, (x) => ({ ...x, plan })))!;
}

// ── webhook secret rotation ──────────────────────────────────────────────────────────────────
//
// The rule: `X-Service-Signature` changes only when a whole grace period (24 h) has passed since
// the last rotation, or when the owner retires the previous secrets early, and then straight to
// the newest secret. Until then it keeps the secret it had when the (last) rotation happened, and
// `webhook-signature` carries one signature per kept secret, newest first. So a second rotation
// within the grace period never drops the secret receivers verify the header with at that moment:
// it gets a full 24 h again. At most MAX_SECRETS are kept: too many rotations within one grace
// period drop the ones issued in between, never the newest nor the header's.
//
// A secret nobody was ever shown (a sign-up's, until the dashboard reveals it) has no receiver
// verifying with it, so a rotation drops it at once instead of keeping it for a grace period: if
// it was the one in force, the new secret signs both headers straight away.

/** Secrets kept while a grace period runs: the newest, two issued in between, the header's. */
const MAX_SECRETS = 4;

/** Which secret signs which header at one instant. */
export interface SigningSecrets {
  /** Signs `X-Service-Signature`: the secret in force when the last rotation happened, until its grace ends. */
  header: string;
  /** Sign `webhook-signature`, one signature each, newest first. */
  standard: string[];
  /** When the newest secret takes over `X-Service-Signature`; null when it already has. */
  graceEndsAt: number | null;
}

/** The kept secrets still in force at `now`: all while the last rotation's grace runs, else the newest. */
function inForce(secrets: WebhookSecret[], now: number): WebhookSecret[] {
  const [newest] = secrets;
  return secrets.length > 1 && now < newest.created_at + SECRET_GRACE_MS ? secrets : [newest];
}

/** The secrets that sign a delivery at `now` (see the rule above). */
export function signingSecrets(account: Account, now: number): SigningSecrets {
  const kept = inForce(account.webhook_secrets, now);
  return {
    header: kept[kept.length - 1].secret,
    standard: kept.map((s) => s.secret),
    graceEndsAt: kept.length > 1 ? kept[0].created_at + SECRET_GRACE_MS : null,
  };
}

/** Whether a secret was ever shown to anyone (records older than the flag were: they came from the CLI). */
const wasRevealed = (s: WebhookSecret) => s.revealed !== false;

/** Whether the account's current secret was never shown, so the dashboard may reveal it (once). */
export function secretRevealable(account: Account): boolean {
  return !wasRevealed(account.webhook_secrets[0]);
}

/**
 * Shows the current secret to its owner, exactly once: marks it revealed and returns it (one
 * atomic change, so two simultaneous requests cannot both get it). 409 once it was shown.
 */
export async function revealSecret(store: Store, accountId: string): Promise<string> {
  const alreadyShown = () =>
    new ApiError(409, "the current webhook secret was already shown once; rotate it to get a new one (shown once)");
  const current = await store.accounts.get(accountId);
  if (!current) throw new ApiError(404, `no account "${accountId}"`);
  if (!secretRevealable(current)) throw alreadyShown();
  let secret = null as string | null;
  await store.accounts.update(accountId, (x) => {
    const [newest, ...rest] = x.webhook_secrets;
    secret = wasRevealed(newest) ? null : newest.secret;
    return secret === null ? x : { ...x, webhook_secrets: [{ ...newest, revealed: true }, ...rest] };
  });
  if (secret === null) throw alreadyShown();
  return secret;
}

/**
 * Issues a new webhook secret (returned only here, for the caller to show: it counts as revealed).
 * The header keeps its secret for SECRET_GRACE_MS, unless that secret was never shown to anyone:
 * then the new one signs both headers at once (`graceEndsAt` of `signingSecrets` tells which).
 */
export async function rotateSecret(store: Store, ref: string, now = Date.now()) {
  const a = await findAccount(store, ref);
  const secret = newWebhookSecret();
  const account = (await store.accounts.update(a.id, (x) => {
    const next = [{ secret, created_at: now, revealed: true }, ...inForce(x.webhook_secrets, now).filter(wasRevealed)];
    const kept = next.length > MAX_SECRETS ? [...next.slice(0, MAX_SECRETS - 1), next[next.length - 1]] : next;
    return { ...x, webhook_secrets: kept };
  }))!;
  return { account, webhookSecret: secret };
}

/**
 * After the first proof of a sign-up's mailbox: a secret anyone was shown before may be a
 * stranger's (whoever signed up with that email first), so every kept secret goes at once, with
 * no grace period, and one nobody has seen takes over (the owner reveals it once on the
 * dashboard). Nothing changes when no kept secret was ever shown. True when one was replaced.
 */
export async function replaceSeenSecrets(store: Store, accountId: string, now: number): Promise<boolean> {
  let replaced = false;
  await store.accounts.update(accountId, (x) => {
    replaced = x.webhook_secrets.some(wasRevealed);
    if (!replaced) return x;
    return { ...x, webhook_secrets: [{ secret: newWebhookSecret(), created_at: now, revealed: false }] };
  });
  return replaced;
}

/**
 * Ends the grace period early: only the newest secret signs, both headers, from now on (running
 * servers within a second). `retired` counts the secrets dropped (0: nothing was in its grace).
 */
export async function retirePreviousSecret(store: Store, ref: string, now = Date.now()) {
  const a = await findAccount(store, ref);
  let retired = 0;
  const account = (await store.accounts.update(a.id, (x) => {
    retired = inForce(x.webhook_secrets, now).length - 1;
    return { ...x, webhook_secrets: x.webhook_secrets.slice(0, 1) };
  }))!;
  return { account, retired };
}
