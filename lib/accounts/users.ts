/**
 * People and their logins: sign-up, sign-in (throttled, one message for a wrong email or password,
 * the same work whether or not the account exists), password changes, reset and email
 * verification by one-time links, the CLI's login for an existing account, account deletion.
 */
import type { Config } from "../../config.ts";
import { ApiError } from "../errors.ts";
import { newSecretToken, newUserId, sha256Hex } from "../ids.ts";
import type { Store } from "../kv/store.ts";
import { type AuthToken, passwordEpoch, type User } from "../kv/users.ts";
import type { TimerService } from "../timers/service.ts";
import { signupAccount } from "./accounts.ts";
import { dropAccessBeforeProof } from "./first_proof.ts";
import { deliveredEmail, isMailbox, mailboxOf, parseEmail } from "./email.ts";
import type { Mailer } from "./mailer.ts";
import { HashBudget, JUDGED_HASH_COST } from "./hash_budget.ts";
import { checkPassword, hashPassword, prewarm, verifyNothing, verifyPassword } from "./passwords.ts";
import { addressBucket, AuthThrottle } from "./throttle.ts";
import { ProcessBudget } from "./process_budget.ts";
import { deleteAccount } from "./delete_account.ts";

export { parseEmail };

/** The one answer to a wrong email or a wrong password. */
export const WRONG_LOGIN = "wrong email or password";
export const RESET_TTL_MS = 3600_000;
export const VERIFY_TTL_MS = 7 * 86_400_000;
/** The CLI's link to set the password of a new login. */
export const SET_PASSWORD_TTL_MS = 7 * 86_400_000;

export interface UsersDeps {
  store: Store;
  config: Config;
  now: () => number;
  mailer: Mailer;
  /** Told when a mail could not be sent (a sign-up or a reset request goes on without it). */
  onMailError?: (error: Error, what?: "confirmation" | "reset") => void;
}

/**
 * The user with a new password hash. The epoch moves on, so every reset link issued before (and
 * not yet used) stops working: whoever asked for one must not get in after the password changed.
 */
function withPassword(u: User, hash: string): User {
  return { ...u, password_hash: hash, password_epoch: passwordEpoch(u) + 1 };
}

/** Whether a stored token is a live reset link of this user's current password. */
function isLiveReset(t: AuthToken | null, u: User | null, now: number): u is User {
  return t !== null && u !== null && t.kind === "reset" && t.expires_at > now &&
    (t.epoch ?? 0) === passwordEpoch(u);
}

function tooMany(seconds: number): ApiError {
  const minutes = Math.ceil(seconds / 60);
  return new ApiError(
    429,
    `too many attempts; try again in ${seconds < 120 ? `${seconds} seconds` : `${minutes} minutes`}`,
    undefined,
    { "Retry-After": String(seconds) },
  );
}

export class Users {
  readonly throttle: AuthThrottle;
  /** Every password hash of a visitor's request runs within it (not the operator's CLI). */
  readonly hashing: HashBudget;

  /** Sign-ups and visitor-caused mails of the whole process (on top of the per-address limits). */
  readonly signups: ProcessBudget;
  readonly mails: ProcessBudget;

  constructor(readonly deps: UsersDeps) {
    this.throttle = new AuthThrottle(deps.store.users, deps.now);
    this.hashing = new HashBudget(deps.config.passwordHashesPerSecond, deps.now);
    this.signups = new ProcessBudget(deps.config.signupPerHour, deps.now);
    this.mails = new ProcessBudget(deps.config.mailsPerHour, deps.now);
    // The dummy hash is ready before the first sign-in, so that one takes no longer either.
    prewarm();
  }

  get #users() {
    return this.deps.store.users;
  }

  /**
   * Creates an account with its first user, on SIGNUP_PLAN (unset: the instance's first is the
   * administrator's, on enterprise; then free); password null for a passkey sign-up.
   */
  async signUp(rawEmail: unknown, password: string | null, ip: string, id = newUserId()): Promise<User> {
    const { config, now, store } = this.deps;
    const email = this.checkSignUp(rawEmail);
    const wait = await this.throttle.retryAfter([["create", ip]]);
    if (wait > 0) throw tooMany(wait);
    const paused = (seconds: number) =>
      new ApiError(503, `sign-ups are paused on this service for now; try again in ${seconds} seconds`, undefined, {
        "Retry-After": String(seconds),
      });
    const full = this.signups.wait();
    if (full > 0) throw paused(full);
    // Counted once the service's budgets (sign-ups, hashing) let the sign-up in, before the password
    // is judged: judging costs milliseconds of CPU, so refusals (a weak password, a taken email)
    // count too, while a 503 of a budget counts against no address.
    const admitted = async () => {
      await this.throttle.fail("create", ip);
      const full = this.signups.take();
      if (full > 0) throw paused(full);
    };
    const hash = await this.#hashNew(email, password, admitted);
    const signup = { plan: config.signupPlan, name: email, now: now() };
    let { account, administrator } = await signupAccount(store, signup);
    let user: User = {
      id,
      account_id: account.id,
      email,
      password_hash: hash,
      email_verified_at: null,
      created_at: now(),
    };
    // The account and its first user in one commit: a crash between two left an account nobody owns.
    let created = await this.#users.create(user, account, administrator);
    if (!created && administrator) {
      // Another sign-up became the administrator meanwhile: this one gets the later sign-ups' plan.
      ({ account, administrator } = await signupAccount(store, { ...signup, administrator: false }));
      user = { ...user, account_id: account.id };
      created = await this.#users.create(user, account, false);
    }
    if (!created) {
      throw new ApiError(409, "an account with this email exists; sign in or reset its password", "email");
    }
    // A mail server that is down must not undo the sign-up; the operator sees it in the log.
    await this.sendVerification(user).catch((e) => this.deps.onMailError?.(e as Error));
    return user;
  }

  /**
   * The new account's password hash (null for a passkey sign-up), judged and hashed within the
   * budget; `admitted` runs first once the budget let it in.
   */
  async #hashNew(email: string, password: string | null, admitted: () => Promise<void>): Promise<string | null> {
    const exists = async () => {
      if (await this.#users.byEmail(email)) {
        throw new ApiError(409, "an account with this email exists; sign in or reset its password", "email");
      }
    };
    if (password === null) {
      await admitted();
      await exists();
      return null;
    }
    // Judging the password costs CPU too (zxcvbn): it is inside the budget.
    return await this.hashing.run(async () => {
      await admitted();
      await checkPassword(password, email);
      await exists();
      return await hashPassword(password);
    }, { cost: JUDGED_HASH_COST });
  }

  /** The normalised email a sign-up may use: 403 when sign-up is closed, 422 for a malformed one. */
  checkSignUp(rawEmail: unknown): string {
    if (this.deps.config.signup === "closed") {
      throw new ApiError(403, "sign-up is closed on this service; ask its operator for an account");
    }
    return parseEmail(rawEmail);
  }

  /** The user with this email and password; one 401 message for either being wrong. */
  async signIn(rawEmail: unknown, password: string, ip: string): Promise<User> {
    // Cut past the longest email an account can have (254): still no account's, and the
    // throttle's KV key stays within KV's key size.
    const email = typeof rawEmail === "string" ? deliveredEmail(rawEmail).slice(0, 255) : "";
    const wait = await this.throttle.retryAfter([["email", email], ["ip", ip]]);
    if (wait > 0) throw tooMany(wait);
    // Refused for the budget before the account is looked up: that answer tells nothing about it.
    // A correct password costs a hash too: one client's share of the budget bounds both.
    const { user, ok } = await this.hashing.run(async () => {
      const user = email ? await this.#users.byEmail(email) : null;
      const ok = user?.password_hash
        ? await verifyPassword(password, user.password_hash)
        : await verifyNothing(password);
      return { user, ok };
    }, { client: addressBucket(ip) });
    if (!ok || !user) {
      await this.throttle.fail("email", email);
      await this.throttle.fail("ip", ip);
      throw new ApiError(401, WRONG_LOGIN);
    }
    await this.throttle.clear("email", email);
    return user;
  }

  /** Changes the password; every other session of the user ends (`keep` is the caller's). */
  async changePassword(user: User, current: string, next: string, keep?: string): Promise<void> {
    const old = user.password_hash;
    if (old) {
      // Throttled as sign-in is: a session alone must not allow guessing the password at full speed.
      const wait = await this.throttle.retryAfter([["email", user.email]]);
      if (wait > 0) throw tooMany(wait);
    }
    // One budget call for the whole change (the current password's hash, then the new one judged
    // and hashed), refused before any of it: two calls asked together for more than the bucket's
    // burst, so at the default rate every change was refused, on an idle instance too.
    const hash = await this.hashing.run(async () => {
      if (old && !(await verifyPassword(current, old))) {
        await this.throttle.fail("email", user.email);
        throw new ApiError(422, "the current password is not right", "current_password");
      }
      await checkPassword(next, user.email);
      return await hashPassword(next);
    }, { cost: JUDGED_HASH_COST + (old ? 1 : 0) });
    await this.#users.update(user.id, (u) => withPassword(u, hash));
    await this.#users.deleteSessions(user.id, keep);
  }

  /** Mails a reset link if the email has an account; the caller answers the same either way. */
  async requestReset(rawEmail: unknown, ip: string): Promise<void> {
    const wait = await this.throttle.retryAfter([["create", ip]]);
    if (wait > 0) throw tooMany(wait);
    await this.throttle.fail("create", ip);
    const email = parseEmail(rawEmail);
    const user = await this.#users.byEmail(email);
    if (!user) return;
    // Past the mailbox's budget nothing is sent, and the answer is the same (it tells nothing).
    if (await this.#countMail(user) > 0) return;
    if (this.mails.take() > 0) return; // the process's mails for the hour are spent: the same answer
    const link = await this.#link(user, "reset", "/reset", RESET_TTL_MS);
    // Sent after the answer, not before it: waiting for SMTP made the answer for an email with an
    // account 70 times slower than for one without, which told who has an account.
    void this.deps.mailer.send({
      to: user.email,
      subject: "Reset your password",
      text:
        `Someone asked to reset the password of your account. If it was you, open this link within an hour:\n\n${link}\n\nIf not, ignore this message.`,
      link,
    }).catch((e) => this.deps.onMailError?.(e as Error, "reset"));
  }

  /** Whether a reset link can still set a password (its page says at once when not). */
  async resetLinkLive(token: string): Promise<boolean> {
    if (token.length > 200) return false;
    const t = await this.#users.getToken(sha256Hex(token));
    return isLiveReset(t, t ? await this.#users.get(t.user_id) : null, this.deps.now());
  }

  /** Sets a new password with a reset token (once); every session of the user ends. */
  async resetPassword(token: string, password: string): Promise<User> {
    const tokenHash = sha256Hex(token);
    const t = await this.#users.getToken(tokenHash);
    const user = t ? await this.#users.get(t.user_id) : null;
    const invalid = () => new ApiError(400, "this reset link is not valid any more; ask for a new one", "token");
    if (!isLiveReset(t, user, this.deps.now())) throw invalid();
    // A refused password leaves the link usable; an accepted one uses it up (once, even if raced).
    // Refused for the budget, the link stays usable.
    const hash = await this.hashing.run(async () => {
      await checkPassword(password, user.email);
      if (!(await this.#users.takeToken(tokenHash))) throw invalid();
      return await hashPassword(password);
    }, { cost: JUDGED_HASH_COST });
    // The password first: from here on, whoever chose the old one cannot sign in again.
    const changed = await this.#users.update(user.id, (u) => {
      // Checked again in the commit: of two links used at once, only one changes the password.
      if (!isLiveReset(t, u, this.deps.now())) throw invalid();
      return withPassword(u, hash);
    });
    if (!changed) throw invalid();
    // A proof of the mailbox: the first one also takes away every way in made before it.
    const next = await this.#proven(changed);
    await this.#users.deleteSessions(user.id);
    await this.throttle.clear("email", user.email);
    return next;
  }

  /**
   * A few mails with a link an hour to one mailbox, however many addresses or accounts ask (a
   * reset, a sign-up's confirmation, one sent again): no mail-bombing through the forms. Keyed on
   * the mailbox the mail is delivered to (`name+tag@x` is `name@x`; #link holds every mail to one
   * bare mailbox). Counts one mail and answers 0, or the seconds to wait (nothing counted).
   */
  async #countMail(user: User): Promise<number> {
    const mailbox = mailboxOf(user.email);
    const wait = await this.throttle.retryAfter([["mail", mailbox]]);
    if (wait === 0) await this.throttle.fail("mail", mailbox);
    return wait;
  }

  /** Mails the confirmation link, within the mailbox's and the process's budgets (else throws, unsent). */
  async sendVerification(user: User): Promise<void> {
    if (await this.#countMail(user) > 0) throw new Error("the mailbox's budget of mails is spent; not mailed");
    if (this.mails.take() > 0) throw new Error("the hour's budget of mails (MAILS_PER_HOUR) is spent; not mailed");
    const link = await this.#link(user, "verify", "/verify", VERIFY_TTL_MS);
    await this.deps.mailer.send({
      to: user.email,
      subject: "Confirm your email",
      // Confirming takes a session of the account; someone who did not sign up resets instead
      // (SECURITY.md, "First proof of a mailbox").
      text: `Confirm the email of your timer service account by opening this link, signed in:\n\n${link}\n\n` +
        `If you did not sign up yourself, reset the password at ${this.deps.config.siteUrl}/reset instead: ` +
        `that also ends every other way into the account.`,
      link,
    });
  }

  /**
   * Mails the confirmation link again ("check your email" page): "confirmed" when there is nothing
   * to confirm; 429 while the user's resend, the mailbox's mail budget or the address's (`ip`)
   * sign-ups, resets and resends wait. Per address too: accounts of many mailboxes, each sending
   * again, would otherwise let a few addresses spend the process's MAILS_PER_HOUR.
   */
  async resendVerification(user: User, ip: string): Promise<"sent" | "confirmed"> {
    if (user.email_verified_at !== null) return "confirmed";
    const wait = await this.throttle.retryAfter([["resend", user.id], ["mail", mailboxOf(user.email)], ["create", ip]]);
    if (wait > 0) throw tooMany(wait);
    await this.throttle.fail("resend", user.id);
    await this.throttle.fail("create", ip);
    await this.sendVerification(user);
    return "sent";
  }

  /**
   * Confirms the email of the link's user, who must be the one signed in (`signedInAs`): whoever
   * made the account then also holds the mailbox, so nothing made before is a stranger's. From any
   * other browser the link is left unused ("sign-in"): someone who did not sign up takes the
   * account over with a reset, which is a first proof (#proven) and replaces the password too.
   */
  async verifyEmail(token: string, signedInAs: string | null): Promise<User | "sign-in" | null> {
    const hash = sha256Hex(token);
    const peeked = await this.#users.getToken(hash);
    if (!peeked || peeked.kind !== "verify" || peeked.expires_at <= this.deps.now()) return null;
    if (peeked.user_id !== signedInAs) return "sign-in";
    const t = await this.#users.takeToken(hash);
    if (!t || t.user_id !== signedInAs) return null;
    return await this.#users.update(
      t.user_id,
      (u) => ({ ...u, email_verified_at: u.email_verified_at ?? this.deps.now() }),
    );
  }

  /**
   * The user's mailbox was just proven by a reset link. The first proof of an
   * account never confirmed ends its sessions, deletes its passkeys, revokes its keys and replaces
   * a webhook secret anyone saw (lib/accounts/first_proof.ts); a later one changes nothing here.
   * The email counts as verified once all that is done (a crash before leaves it unconfirmed).
   */
  async #proven(user: User): Promise<User> {
    const now = this.deps.now();
    if (user.email_verified_at === null) await dropAccessBeforeProof(this.deps.store, user, now);
    const next = await this.#users.update(user.id, (u) => ({ ...u, email_verified_at: u.email_verified_at ?? now }));
    return next ?? user;
  }

  /**
   * A new one-time link for the user's mailbox (every mail carries one). Only a bare mailbox gets
   * one: an account stored before the email check was strict may hold a display name or a group,
   * which the mailer would deliver to another mailbox, past that mailbox's throttle.
   */
  async #link(user: User, kind: "reset" | "verify", path: string, ttl: number): Promise<string> {
    if (!isMailbox(user.email)) throw new Error(`not mailing ${user.id}: its email is not a bare mailbox`);
    const token = newSecretToken();
    const t: AuthToken = { kind, user_id: user.id, expires_at: this.deps.now() + ttl };
    if (kind === "reset") t.epoch = passwordEpoch(user);
    await this.#users.putToken(sha256Hex(token), t, ttl);
    return `${this.deps.config.siteUrl}${path}?token=${token}`;
  }

  /**
   * The CLI's `login`: gives an existing account a user with this email. With a password it is
   * set at once; without, a reset link is mailed (or logged by the development mailer).
   */
  async setLogin(
    accountId: string,
    rawEmail: unknown,
    password: string | null,
  ): Promise<{ user: User; mailed: boolean }> {
    const { store, now } = this.deps;
    if (!(await store.accounts.get(accountId))) throw new Error(`no account "${accountId}"`);
    const email = parseEmail(rawEmail);
    if (password !== null) await checkPassword(password, email);
    const hash = password === null ? null : await hashPassword(password);
    let user = await this.#users.byEmail(email);
    if (user && user.account_id !== accountId) throw new Error(`${email} already signs in to another account`);
    if (!user) {
      user = {
        id: newUserId(),
        account_id: accountId,
        email,
        password_hash: hash,
        email_verified_at: now(),
        created_at: now(),
      };
      if (!(await this.#users.create(user))) throw new Error(`${email} was taken meanwhile; try again`);
    } else if (hash) {
      user = (await this.#users.update(user.id, (u) => withPassword(u, hash)))!;
    }
    if (hash) return { user, mailed: false };
    await this.requestResetFor(user);
    return { user, mailed: true };
  }

  async requestResetFor(user: User): Promise<void> {
    const link = await this.#link(user, "reset", "/reset", SET_PASSWORD_TTL_MS);
    await this.deps.mailer.send({
      to: user.email,
      subject: "Set your password",
      text: `An account of the timer service now signs in with this email. Set its password here:\n\n${link}`,
      link,
    });
  }

  /** Deletes the account and everything in it (lib/accounts/delete_account.ts). */
  async deleteAccount(user: User, timers: TimerService, keysGone: () => void = () => {}): Promise<void> {
    await deleteAccount(this.deps.store, user, timers, keysGone);
  }
}
