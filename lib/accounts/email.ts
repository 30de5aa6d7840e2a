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

/**
 * The email in the form mail is delivered to, or a 422 naming the field: trimmed, NFKC (full-width
 * letters, decomposed accents and the like become the characters they stand for), lower case, an
 * international domain in punycode. Spellings of one mailbox are one account.
 */
export function parseEmail(raw: unknown): string {
  const email = typeof raw === "string" ? deliveredEmail(raw) : "";
  if (!isMailbox(email)) {
    throw new ApiError(422, "email must look like name@example.com", "email");
  }
  return email;
}

/** The form mail is delivered to (see parseEmail), unchecked: how sign-in compares what was typed. */
export function deliveredEmail(raw: string): string {
  const email = raw.trim().normalize("NFKC").toLowerCase();
  const at = email.lastIndexOf("@");
  const domain = email.slice(at + 1);
  // Only a domain of letters, digits, dots and hyphens is converted (anything else isMailbox refuses).
  if (at < 0 || /^[\x21-\x7e]*$/.test(domain) || !/^[\p{L}\p{M}\p{N}.\-]+$/u.test(domain)) return email;
  // WHATWG URL applies IDNA (UTS #46): the domain as DNS and the mailer know it.
  try {
    return `${email.slice(0, at)}@${new URL(`http://${domain}`).hostname}`;
  } catch {
    return email; // refused by isMailbox or left as it is
  }
}

/** The mailbox an address delivers to, for per-mailbox limits: `name+tag@x` is `name@x`. */
export function mailboxOf(email: string): string {
  return email.replace(/\+[^@]*(?=@)/, "");
}
