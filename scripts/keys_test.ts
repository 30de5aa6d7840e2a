import assert from "node:assert/strict";
import { Store } from "../lib/kv/store.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function keys(path: string, ...args: string[]) {
  return await keysWith(path, "", ...args);
}

/** Runs the CLI with `stdin` as its standard input. */
async function keysWith(path: string, stdin: string, ...args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/keys.ts", ...args],
    cwd: ROOT,
    env: { KV_PATH: path, SITE_URL: "https://timers.test" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("deno task keys creates, lists, re-plans, rotates and revokes keys on the KV file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite3`;
  const created = await keys(path, "create", "--plan", "pro", "--name", "Acme", "--json");
  assert.equal(created.code, 0, created.stderr);
  const c = JSON.parse(created.stdout);
  assert.deepEqual(Object.keys(c).sort(), ["account_id", "api_key", "plan", "webhook_secret"]);
  assert.match(c.api_key, /^tsk_[0-9A-Za-z]{32}$/);
  assert.match(c.webhook_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(c.plan, "pro");

  const listed = await keys(path, "list", "--json");
  const rows = JSON.parse(listed.stdout);
  assert.equal(rows[0].account_id, c.account_id);
  assert.equal(rows[0].keys[0].key_prefix, c.api_key.slice(0, 12));
  assert.ok(!listed.stdout.includes(c.api_key), "list never shows the key");
  assert.ok(!listed.stdout.includes(c.webhook_secret.slice(6)), "nor the secret");

  const kv = await Deno.openKv(path);
  const raw: string[] = [];
  for await (const e of kv.list({ prefix: [] })) raw.push(JSON.stringify(e));
  kv.close();
  assert.ok(!raw.join().includes(c.api_key), "only a hash of the key is stored");

  assert.equal((await keys(path, "plan", c.account_id, "enterprise")).code, 0);
  const rotated = await keys(path, "rotate-secret", c.api_key.slice(0, 12), "--json");
  assert.notEqual(JSON.parse(rotated.stdout).webhook_secret, c.webhook_secret);
  // Rotated again within the grace: three secrets sign, the header keeps the oldest, and the CLI says so.
  const twice = await keys(path, "rotate-secret", c.account_id);
  assert.match(twice.stdout, /3 secrets are in force: .*X-Service-Signature keeps\s+the oldest/s);
  const short = await keys(path, "revoke", c.api_key.slice(0, 6));
  assert.notEqual(short.code, 0);
  assert.match(short.stderr, /a key prefix has at least 8 characters/);
  assert.equal((await keys(path, "revoke", c.api_key.slice(0, 12))).code, 0);
  const after = JSON.parse((await keys(path, "list", "--json")).stdout)[0];
  assert.equal(after.plan, "enterprise");
  assert.equal(after.keys[0].revoked, true);

  // The account outlives its revoked key: a new key for it, named.
  const again = await keys(path, "create", "--account", c.account_id, "--name", "replacement", "--json");
  assert.equal(again.code, 0, again.stderr);
  const k2 = JSON.parse(again.stdout);
  assert.equal(k2.account_id, c.account_id);
  assert.notEqual(k2.api_key, c.api_key);
  const both = JSON.parse((await keys(path, "list", "--json")).stdout)[0].keys;
  assert.deepEqual(both.map((k: { name: string; revoked: boolean }) => [k.name, k.revoked]), [
    ["default", true],
    ["replacement", false],
  ]);
  const unknown = await keys(path, "create", "--account", "acct_nobody000000");
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no account with id or key prefix "acct_nobody000000"/);

  const bad = await keys(path, "create", "--plan", "gold", "--name", "X");
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /plan must be one of free, pro, enterprise/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task keys prints names without control characters: a stored name's escapes never reach the terminal", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite3`;
  const c = JSON.parse((await keys(path, "create", "--plan", "pro", "--name", "Acme", "--json")).stdout);
  // A key named before names were checked (the dashboard took any text): escapes, a carriage return, a bidi override.
  const kv = await Deno.openKv(path);
  const store = new Store(kv);
  const [k] = await store.accounts.listKeys(c.account_id);
  await store.accounts.updateKey(
    c.account_id,
    k.id,
    (x) => ({ ...x, name: "ci\x1b]0;owned\x07\x1b[2J\rfake\u202Eline" }),
  );
  kv.close();
  for (const args of [["list"], ["revoke", c.api_key.slice(0, 12)]]) {
    const out = await keys(path, ...args);
    assert.equal(out.code, 0, out.stderr);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(out.stdout, /[\x00-\x08\x0b-\x1f\x7f\u202e]/, `keys ${args[0]}`);
    assert.match(out.stdout, /ci\]0;owned\[2Jfakeline/, `keys ${args[0]} still names the key`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task keys login gives a CLI account a login: a password from stdin, or a mailed link", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite3`;
  const c = JSON.parse((await keys(path, "create", "--plan", "pro", "--name", "Ops", "--json")).stdout);
  const set = await keysWith(
    path,
    "operator pass phrase\n",
    "login",
    c.account_id,
    "--email",
    "Ops@Example.com",
    "--password-stdin",
  );
  assert.equal(set.code, 0, set.stderr);
  assert.match(set.stdout, /ops@example\.com signs in to acct_\w+ with the password read from stdin/);
  assert.ok(!set.stdout.includes("operator pass phrase"), "the password is never printed");

  const kv = await Deno.openKv(path);
  const { Store } = await import("../lib/kv/store.ts");
  const { Users } = await import("../lib/accounts/users.ts");
  const { testConfig } = await import("../config.ts");
  const store = new Store(kv);
  const users = new Users({
    store,
    config: testConfig(),
    now: Date.now,
    mailer: { kind: "log", send: () => Promise.resolve() },
  });
  const user = await users.signIn("ops@example.com", "operator pass phrase", "127.0.0.1");
  assert.equal(user.account_id, c.account_id);

  // Without a password: a link to set one, logged by the development mailer (no SMTP_URL).
  const link = await keysWith(path, "", "login", c.account_id, "--email", "second@example.com");
  assert.equal(link.code, 0, link.stderr);
  const logged = JSON.parse(link.stdout.split("\n")[0]);
  assert.match(logged.link, /^https:\/\/timers\.test\/reset\?token=[0-9A-Za-z]{43}$/);
  assert.match(link.stdout, /second@example\.com signs in to acct_\w+; a link to set the password was logged above/);
  const taken = await keysWith(path, "", "login", "acct_nobody000000", "--email", "x@example.com");
  assert.equal(taken.code, 1);
  kv.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno task keys --help prints the usage; an unknown option says so in one line, no stack trace", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite3" });
  for (const args of [["--help"], ["rotate-secret", "--help"], ["-h"]]) {
    const r = await keys(path, ...args);
    assert.equal(r.code, 0, args.join(" "));
    assert.match(r.stdout, /^usage: deno task keys/, args.join(" "));
  }
  const bad = await keys(path, "list", "--colour");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^keys: Unknown option '--colour'/);
  assert.doesNotMatch(bad.stderr, /\bat \w+ \(|parse_args/, "no stack trace");
  await Deno.remove(path);
});
