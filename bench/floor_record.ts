/** A record the size and shape of a stored timer (~600 bytes as JSON), for the KV floors. */
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function rand(n: number, alphabet = BASE62): string {
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(n))) s += alphabet[b % alphabet.length];
  return s;
}

export function floorRecord(title: string | null = "bench") {
  const now = Date.now();
  return {
    id: `tmr_${rand(16)}`,
    account_id: `acct_${rand(12)}`,
    type: "countdown",
    title,
    theme: "light",
    color: "6C63FF",
    webhook_url: null,
    duration: 60,
    target_date: null,
    work: null,
    rest: null,
    rounds: null,
    control_token_hash: rand(64, "0123456789abcdef"),
    state: "idle",
    started_at: null,
    resumed_at: null,
    elapsed_ms: 0,
    stopped_at: null,
    completed_at: null,
    rounds_done: 0,
    created_at: now,
    expires_at: now + 30 * 86400_000,
    version: 1,
    due_at: null,
    changed_at: now,
  };
}
