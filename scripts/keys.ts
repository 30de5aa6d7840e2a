/**
 * deno task keys create --plan pro --name "Acme" [--json] | create --account <id> [--name N] [--json]
 *   | list [--json] | revoke <key-prefix-or-account-id> | plan <id> <plan> | rotate-secret <id> [--json]
 *   | retire-secret <id> | login <account-id> --email E [--password-stdin]
 * Works on the same KV_PATH as the server. Keys and secrets are printed once, on creation or rotation.
 */
import { parseArgs } from "node:util";
import { loadConfigOrExit } from "../config.ts";
import {
  createAccount,
  createKey,
  findAccount,
  parsePlan,
  retirePreviousSecret,
  revokeByRef,
  rotateSecret,
  setPlan,
  signingSecrets,
} from "../lib/accounts/accounts.ts";
import { createMailer } from "../lib/accounts/mailer.ts";
import { Users } from "../lib/accounts/users.ts";
import { openKv } from "../lib/kv/open.ts";
import { Store } from "../lib/kv/store.ts";
import { displayable } from "../lib/timers/validation.ts";

const USAGE = `usage: deno task keys <command>
  create --plan <free|pro|enterprise> --name <name> [--json]   new account, API key and webhook secret
  create --account <account-id> [--name <key name>] [--json]   a new key for an existing account (its timers stay its own)
  list [--json]                                                accounts and their keys (never secrets)
  revoke <key-prefix-or-account-id>                            that key (or every key of the account) stops working
  plan <key-prefix-or-account-id> <free|pro|enterprise>        change the plan
  rotate-secret <key-prefix-or-account-id> [--json]            new webhook secret; X-Service-Signature keeps the
                                                               previous one for 24 h, webhook-signature carries both
                                                               (at once, if the previous was never shown to anyone)
  retire-secret <key-prefix-or-account-id>                     end that grace now: only the newest secret signs
  login <key-prefix-or-account-id> --email <email> [--password-stdin]
                                                               let someone sign in to the account on the site: the
                                                               password is read from stdin, or a link to set it is
                                                               mailed (SMTP_URL; without it the link is logged)`;

// deno-lint-ignore no-console
const out = (s: string) => console.log(s);

export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        plan: { type: "string" },
        name: { type: "string" },
        json: { type: "boolean" },
        account: { type: "string" },
        email: { type: "string" },
        "password-stdin": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    // An unknown option or a missing value: one line and the usage, not a stack trace.
    // deno-lint-ignore no-console
    console.error(`keys: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const [cmd, ...rest] = positionals;
  if (
    values.help || !cmd ||
    !["create", "list", "revoke", "plan", "rotate-secret", "retire-secret", "login"].includes(cmd)
  ) {
    out(USAGE);
    return cmd && !values.help ? 2 : 0;
  }
  const config = loadConfigOrExit();
  const kv = await openKv(config);
  const store = new Store(kv);
  try {
    if (cmd === "create" && values.account) {
      const account = await findAccount(store, values.account);
      const { key, secret } = await createKey(store, account.id, values.name ?? "cli");
      if (values.json) out(JSON.stringify({ account_id: account.id, key_id: key.id, api_key: secret }));
      else {
        out(`account: ${account.id} (${account.name}, ${account.plan})`);
        out(`api key: ${secret}   (${key.name}, ${key.id})`);
        out("Store it now: it is not shown again (only a hash of the key is kept).");
      }
    } else if (cmd === "create") {
      if (!values.name) throw new Error("--name is required");
      const { account, apiKey, webhookSecret } = await createAccount(store, {
        plan: parsePlan(values.plan),
        name: values.name,
      });
      if (values.json) {
        out(
          JSON.stringify({
            account_id: account.id,
            api_key: apiKey,
            webhook_secret: webhookSecret,
            plan: account.plan,
          }),
        );
      } else {
        out(`account:        ${account.id} (${account.name}, ${account.plan})`);
        out(`api key:        ${apiKey}`);
        out(`webhook secret: ${webhookSecret}`);
        out("Store both now: they are not shown again (only a hash of the key is kept).");
      }
    } else if (cmd === "list") {
      const rows = [];
      for (const a of await store.accounts.list()) {
        const keys = await store.accounts.listKeys(a.id);
        const users = await store.users.ofAccount(a.id);
        rows.push({
          account_id: a.id,
          name: a.name,
          plan: a.plan,
          created_at: new Date(a.created_at).toISOString(),
          logins: users.map((u) => u.email),
          keys: keys.map((k) => ({
            key_id: k.id,
            name: k.name,
            key_prefix: k.prefix,
            created_at: new Date(k.created_at).toISOString(),
            last_used_at: k.last_used_at === null ? null : new Date(k.last_used_at).toISOString(),
            revoked: k.revoked_at !== null,
          })),
        });
      }
      if (values.json) out(JSON.stringify(rows));
      else {
        for (const r of rows) {
          // Key names are typed by users; those stored before they were checked may hold escapes: none reaches the terminal.
          const name = displayable(r.name);
          out(`${r.account_id}  ${r.plan.padEnd(10)} ${name}${r.logins.length ? `  <${r.logins.join(", ")}>` : ""}`);
          for (const k of r.keys) {
            out(`    ${k.key_prefix}…  ${k.revoked ? "REVOKED " : ""}${displayable(k.name)} (${k.key_id})`);
          }
        }
      }
    } else if (cmd === "revoke") {
      if (!rest[0]) throw new Error("revoke needs a key prefix or account id");
      for (const k of await revokeByRef(store, rest[0])) {
        out(
          `revoked ${k.prefix}… (${
            displayable(k.name)
          }) of ${k.account_id}; running servers stop accepting it within 5 s`,
        );
      }
    } else if (cmd === "plan") {
      if (!rest[0]) throw new Error("plan needs a key prefix or account id and a plan");
      const a = await setPlan(store, rest[0], parsePlan(rest[1]));
      out(`${a.id} is now on the ${a.plan} plan`);
    } else if (cmd === "login") {
      if (!rest[0] || !values.email) throw new Error("login needs an account id (or key prefix) and --email");
      const account = await findAccount(store, rest[0]);
      // Never from argv: it would sit in the shell history and the process list.
      const password = values["password-stdin"] ? await readPassword() : null;
      const users = new Users({
        store,
        config,
        now: Date.now,
        mailer: createMailer({
          smtpUrl: config.smtpUrl,
          siteUrl: config.siteUrl,
          log: (line) => out(JSON.stringify(line)),
          now: Date.now,
        }),
      });
      const { user, mailed } = await users.setLogin(account.id, values.email, password);
      out(
        mailed
          ? `${user.email} signs in to ${account.id}; a link to set the password was ${
            config.smtpUrl ? "mailed" : "logged above (no SMTP_URL)"
          }`
          : `${user.email} signs in to ${account.id} with the password read from stdin`,
      );
    } else if (cmd === "retire-secret") {
      if (!rest[0]) throw new Error("retire-secret needs a key prefix or account id");
      const { account, retired } = await retirePreviousSecret(store, rest[0]);
      out(
        retired
          ? `retired ${retired} previous webhook secret(s) of ${account.id}: only the newest signs, from now on`
          : `${account.id} has no previous webhook secret in its grace period: nothing to retire`,
      );
    } else {
      if (!rest[0]) throw new Error("rotate-secret needs a key prefix or account id");
      const now = Date.now();
      const { account, webhookSecret } = await rotateSecret(store, rest[0], now);
      if (values.json) out(JSON.stringify({ account_id: account.id, webhook_secret: webhookSecret }));
      else {
        out(`new webhook secret for ${account.id}: ${webhookSecret}`);
        const inForce = signingSecrets(account, now).standard.length;
        if (inForce === 1) {
          out("Nobody had been shown the previous secret, so the new one signs both headers from now on.");
        } else if (inForce === 2) {
          out("For 24 hours X-Service-Signature keeps the previous secret and webhook-signature carries both;");
          out("then (or after `deno task keys retire-secret`) the new one signs both headers.");
        } else {
          out(`${inForce} secrets are in force: webhook-signature carries all of them, X-Service-Signature keeps`);
          out("the oldest; 24 hours after this rotation (or after `deno task keys retire-secret`) the new one");
          out("alone signs both headers.");
        }
      }
    }
    return 0;
  } catch (e) {
    // deno-lint-ignore no-console
    console.error(`keys ${cmd}: ${(e as Error).message}`);
    return 1;
  } finally {
    kv.close();
  }
}

/** The first line of stdin (the password), without its line break. */
async function readPassword(): Promise<string> {
  const text = await new Response(Deno.stdin.readable).text();
  const line = text.split(/\r?\n/)[0];
  if (!line) throw new Error("--password-stdin: nothing on stdin");
  return line;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
