/**
 * Brute-force limits on sign-in and sign-up. Each subject (an email, whether or not an account
 * has it, or a client IP) may fail `free` times in a window; every failure after that locks the
 * subject for a delay that doubles up to `maxMs`. A lock always ends, so the owner of an attacked
 * account gets in after at most `maxMs`; attempts made while locked are refused unchecked and do
 * not count, so an attacker cannot stretch the lock.
 */
import ipaddr from "ipaddr.js";
import type { Throttle, UserStore } from "../kv/users.ts";

/**
 * What a limit per address counts: an IPv4 address, or the /64 network of an IPv6 one (one
 * subscriber gets a whole /64 and could otherwise step through 2^64 fresh addresses). Any other
 * subject (an email, a user id) is itself.
 */
export function addressBucket(subject: string): string {
  if (!ipaddr.IPv6.isValid(subject)) return subject;
  const a = ipaddr.IPv6.parse(subject);
  if (a.isIPv4MappedAddress()) return a.toIPv4Address().toString();
  return `${a.parts.slice(0, 4).map((p) => p.toString(16)).join(":")}::/64`;
}

export interface ThrottlePolicy {
  /** Failures in a window before the next attempt has to wait. */
  free: number;
  /** The first delay; each further failure doubles it. */
  baseMs: number;
  maxMs: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
}

const MINUTE = 60_000;

export const POLICIES = {
  /** Wrong passwords for one email. */
  email: { free: 5, baseMs: 2_000, maxMs: 15 * MINUTE, windowMs: 24 * 60 * MINUTE },
  /** Wrong passwords from one IP, across emails. */
  ip: { free: 30, baseMs: 2_000, maxMs: 15 * MINUTE, windowMs: 60 * MINUTE },
  /** Sign-ups, reset requests and confirmation mails sent again from one IP (each counts, successful or not). */
  create: { free: 10, baseMs: 60_000, maxMs: 60 * MINUTE, windowMs: 60 * MINUTE },
  /** Mails with a link (reset, confirmation) to one mailbox (`+tag` removed), whoever asks for them. */
  mail: { free: 5, baseMs: 10 * MINUTE, maxMs: 60 * MINUTE, windowMs: 60 * MINUTE },
  /** Confirmation links sent again for one user: the first at once, then a doubling wait from a minute. */
  resend: { free: 1, baseMs: MINUTE, maxMs: 60 * MINUTE, windowMs: 60 * MINUTE },
  /** Passkey sign-in challenges from one IP (each is stored until it expires). */
  challenge: { free: 30, baseMs: 2_000, maxMs: 15 * MINUTE, windowMs: 10 * MINUTE },
} satisfies Record<string, ThrottlePolicy>;

export type PolicyName = keyof typeof POLICIES;

export class AuthThrottle {
  constructor(readonly users: UserStore, readonly now: () => number) {}

  /** Seconds until the first of these subjects may try again; 0 when none is locked. */
  async retryAfter(subjects: [PolicyName, string][]): Promise<number> {
    const now = this.now();
    let wait = 0;
    for (const [policy, subject] of subjects) {
      const t = await this.users.getThrottle(`${policy}:${addressBucket(subject)}`);
      if (t && t.locked_until > now) wait = Math.max(wait, Math.ceil((t.locked_until - now) / 1000));
    }
    return wait;
  }

  /** Counts a failure; past the free ones, locks the subject for a doubling delay. */
  async fail(policy: PolicyName, subject: string): Promise<void> {
    const p: ThrottlePolicy = POLICIES[policy];
    const now = this.now();
    await this.users.updateThrottle(`${policy}:${addressBucket(subject)}`, (t) => {
      const live: Throttle = t && now - t.window_start < p.windowMs
        ? t
        : { failures: 0, window_start: now, locked_until: 0 };
      const failures = live.failures + 1;
      // The free-th failure starts the delays: the attempt after it waits.
      const over = failures - p.free + 1;
      const delay = over > 0 ? Math.min(p.maxMs, p.baseMs * 2 ** Math.min(over - 1, 30)) : 0;
      return { failures, window_start: live.window_start, locked_until: delay ? now + delay : 0 };
    });
  }

  /** Forgets a subject's failures (a successful sign-in). */
  async clear(policy: PolicyName, subject: string): Promise<void> {
    await this.users.updateThrottle(`${policy}:${addressBucket(subject)}`, () => null);
  }
}
