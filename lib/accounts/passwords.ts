/**
 * Passwords: the NIST SP 800-63B rules (length, and a blocklist of what is commonly used or
 * expected: common passwords, repeated or sequential characters, the account's own email — judged
 * by zxcvbn-ts; no composition rules) and argon2id hashing with hash-wasm (WebAssembly, so it runs
 * on Deno Deploy too).
 */
import { argon2id, argon2Verify } from "hash-wasm";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { ApiError } from "../errors.ts";
import { COMMON_PASSWORDS } from "./common_passwords.ts";

export const MIN_PASSWORD = 8;
/** Long passphrases are welcome; the cap only keeps hashing bounded. */
export const MAX_PASSWORD = 256;

/**
 * zxcvbn's score from 0 to 4; below 2 a password falls to fewer than 10⁶ guesses ("aaaaaaaa",
 * "abcdefgh", "qwertyuiop", "1234567890a" and the like).
 */
const MIN_SCORE = 2;
let estimator: Promise<ZxcvbnFactory> | undefined;
/**
 * Loaded on first use: its dictionaries cost ≈ 45 MiB of RSS and 14 MiB of heap (measured), which a
 * process that never judges a password (most of them) need not carry, and ≈ 70 ms to build.
 */
const strength = () =>
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      // Only the first 32 characters are judged: the estimate's cost grows with length (a random 256-character
      // password took ≈ 0.7 s of the event loop; 32 take ≤ 0.1 s), and 32 characters that pass are enough.
      maxLength: 32,
    });
  })().catch((e) => {
    estimator = undefined; // tried again by the next check
    throw e;
  });

/** OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane. */
const PARAMS = { iterations: 2, memorySize: 19456, parallelism: 1, hashLength: 32 } as const;

/** Refuses a password that breaks the rules, naming the rule (never echoing the password). */
export async function checkPassword(password: string, email?: string): Promise<void> {
  const length = [...password].length;
  if (length < MIN_PASSWORD) {
    throw new ApiError(422, `password must be at least ${MIN_PASSWORD} characters; it has ${length}`, "password");
  }
  if (length > MAX_PASSWORD) {
    throw new ApiError(422, `password must be at most ${MAX_PASSWORD} characters; it has ${length}`, "password");
  }
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower) || (email && lower === email.toLowerCase())) {
    throw new ApiError(
      422,
      "this password is one of the most common ones and easy to guess; choose another",
      "password",
    );
  }
  const guess = (await strength()).check(password, email ? [email, ...email.split(/[@.]/)] : []);
  if (guess.score < MIN_SCORE) {
    // zxcvbn's warning says why ("Repeated characters like "aaa" are easy to guess."), when it has one.
    const why = guess.feedback.warning?.replace(/\.$/, "") || "this password is easy to guess";
    throw new ApiError(422, `${why}; choose another password (a longer phrase of unrelated words is best)`, "password");
  }
}

/** argon2id, PHC-encoded (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), with a fresh 16-byte salt. */
export function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return argon2id({ password: password.normalize("NFKC"), salt, ...PARAMS, outputType: "encoded" });
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await argon2Verify({ password: password.normalize("NFKC"), hash });
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;

/** Computes the dummy hash once per process, ahead of the first sign-in. */
export function prewarm(): void {
  dummy ??= hashPassword("no account has this password");
}

/**
 * Spends what a real verification spends, for an email with no account (or no password), so the
 * answer's timing does not tell whether the account exists.
 */
export async function verifyNothing(password: string): Promise<false> {
  prewarm();
  await verifyPassword(password, await dummy!);
  return false;
}
