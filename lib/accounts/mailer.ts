/**
 * Outgoing mail for password resets and email verification. With SMTP_URL set, mail goes through
 * nodemailer; without it, the development mailer writes the message's link to the log. That log
 * line holds a one-time token, which is acceptable only because no real user's mail goes that way
 * (set SMTP_URL in production).
 */
import type { Transporter } from "nodemailer";
import type { LogLine } from "../http.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The one link the message is about (logged by the development mailer). */
  link: string;
}

export interface Mailer {
  readonly kind: "smtp" | "log";
  send(mail: Mail): Promise<void>;
}

/** Sends through the SMTP server of `url` (`smtp://user:pass@host:587`, `smtps://host:465`). */
export function smtpMailer(url: string, from: string): Mailer {
  const u = new URL(url);
  const plain = u.searchParams.get("tls") === "off";
  let transport: Promise<Transporter> | null = null;
  // Loaded on first use: a server without SMTP_URL never loads nodemailer.
  const open = async () => {
    const { default: nodemailer } = await import("nodemailer");
    return nodemailer.createTransport({
      host: u.hostname,
      port: Number(u.port) || (u.protocol === "smtps:" ? 465 : 587),
      secure: u.protocol === "smtps:",
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      // A local relay without a certificate (tests, a sidecar) may be reached in plain text.
      ignoreTLS: plain,
      // Otherwise smtp:// must upgrade with STARTTLS: nodemailer's default sends the password and
      // the mail (one-time links) in clear text to a server, or a man in the middle, that offers none.
      requireTLS: !plain && u.protocol !== "smtps:",
    });
  };
  return {
    kind: "smtp",
    async send(mail) {
      transport ??= open().catch((e) => {
        transport = null;
        throw e;
      });
      await (await transport).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/** Development: logs who would get which link. Never use with real users' mail. */
export function logMailer(log: (line: LogLine) => void, now: () => number): Mailer {
  return {
    kind: "log",
    send(mail) {
      log({
        time: new Date(now()).toISOString(),
        level: "info",
        msg: "development mailer (SMTP_URL unset): this link is a one-time secret",
        to: mail.to,
        subject: mail.subject,
        link: mail.link,
      });
      return Promise.resolve();
    },
  };
}

/** The mailer the configuration asks for. */
export function createMailer(
  o: { smtpUrl: string | undefined; siteUrl: string; log: (line: LogLine) => void; now: () => number },
): Mailer {
  if (!o.smtpUrl) return logMailer(o.log, o.now);
  const from = new URL(o.smtpUrl).searchParams.get("from") ?? `no-reply@${new URL(o.siteUrl).hostname}`;
  return smtpMailer(o.smtpUrl, from);
}
