/**
 * The one form of email address an account may have: a bare mailbox (RFC 5322's dot-atom
 * `local@domain`), lower-cased. Nothing the mailer would read as an address list: a display name
 * (`x<victim@corp.com>`), a comment (`(a)victim@corp.com`), a group (`g:victim@corp.com;`), a
 * list (`victim@corp.com,`), quotes, brackets or whitespace would each make a new account whose
 * mail nodemailer delivers to someone else's mailbox, past that mailbox's mail throttle.
 */
import { ApiError } from "../errors.ts";

// Letters and digits of any script are allowed (internationalised addresses, RFC 6531), plus the
// ASCII symbols of RFC 5322's atext; none of them is special to an address parser.
const ATEXT = String.raw`[a-z0-9!#$%&'*+/=?^_\x60{|}~\-\p{L}\p{M}\p{N}]`;
const ALNUM = String.raw`[a-z0-9\p{L}\p{M}\p{N}]`;
const LABEL = String.raw`${ALNUM}(?:[a-z0-9\-\p{L}\p{M}\p{N}]{0,61}${ALNUM})?`;
const MAILBOX = new RegExp(String.raw`^(?=[^@]{1,64}@)${ATEXT}+(?:\.${ATEXT}+)*@${LABEL}(?:\.${LABEL})+$`, "u");

/** Whether `email` is a bare lower-case mailbox an account may have (and mail may go to). */
export function isMailbox(email: string): boolean {
  return email.length <= 254 && MAILBOX.test(email);
}

/** Lower-cased, trimmed email, or a 422 naming the field. */
export function parseEmail(raw: unknown): string {
  const email = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if (!isMailbox(email)) {
    throw new ApiError(422, "email must look like name@example.com", "email");
  }
  return email;
}
