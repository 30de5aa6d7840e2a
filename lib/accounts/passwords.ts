/**
 * Passwords: the NIST SP 800-63B rules (length, a list of common passwords, nothing else) and
 * argon2id hashing with hash-wasm (WebAssembly, so it runs on Deno Deploy too).
 */
import { argon2id, argon2Verify } from "hash-wasm";
import { ApiError } from "../errors.ts";
import { COMMON_PASSWORDS } from "./common_passwords.ts";

export const MIN_PASSWORD = 8;
/** Long passphrases are welcome; the cap only keeps hashing bounded. */
export const MAX_PASSWORD = 256;

/** OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane. */
const PARAMS = { iterations: 2, memorySize: 19456, parallelism: 1, hashLength: 32 } as const;

/** Refuses a password that breaks the rules, naming the rule (never echoing the password). */
export function checkPassword(password: string, email?: string): void {
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
