import { deepStrictEqual as assertEquals } from "node:assert/strict";
import assert from "node:assert/strict";
import { ConfigError, DEFAULT_PLANS, loadConfig } from "./config.ts";

/** The problems loadConfig reports for `env` (none: the config loaded). */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    assert(e instanceof ConfigError, `expected a ConfigError, got ${e}`);
    return e.problems;
  }
}

/** Asserts that `env` gives exactly one one-line problem naming `name`, the value and `allowed`. */
function rejects(name: string, value: string, allowed: RegExp) {
  const ps = problems({ [name]: value });
  assertEquals(ps.length, 1, `${name}=${value}: ${JSON.stringify(ps)}`);
  const [p] = ps;
  assert(p.startsWith(`${name}=${JSON.stringify(value)} is not allowed: `), p);
  assert(allowed.test(p), `${p} should say ${allowed}`);
  assert(!p.includes("\n"), p);
}

Deno.test("defaults match the README's configuration table", () => {
  const c = loadConfig({});
  assertEquals(c.port, 8000);
  assertEquals(c.hostname, "0.0.0.0");
  assertEquals(c.siteUrl, "http://localhost:8000");
  assertEquals(c.kvPath, "./data/timers.sqlite3");
  assertEquals(c.plans, DEFAULT_PLANS);
  assertEquals(c.webhookRetryDelays, [60, 300, 1800, 7200]);
  assertEquals(c.webhookTimeoutMs, 10000);
  assertEquals(c.webhookConcurrency, 64);
  assertEquals(c.webhookAllowPrivate, false);
  assertEquals(c.trustProxyHops, 0);
  assertEquals([c.signup, c.signupPlan, c.smtpUrl], ["open", undefined, undefined]);
  assertEquals(c.operatorContact, undefined);
  assertEquals(c.scheduler, "auto");
  assertEquals([c.sweepIntervalMs, c.rateLimitFlushMs, c.timerTtlSeconds], [1000, 250, 2592000]);
  assertEquals(c.logRequests, true);
  assertEquals(c.liveStreamsPerIp, 20);
  assertEquals(c.liveStreamsMax, 10_000);
  assertEquals(c.passwordHashesPerSecond, 5);
});

Deno.test("PASSWORD_HASHES_PER_SECOND sets the process's hashing budget", () => {
  assertEquals(loadConfig({ PASSWORD_HASHES_PER_SECOND: "12" }).passwordHashesPerSecond, 12);
  assertEquals(loadConfig({ PASSWORD_HASHES_PER_SECOND: "" }).passwordHashesPerSecond, 5);
  rejects("PASSWORD_HASHES_PER_SECOND", "0", /from 1 to 1000/);
  rejects("PASSWORD_HASHES_PER_SECOND", "2.5", /whole number/);
});

Deno.test("good values are read", () => {
  const c = loadConfig({
    PORT: "9000",
    HOSTNAME: "127.0.0.1",
    SITE_URL: "https://timers.example.com/",
    KV_PATH: ":memory:",
    PLANS: '{"enterprise":{"per_minute":100000,"per_day":null},"pro":{"timers":200,"api":true}}',
    WEBHOOK_RETRY_DELAYS: "0.5, 2,10",
    WEBHOOK_TIMEOUT_MS: "2500",
    WEBHOOK_ALLOW_PRIVATE: "1",
    SIGNUP: "closed",
    SIGNUP_PLAN: "pro",
    OPERATOR_CONTACT: " billing@timers.example.com ",
    SMTP_URL: "smtp://mailer:pw@mail.example.com:587",
    SCHEDULER: "sweep",
    LOG_REQUESTS: "false",
  });
  assertEquals([c.port, c.hostname, c.siteUrl, c.kvPath], [
    9000,
    "127.0.0.1",
    "https://timers.example.com",
    ":memory:",
  ]);
  assertEquals(c.plans.enterprise, {
    api: true,
    per_minute: 100000,
    per_day: null,
    timers: null,
    webhooks_per_day: null,
  });
  assertEquals(c.plans.pro.timers, 200);
  assertEquals(c.webhookRetryDelays, [0.5, 2, 10]);
  assertEquals([c.webhookTimeoutMs, c.webhookAllowPrivate, c.scheduler, c.logRequests], [2500, true, "sweep", false]);
  assertEquals([c.signup, c.signupPlan, c.smtpUrl], ["closed", "pro", "smtp://mailer:pw@mail.example.com:587"]);
  assertEquals(c.operatorContact, "billing@timers.example.com");
  assertEquals(loadConfig({ PORT: "0" }).siteUrl, "http://localhost:0");
  assertEquals(loadConfig({ HOSTNAME: "::" }).hostname, "::");
  assertEquals(loadConfig({ HOSTNAME: "[::1]" }).hostname, "::1");
  assertEquals(loadConfig({ KV_PATH: "" }).kvPath, undefined);
  assertEquals([loadConfig({}).kvSharedFile, loadConfig({ KV_SHARED_FILE: "1" }).kvSharedFile], [false, true]);
  assertEquals(
    loadConfig({ KV_PATH: "https://api.deno.com/databases/x/connect" }).kvPath,
    "https://api.deno.com/databases/x/connect",
  );
  assertEquals(loadConfig({ SMTP_URL: "smtps://mail.example.com" }).smtpUrl, "smtps://mail.example.com");
  // Empty means unset, as in a compose file's `PORT=`.
  assertEquals(loadConfig({ PORT: "", SIGNUP: "" }).port, 8000);
});

Deno.test("TRUST_PROXY is a number of proxy hops; the old 1/true still means one", () => {
  for (const [raw, hops] of [["0", 0], ["1", 1], ["2", 2], ["true", 1], ["yes", 1], ["false", 0]] as const) {
    const c = loadConfig({ TRUST_PROXY: raw });
    assertEquals(c.trustProxyHops, hops, raw);
  }
  rejects("TRUST_PROXY", "-1", /number of proxies/);
  rejects("TRUST_PROXY", "all", /number of proxies/);
  rejects("TRUST_PROXY", "11", /0 \(none, the default\) to 10/);
});

Deno.test("every bad variable gives one line naming it, its value and what is allowed", () => {
  rejects("PORT", "abc", /whole number from 0 to 65535/);
  rejects("PORT", "65536", /from 0 to 65535/);
  rejects("PORT", "80.5", /whole number/);
  rejects("PORT", "-1", /whole number/);
  rejects("HOSTNAME", "not a host", /0\.0\.0\.0/);
  rejects("HOSTNAME", "http://x", /address of this machine/);
  rejects("SITE_URL", "timers.example.com", /http\(s\) address/);
  rejects("SITE_URL", "ftp://timers.example.com", /http\(s\) address/);
  rejects("SITE_URL", "https://timers.example.com/?a=1", /http\(s\) address/);
  rejects("KV_PATH", "redis://cache:6379", /:memory:/);
  rejects("KV_PATH", "./data/", /file path/);
  rejects("KV_SHARED_FILE", "both", /use 1 or 0 \(default 0\)/);
  rejects("PLANS", "{pro:1}", /not JSON; use JSON such as/);
  rejects("PLANS", "[1]", /JSON object/);
  rejects("PLANS", '{"gold":{}}', /unknown plan "gold" \(plans: anonymous, free, pro, enterprise\)/);
  rejects("PLANS", '{"pro":{"per_minute":-5}}', /pro\.per_minute must be a whole number ≥ 0 or null, got -5/);
  rejects("PLANS", '{"pro":{"api":"yes"}}', /pro\.api must be true or false/);
  rejects("PLANS", '{"pro":{"speed":1}}', /unknown setting "pro\.speed"/);
  rejects("WEBHOOK_RETRY_DELAYS", "60,5m", /comma-separated seconds/);
  rejects("WEBHOOK_RETRY_DELAYS", "60,,300", /comma-separated seconds/);
  rejects("WEBHOOK_RETRY_DELAYS", "9999999", /0 to 2592000/);
  rejects("WEBHOOK_TIMEOUT_MS", "0", /from 1 to 600000/);
  rejects("WEBHOOK_TIMEOUT_MS", "10s", /milliseconds/);
  rejects("WEBHOOK_CONCURRENCY", "0", /from 1 to/);
  rejects("WEBHOOK_ALLOW_PRIVATE", "maybe", /use 1 or 0/);
  rejects("SIGNUP", "invite", /use open or closed \(default open\)/);
  rejects("SIGNUP_PLAN", "gold", /use free, pro or enterprise \(default free\)/);
  rejects("OPERATOR_CONTACT", "a\nb", /one line of at most 200 characters/);
  rejects("SMTP_URL", "mail.example.com", /smtp:\/\/user:password@host:587/);
  rejects("SCHEDULER", "cron", /use auto, queue or sweep/);
  rejects("SWEEP_INTERVAL_MS", "1", /from 10 to/);
  rejects("RATE_LIMIT_FLUSH_MS", "x", /whole number/);
  rejects("TIMER_TTL_SECONDS", "0", /from 1 to/);
  rejects("LOG_REQUESTS", "loud", /use 1 or 0/);
  rejects("LIVE_STREAMS_PER_IP", "0", /from 1 to 100000/);
  rejects("LIVE_STREAMS_MAX", "0", /from 1 to 1000000/);
});

Deno.test("a password in a bad SMTP_URL is not repeated", () => {
  const [p] = problems({ SMTP_URL: "http://mailer:hunter2@mail.example.com" });
  assert(p.startsWith("SMTP_URL="), p);
  assert(!p.includes("hunter2"), p);
  assert(p.includes("***"), p);
  const [q] = problems({ SMTP_URL: "mailer:hunter2@mail" });
  assert(!q.includes("hunter2"), q);
});

Deno.test("all bad variables are reported together, one line each", () => {
  const ps = problems({ PORT: "x", SIGNUP: "y", PLANS: "z", TRUST_PROXY: "w" });
  assertEquals(ps.map((p) => p.split("=")[0]).sort(), ["PLANS", "PORT", "SIGNUP", "TRUST_PROXY"]);
  assert(ps.every((p) => !p.includes("\n")));
});
