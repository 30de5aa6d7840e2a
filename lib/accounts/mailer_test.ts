import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { smtpMailer } from "./mailer.ts";

/** A plain-text SMTP server (no STARTTLS, as a man in the middle would strip it) that records what it is told. */
async function plainServer() {
  const seen = { auth: [] as string[], mails: [] as string[] };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, done) {
      seen.auth.push(`${auth.username}:${auth.password}`);
      done(null, { user: auth.username });
    },
    onData(stream, _session, done) {
      let text = "";
      stream.on("data", (d: Uint8Array) => text += new TextDecoder().decode(d));
      stream.on("end", () => {
        seen.mails.push(text);
        done();
      });
    },
  });
  const { promise, resolve } = Promise.withResolvers<void>();
  server.listen(0, "127.0.0.1", () => resolve());
  await promise;
  const port = (server.server.address() as { port: number }).port;
  return { port, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const MAIL = {
  to: "someone@example.com",
  subject: "Reset your password",
  text: "https://timers.test/reset?token=one-time-secret",
  link: "https://timers.test/reset?token=one-time-secret",
};

Deno.test("smtp:// without ?tls=off refuses a server that offers no STARTTLS: no password, no link in clear text", async () => {
  const s = await plainServer();
  try {
    const mailer = smtpMailer(`smtp://mailer:s3cret-pass@127.0.0.1:${s.port}/`, "no-reply@timers.test");
    await assert.rejects(mailer.send(MAIL));
    assert.deepEqual(s.seen.auth, [], "the SMTP password was not sent");
    assert.deepEqual(s.seen.mails, [], "the mail was not sent");
  } finally {
    await s.close();
  }
});

Deno.test("smtp://…?tls=off talks plain SMTP to a local relay, as asked", async () => {
  const s = await plainServer();
  try {
    const mailer = smtpMailer(`smtp://127.0.0.1:${s.port}/?tls=off`, "no-reply@timers.test");
    await mailer.send(MAIL);
    assert.equal(s.seen.mails.length, 1);
  } finally {
    await s.close();
  }
});
