/** A record the size and shape of a stored timer (~600 bytes as JSON), for the KV floors. */
import { newTimer } from "../lib/timers/model.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function rand(n: number, alphabet = BASE62): string {
  let s = "";
  for (const b of crypto.getRandomValues(new Uint8Array(n))) s += alphabet[b % alphabet.length];
  return s;
}

export function floorRecord(title: string | null = "bench") {
  const now = Date.now();
  return {
    ...newTimer({
      id: `tmr_${rand(16)}`,
      account_id: `acct_${rand(12)}`,
      type: "countdown",
      title,
      duration: 60,
      control_token_hash: rand(64, "0123456789abcdef"),
      created_at: now,
      expires_at: now + 30 * 86400_000,
    }),
    changed_at: now,
  };
}
