/**
 * Passkeys (WebAuthn) with SimpleWebAuthn: register one for a signed-in user, sign in with one
 * (discoverable credentials, so no email is typed), and the ceremony of a password-less sign-up.
 * The relying party is SITE_URL's host; every challenge is stored, answered once, and expires.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Config } from "../../config.ts";
import { ApiError } from "../errors.ts";
import { newSecretToken } from "../ids.ts";
import type { Store } from "../kv/store.ts";
import type { Challenge, Passkey, User } from "../kv/users.ts";

const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * Anonymous sign-in challenges the whole process stores a second (bursting to a minute's worth):
 * the per-address pacing cannot stop addresses spread over a /48, and each challenge is a KV record
 * for CHALLENGE_TTL_MS. At most 10/s × 300 s = 3 000 of them live at once.
 */
export const LOGIN_CHALLENGES_PER_SECOND = 10;
/** Passkeys one user may register (people have a few devices, not thousands). */
export const MAX_PASSKEYS = 20;

export interface PasskeysDeps {
  store: Store;
  config: Config;
  now: () => number;
}

/** WebAuthn caps a credential id at 1023 bytes: 1364 base64url characters. A longer one is no key of ours. */
const MAX_CREDENTIAL_ID_CHARS = 1364;
/**
 * A credential id as SimpleWebAuthn spells it: base64url, at most MAX_CREDENTIAL_ID_CHARS. Checked
 * by characters, not only by length: 1364 characters of other scripts are up to 4 KiB of UTF-8,
 * over KV's key limit (a lookup with it threw, a 500).
 */
const CREDENTIAL_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CREDENTIAL_ID_CHARS}}$`);

const refused = (why: string) => new ApiError(400, `passkey not accepted: ${why}; try again`);

export class Passkeys {
  constructor(readonly deps: PasskeysDeps) {
    this.#tokens = LOGIN_CHALLENGES_PER_SECOND * 60;
    this.#at = deps.now();
  }

  #tokens: number;
  #at: number;

  /** Takes one anonymous challenge from the process's budget, or throws 503 with Retry-After. */
  #spend(): void {
    const now = this.deps.now();
    const burst = LOGIN_CHALLENGES_PER_SECOND * 60;
    this.#tokens = Math.min(burst, this.#tokens + (now - this.#at) / 1000 * LOGIN_CHALLENGES_PER_SECOND);
    this.#at = now;
    if (this.#tokens < 1) {
      throw new ApiError(503, "too many passkey sign-ins on the service right now; try again in 1 seconds", undefined, {
        "Retry-After": "1",
      });
    }
    this.#tokens -= 1;
  }

  get #rp() {
    const site = new URL(this.deps.config.siteUrl);
    return { id: site.hostname, origin: site.origin };
  }

  async #challenge(c: Omit<Challenge, "expires_at">): Promise<string> {
    const id = newSecretToken();
    await this.deps.store.users.putChallenge(id, { ...c, expires_at: this.deps.now() + CHALLENGE_TTL_MS });
    return id;
  }

  async #take(id: unknown, kind: Challenge["kind"]): Promise<Challenge> {
    const c = typeof id === "string" && id.length < 100 ? await this.deps.store.users.takeChallenge(id) : null;
    if (!c || c.kind !== kind || c.expires_at <= this.deps.now()) throw refused("the request expired");
    return c;
  }

  /** Options to create a passkey for `user` (an existing one) or for a sign-up of `email` as `userId`. */
  async registrationOptions(o: { kind: "register" | "signup"; userId: string; email: string }) {
    const existing = o.kind === "register" ? await this.deps.store.users.listPasskeys(o.userId) : [];
    const options = await generateRegistrationOptions({
      rpName: "Timer Service",
      rpID: this.#rp.id,
      userName: o.email,
      userID: new TextEncoder().encode(o.userId),
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    });
    const challengeId = await this.#challenge({
      challenge: options.challenge,
      kind: o.kind,
      user_id: o.userId,
      email: o.email,
    });
    return { challengeId, options };
  }

  /** Checks a registration answer; returns the challenge (whose user it is) and the new passkey. */
  async verifyRegistration(challengeId: unknown, response: unknown, kind: "register" | "signup", name: string) {
    const c = await this.#take(challengeId, kind);
    const { id, origin } = this.#rp;
    let result;
    try {
      result = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: c.challenge,
        expectedOrigin: origin,
        expectedRPID: id,
        requireUserVerification: false,
      });
    } catch (e) {
      throw refused((e as Error).message);
    }
    if (!result.verified) throw refused("the authenticator's answer did not verify");
    const cred = result.registrationInfo.credential;
    // An authenticator may claim up to 64 KiB (its length field); nothing that long fits in a KV key.
    if (cred.id.length > MAX_CREDENTIAL_ID_CHARS) throw refused("its credential id is longer than WebAuthn allows");
    const passkey: Passkey = {
      id: cred.id,
      user_id: c.user_id!,
      public_key: isoBase64URL.fromBuffer(cred.publicKey),
      counter: cred.counter,
      transports: cred.transports ?? [],
      name: name.trim().slice(0, 60) || "Passkey",
      created_at: this.deps.now(),
      last_used_at: null,
    };
    return { challenge: c, passkey };
  }

  /**
   * Stores a verified passkey for its user; with `session` (the signed-in session adding it), only
   * while that session lasts: one ended meanwhile (a reset's first proof, sign-out everywhere)
   * must not leave a way in made by whoever held it.
   */
  async add(passkey: Passkey, session?: string): Promise<void> {
    if ((await this.list(passkey.user_id)).length >= MAX_PASSKEYS) {
      throw new ApiError(409, `a user has at most ${MAX_PASSKEYS} passkeys; remove one first`);
    }
    if (await this.deps.store.users.addPasskey(passkey, session)) return;
    if (session !== undefined && !(await this.deps.store.users.getSession(session))) {
      throw new ApiError(401, "the session ended while the passkey was being added; sign in again");
    }
    throw refused("this passkey is already registered");
  }

  /** Options to sign in with any passkey of this site (the authenticator offers its own). */
  async loginOptions() {
    this.#spend();
    const options = await generateAuthenticationOptions({ rpID: this.#rp.id, userVerification: "preferred" });
    const challengeId = await this.#challenge({
      challenge: options.challenge,
      kind: "login",
      user_id: null,
      email: null,
    });
    return { challengeId, options };
  }

  /** The user a sign-in answer proves; its counter and last use are recorded. */
  async verifyLogin(challengeId: unknown, response: unknown): Promise<User> {
    const c = await this.#take(challengeId, "login");
    const r = response as AuthenticationResponseJSON;
    const stored = typeof r?.id === "string" && CREDENTIAL_ID.test(r.id)
      ? await this.deps.store.users.getPasskey(r.id)
      : null;
    if (!stored) throw refused("this passkey is not registered here");
    const { id, origin } = this.#rp;
    let result;
    try {
      result = await verifyAuthenticationResponse({
        response: r,
        expectedChallenge: c.challenge,
        expectedOrigin: origin,
        expectedRPID: id,
        credential: {
          id: stored.id,
          publicKey: isoBase64URL.toBuffer(stored.public_key),
          counter: stored.counter,
          transports: stored.transports,
        },
        requireUserVerification: false,
      });
    } catch (e) {
      throw refused((e as Error).message);
    }
    if (!result.verified) throw refused("the signature did not verify");
    // Not written back blindly: a passkey removed meanwhile would come back, unlisted and working.
    const used = await this.deps.store.users.recordPasskeyUse(
      stored.id,
      result.authenticationInfo.newCounter,
      this.deps.now(),
    );
    if (used === "gone") throw refused("this passkey is not registered here");
    if (used === "replayed") throw refused("this passkey was just used to sign in; sign in with it again");
    const user = await this.deps.store.users.get(stored.user_id);
    if (!user) throw refused("its account no longer exists");
    return user;
  }

  list(userId: string): Promise<Passkey[]> {
    return this.deps.store.users.listPasskeys(userId);
  }

  /** Removes a passkey of the user; refuses to remove the last way in of a password-less user. */
  async remove(user: User, id: string): Promise<void> {
    const keys = await this.list(user.id);
    if (!keys.some((p) => p.id === id)) throw new ApiError(404, "no such passkey on this account", "passkey");
    if (!user.password_hash && keys.length === 1) {
      throw new ApiError(409, "this passkey is the only way into the account; set a password or add another first");
    }
    await this.deps.store.users.deletePasskey(user.id, id);
  }
}
