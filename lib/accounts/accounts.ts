/** Account and key management: what `deno task keys …` does, as functions tests can call. */
import { PLAN_NAMES, type PlanName } from "../../config.ts";
import { newAccountId, newApiKey, newWebhookSecret, sha256Hex } from "../ids.ts";
import type { Account, Store } from "../kv/store.ts";

/** How long a rotated-out webhook secret keeps signing alongside the new one. */
export const SECRET_GRACE_MS = 24 * 3600_000;

export function parsePlan(raw: string | undefined): PlanName {
  if (!raw || !(PLAN_NAMES as readonly string[]).includes(raw)) {
    throw new Error(`plan must be one of ${PLAN_NAMES.join(", ")}, got ${JSON.stringify(raw ?? "")}`);
  }
  return raw as PlanName;
}

/** Creates an account with a fresh API key and webhook secret; both are returned only here. */
export async function createAccount(store: Store, opts: { plan: PlanName; name: string; now?: number }) {
  const apiKey = newApiKey();
  const webhookSecret = newWebhookSecret();
  const now = opts.now ?? Date.now();
  const account: Account = {
    id: newAccountId(),
    name: opts.name,
    plan: opts.plan,
    key_hash: sha256Hex(apiKey),
    key_prefix: apiKey.slice(0, 12),
    created_at: now,
    revoked_at: null,
    webhook_secrets: [{ secret: webhookSecret, created_at: now }],
  };
  await store.createAccount(account);
  return { account, apiKey, webhookSecret };
}

/** Finds an account by id or by the start of its key (at least 8 characters). */
export async function findAccount(store: Store, ref: string): Promise<Account> {
  const accounts = await store.listAccounts();
  const hits = accounts.filter((a) =>
    a.id === ref || (ref.length >= 8 && (ref.startsWith(a.key_prefix) || a.key_prefix.startsWith(ref)))
  );
  if (hits.length === 0) throw new Error(`no account with id or key prefix "${ref}"`);
  if (hits.length > 1) throw new Error(`"${ref}" matches ${hits.length} accounts; use the account id`);
  return hits[0];
}

export async function revokeKey(store: Store, ref: string, now = Date.now()): Promise<Account> {
  const a = await findAccount(store, ref);
  return (await store.updateAccount(a.id, (x) => ({ ...x, revoked_at: x.revoked_at ?? now })))!;
}

export async function setPlan(store: Store, ref: string, plan: PlanName): Promise<Account> {
  const a = await findAccount(store, ref);
  return (await store.updateAccount(a.id, (x) => ({ ...x, plan })))!;
}

/** Issues a new webhook secret; the previous one keeps signing for SECRET_GRACE_MS. */
export async function rotateSecret(store: Store, ref: string, now = Date.now()) {
  const a = await findAccount(store, ref);
  const secret = newWebhookSecret();
  const account = (await store.updateAccount(a.id, (x) => ({
    ...x,
    webhook_secrets: [{ secret, created_at: now }, ...x.webhook_secrets.slice(0, 1)],
  })))!;
  return { account, webhookSecret: secret };
}

/** The secrets that sign a delivery at `now`: the newest, plus the previous one within its grace. */
export function signingSecrets(account: Account, now: number): string[] {
  const [newest, previous] = account.webhook_secrets;
  const out = [newest.secret];
  if (previous && now - newest.created_at < SECRET_GRACE_MS) out.push(previous.secret);
  return out;
}
