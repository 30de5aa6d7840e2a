/** Service configuration: one typed object read from environment variables, with defaults. */

/** Limits of one plan; `null` means unlimited. */
export interface PlanLimits {
  /** Whether the plan may call the timer endpoints. */
  api: boolean;
  per_minute: number | null;
  per_day: number | null;
  timers: number | null;
  /** Clock-driven webhooks (round ends, completions) an account's timers may send a day. */
  webhooks_per_day: number | null;
}

export type PlanName = "free" | "pro" | "enterprise";
export const PLAN_NAMES: readonly PlanName[] = ["free", "pro", "enterprise"];

/** Plans of DECISIONS.md; `anonymous` applies per client IP to unauthenticated requests. */
export type Plans = Record<PlanName | "anonymous", PlanLimits>;

export const DEFAULT_PLANS: Plans = {
  anonymous: { api: false, per_minute: 30, per_day: 1000, timers: 0, webhooks_per_day: 0 },
  free: { api: false, per_minute: 30, per_day: 1000, timers: 0, webhooks_per_day: 0 },
  pro: { api: true, per_minute: 60, per_day: 10000, timers: 50, webhooks_per_day: 100_000 },
  enterprise: { api: true, per_minute: 600, per_day: null, timers: null, webhooks_per_day: null },
};

export interface Config {
  port: number;
  /** Address the server binds to (`0.0.0.0`: every IPv4 interface). */
  hostname: string;
  /** Public address of the site, no trailing slash. */
  siteUrl: string;
  /** Deno KV location: a file path, ":memory:", a KV Connect URL, or undefined for the platform default. */
  kvPath: string | undefined;
  /**
   * A second server may run on the same local KV file (KV_SHARED_FILE=1). Off by default: a server
   * holds a lock beside the file and another refuses to start, since `kv.watch` sees only its own
   * process's writes there and its live pages would go stale.
   */
  kvSharedFile: boolean;
  /**
   * Where instances sharing a KV take their slot of this machine (lib/webhooks/instance_slot.ts),
   * so a restarted one takes over a killed one's claims at once. Undefined (INSTANCE_DIR empty): none.
   */
  instanceDir: string | undefined;
  plans: Plans;
  /** Delays in seconds before attempts 2…n of a webhook delivery. */
  webhookRetryDelays: number[];
  webhookTimeoutMs: number;
  /** Webhook attempts in flight at once per process. */
  webhookConcurrency: number;
  /** Lets deliveries reach loopback/private addresses and plain http URLs (development, tests). */
  webhookAllowPrivate: boolean;
  /**
   * Number of proxies in front of the server (0: none). The client IP is the entry the
   * nearest of them appended to X-Forwarded-For, counted from the right.
   */
  trustProxyHops: number;
  /** Whether people may create accounts on the site; "closed" leaves it to the operator's CLI. */
  signup: "open" | "closed";
  /**
   * The plan a new sign-up gets. Unset: the first account signed up on the instance is its
   * administrator's and gets enterprise; every later one gets free.
   */
  signupPlan: PlanName | undefined;
  /** Who customers ask to change their plan (an email, a URL or a line of text), shown where a plan refuses. */
  operatorContact: string | undefined;
  /** Sign-ups the process accepts an hour, from all addresses together (SIGNUP_PER_HOUR). */
  signupPerHour: number;
  /** Verification and reset mails visitors can cause an hour, all together (MAILS_PER_HOUR). */
  mailsPerHour: number;
  /** Outgoing mail server (`smtp://` or `smtps://`); undefined: a development mailer logs the links. */
  smtpUrl: string | undefined;
  /**
   * "queue" adds kv.enqueue wake-ups; "sweep" relies on in-process timers and the sweep only
   * (Deno Deploy's KV has no queues); "auto" probes the KV at start.
   */
  scheduler: "auto" | "queue" | "sweep";
  /** How often the sweep looks for overdue work, in ms. */
  sweepIntervalMs: number;
  /** How often in-memory rate-limit counts are merged into KV, in ms. */
  rateLimitFlushMs: number;
  /** Lifetime of a timer after creation, in seconds. */
  timerTtlSeconds: number;
  /** Write one JSON log line per request. */
  logRequests: boolean;
  /** Open /live streams allowed per client IP; more answer 429. */
  liveStreamsPerIp: number;
  /** Open /live streams allowed in this process, every address together; more answer 503. */
  liveStreamsMax: number;
  /**
   * Password hashes (≈ 40 ms of the event loop each) a second in this process, every address
   * together; past them sign-in, sign-up, reset and password changes answer 503.
   */
  passwordHashesPerSecond: number;
}

/**
 * Bad configuration: one line per bad variable, each naming the variable, the value and what
 * is allowed (`problems`; the message joins them).
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/** A value as it appears in a message: quoted, control characters escaped, long ones cut. */
function shown(raw: string): string {
  const s = JSON.stringify(raw);
  return s.length > 80 ? `${s.slice(0, 76)}…"` : s;
}

/** Collects one message per bad variable so that all of them are reported at once. */
class Reader {
  problems: string[] = [];
  constructor(readonly env: Env) {}

  /** The variable's value, or undefined when unset or empty. */
  raw(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v === "" ? undefined : v;
  }

  bad(name: string, raw: string, allowed: string) {
    this.problems.push(`${name}=${shown(raw)} is not allowed: ${allowed}`);
  }

  int(name: string, def: number, min: number, max: number, unit = ""): number {
    const raw = this.raw(name);
    if (raw === undefined) return def;
    const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    this.bad(name, raw, `use a whole number${unit} from ${min} to ${max} (default ${def})`);
    return def;
  }

  flag(name: string, def: boolean): boolean {
    const raw = this.raw(name);
    if (raw === undefined) return def;
    const v = raw.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off"].includes(v)) return false;
    this.bad(name, raw, `use 1 or 0 (default ${def ? 1 : 0})`);
    return def;
  }

  oneOf<T extends string>(name: string, choices: readonly T[], def: T): T {
    const raw = this.raw(name);
    if (raw === undefined) return def;
    const v = raw.trim().toLowerCase();
    if ((choices as readonly string[]).includes(v)) return v as T;
    this.bad(name, raw, `use ${choices.slice(0, -1).join(", ")} or ${choices.at(-1)} (default ${def})`);
    return def;
  }
}

function limit(v: unknown, where: string): number | null {
  if (v === null) return null;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  throw new Error(`${where} must be a whole number ≥ 0 or null, got ${JSON.stringify(v)}`);
}

/** Merges a PLANS JSON override into the default plan table; throws ConfigError. */
export function parsePlans(raw: string | undefined): Plans {
  const plans: Plans = structuredClone(DEFAULT_PLANS);
  if (!raw) return plans;
  function fail(why: string): never {
    throw new ConfigError([
      `PLANS=${shown(raw!)} is not allowed: ${why}; use JSON such as {"pro":{"per_minute":120,"timers":200}}`,
    ]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    fail("it is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) fail("it must be a JSON object");
  for (const [name, over] of Object.entries(parsed as object)) {
    if (!(name in plans)) fail(`unknown plan "${name}" (plans: ${Object.keys(plans).join(", ")})`);
    if (typeof over !== "object" || over === null || Array.isArray(over)) fail(`${name} must be an object`);
    const plan = plans[name as keyof Plans];
    for (const [k, v] of Object.entries(over)) {
      if (k === "api") {
        if (typeof v !== "boolean") fail(`${name}.api must be true or false`);
        plan.api = v;
      } else if (k === "per_minute" || k === "per_day" || k === "timers" || k === "webhooks_per_day") {
        try {
          plan[k] = limit(v, `${name}.${k}`);
        } catch (e) {
          fail((e as Error).message);
        }
      } else {
        fail(`unknown setting "${name}.${k}" (settings: per_minute, per_day, timers, webhooks_per_day, api)`);
      }
    }
  }
  return plans;
}

/** Longest wait a KV queue message can be delayed by (30 days). */
const MAX_RETRY_DELAY = 30 * 86400;

function delays(r: Reader): number[] {
  const def = [60, 300, 1800, 7200];
  const raw = r.raw("WEBHOOK_RETRY_DELAYS");
  if (raw === undefined) return def;
  const list = raw.split(",").map((s) => (/^\s*\d+(\.\d+)?\s*$/.test(s) ? Number(s) : NaN));
  if (list.some((n) => !(n >= 0 && n <= MAX_RETRY_DELAY)) || list.length > 20) {
    r.bad(
      "WEBHOOK_RETRY_DELAYS",
      raw,
      `use up to 20 comma-separated seconds from 0 to ${MAX_RETRY_DELAY}, e.g. ${def.join(",")} (the default)`,
    );
    return def;
  }
  return list;
}

function hostname(r: Reader): string {
  const raw = r.raw("HOSTNAME");
  if (raw === undefined) return "0.0.0.0";
  const v = raw.trim();
  const ipv6 = /^\[?[0-9A-Fa-f:.]+(%\w+)?\]?$/.test(v) && v.includes(":");
  const name = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(
    v,
  );
  if (ipv6) return v.replace(/^\[|\]$/g, "");
  if (name) return v;
  r.bad("HOSTNAME", raw, "use an address of this machine to listen on, e.g. 0.0.0.0 (the default), 127.0.0.1 or ::");
  return "0.0.0.0";
}

function siteUrl(r: Reader, port: number): string {
  const def = `http://localhost:${port}`;
  const raw = r.raw("SITE_URL");
  if (raw === undefined) return def;
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch { /* reported below */ }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname || url.search || url.hash) {
    r.bad("SITE_URL", raw, "use the public http(s) address of the site, e.g. https://timers.example.com");
    return def;
  }
  return url.href.replace(/\/+$/, "");
}

function kvPath(r: Reader): string | undefined {
  const raw = r.env.KV_PATH;
  if (raw === undefined) return "./data/timers.sqlite3";
  if (raw === "") return undefined;
  const allowed = 'use a file path such as ./data/timers.sqlite3, ":memory:", an https:// KV Connect URL, ' +
    "or empty for the platform default";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    try {
      const url = new URL(raw);
      if ((url.protocol === "https:" || url.protocol === "http:") && url.hostname) return raw;
    } catch { /* reported below */ }
    r.bad("KV_PATH", raw, allowed);
    return "./data/timers.sqlite3";
  }
  if (raw.trim() !== raw || raw.endsWith("/") || raw.endsWith("\\") || raw.includes("\0")) {
    r.bad("KV_PATH", raw, allowed);
    return "./data/timers.sqlite3";
  }
  return raw;
}

function operatorContact(r: Reader): string | undefined {
  const raw = r.raw("OPERATOR_CONTACT")?.trim();
  if (!raw) return undefined;
  // Shown on pages as text or a link: one printable line.
  // deno-lint-ignore no-control-regex -- control characters are what is refused
  if (raw.length <= 200 && !/[\x00-\x1f\x7f]/.test(raw)) return raw;
  r.bad("OPERATOR_CONTACT", raw, "use one line of at most 200 characters, e.g. billing@example.com or a URL");
  return undefined;
}

function smtpUrl(r: Reader): string | undefined {
  const raw = r.raw("SMTP_URL");
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch { /* reported below */ }
  if (url && (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname) return url.href;
  // The value may hold a password: show it without one.
  const masked = url?.password ? (url.password = "***", url.href) : raw.replace(/:[^:@/]*@/, ":***@");
  r.bad(
    "SMTP_URL",
    masked,
    "use smtp://user:password@host:587 or smtps://host:465, or leave it unset for the development mailer",
  );
  return undefined;
}

function trustProxyHops(r: Reader): number {
  const raw = r.raw("TRUST_PROXY");
  if (raw === undefined) return 0;
  const v = raw.trim().toLowerCase();
  if (["true", "yes", "on"].includes(v)) return 1;
  if (["false", "no", "off"].includes(v)) return 0;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (n >= 0 && n <= 10) return n;
  r.bad("TRUST_PROXY", raw, "use the number of proxies in front of the server, 0 (none, the default) to 10");
  return 0;
}

/**
 * Reads the configuration from `env` (defaults to the process environment).
 * Throws a ConfigError listing every bad variable.
 */
export function loadConfig(env: Env = Deno.env.toObject()): Config {
  const r = new Reader(env);
  const port = r.int("PORT", 8000, 0, 65535);
  let plans = DEFAULT_PLANS;
  try {
    plans = parsePlans(r.raw("PLANS"));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    r.problems.push(...e.problems);
  }
  const hops = trustProxyHops(r);
  const config: Config = {
    port,
    hostname: hostname(r),
    siteUrl: siteUrl(r, port),
    kvPath: kvPath(r),
    kvSharedFile: r.flag("KV_SHARED_FILE", false),
    instanceDir: r.env.INSTANCE_DIR === undefined ? "./data/instances" : r.env.INSTANCE_DIR || undefined,
    plans: structuredClone(plans),
    webhookRetryDelays: delays(r),
    webhookTimeoutMs: r.int("WEBHOOK_TIMEOUT_MS", 10_000, 1, 600_000, " of milliseconds"),
    webhookConcurrency: r.int("WEBHOOK_CONCURRENCY", 64, 1, 10_000),
    webhookAllowPrivate: r.flag("WEBHOOK_ALLOW_PRIVATE", false),
    trustProxyHops: hops,
    signup: r.oneOf("SIGNUP", ["open", "closed"] as const, "open"),
    signupPlan: r.raw("SIGNUP_PLAN") === undefined ? undefined : r.oneOf("SIGNUP_PLAN", PLAN_NAMES, "free"),
    operatorContact: operatorContact(r),
    signupPerHour: r.int("SIGNUP_PER_HOUR", 100, 1, 1_000_000, " of sign-ups"),
    mailsPerHour: r.int("MAILS_PER_HOUR", 200, 1, 1_000_000, " of mails"),
    smtpUrl: smtpUrl(r),
    scheduler: r.oneOf("SCHEDULER", ["auto", "queue", "sweep"] as const, "auto"),
    sweepIntervalMs: r.int("SWEEP_INTERVAL_MS", 1000, 10, 3_600_000, " of milliseconds"),
    rateLimitFlushMs: r.int("RATE_LIMIT_FLUSH_MS", 250, 10, 60_000, " of milliseconds"),
    timerTtlSeconds: r.int("TIMER_TTL_SECONDS", 30 * 86400, 1, 10 * 366 * 86400, " of seconds"),
    liveStreamsPerIp: r.int("LIVE_STREAMS_PER_IP", 20, 1, 100_000),
    liveStreamsMax: r.int("LIVE_STREAMS_MAX", 10_000, 1, 1_000_000),
    passwordHashesPerSecond: r.int("PASSWORD_HASHES_PER_SECOND", 5, 1, 1000),
    logRequests: r.flag("LOG_REQUESTS", true),
  };
  if (r.problems.length) throw new ConfigError(r.problems);
  return config;
}

/**
 * The configuration of a command-line program: on a bad variable, prints one line per problem
 * on stderr and exits with status 1 (no stack trace).
 */
export function loadConfigOrExit(env?: Env): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // deno-lint-ignore no-console
    for (const p of e.problems) console.error(`Configuration error: ${p}`);
    Deno.exit(1);
  }
}

/**
 * A configuration for tests: in-memory KV, private webhooks allowed, quiet logs, a hashing
 * budget their hand-moved clocks never meet (only the budget's own tests set one), and sign-ups
 * on free (the first-account rule has its own tests: they pass `signupPlan: undefined`).
 */
export function testConfig(over: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ KV_PATH: ":memory:", WEBHOOK_ALLOW_PRIVATE: "1", LOG_REQUESTS: "0" }),
    passwordHashesPerSecond: 1000,
    signupPlan: "free",
    ...over,
  };
}
