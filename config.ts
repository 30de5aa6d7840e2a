/** Service configuration: one typed object read from environment variables, with defaults. */

/** Limits of one plan; `null` means unlimited. */
export interface PlanLimits {
  /** Whether the plan may call the timer endpoints. */
  api: boolean;
  per_minute: number | null;
  per_day: number | null;
  timers: number | null;
}

export type PlanName = "free" | "pro" | "enterprise";
export const PLAN_NAMES: readonly PlanName[] = ["free", "pro", "enterprise"];

/** Plans of DECISIONS.md; `anonymous` applies per client IP to unauthenticated requests. */
export type Plans = Record<PlanName | "anonymous", PlanLimits>;

export const DEFAULT_PLANS: Plans = {
  anonymous: { api: false, per_minute: 30, per_day: 1000, timers: 0 },
  free: { api: false, per_minute: 30, per_day: 1000, timers: 0 },
  pro: { api: true, per_minute: 60, per_day: 10000, timers: 50 },
  enterprise: { api: true, per_minute: 600, per_day: null, timers: null },
};

export interface Config {
  port: number;
  /** Public address of the site, no trailing slash. */
  siteUrl: string;
  /** Deno KV location: a file path, ":memory:", a KV Connect URL, or undefined for the platform default. */
  kvPath: string | undefined;
  plans: Plans;
  /** Delays in seconds before attempts 2…n of a webhook delivery. */
  webhookRetryDelays: number[];
  webhookTimeoutMs: number;
  /** Webhook attempts in flight at once per process. */
  webhookConcurrency: number;
  /** Lets deliveries reach loopback/private addresses and plain http URLs (development, tests). */
  webhookAllowPrivate: boolean;
  /** Take the client IP from X-Forwarded-For. */
  trustProxy: boolean;
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
}

/** A configuration error names the variable and the value it could not use. */
export class ConfigError extends Error {}

function int(env: Record<string, string | undefined>, name: string, def: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  }
  return n;
}

function flag(env: Record<string, string | undefined>, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return def;
  if (["1", "true", "yes"].includes(raw.toLowerCase())) return true;
  if (["0", "false", "no"].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

function limit(v: unknown, where: string): number | null {
  if (v === null) return null;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  throw new ConfigError(`PLANS: ${where} must be a whole number ≥ 0 or null, got ${JSON.stringify(v)}`);
}

/** Merges a PLANS JSON override into the default plan table. */
export function parsePlans(raw: string | undefined): Plans {
  const plans: Plans = structuredClone(DEFAULT_PLANS);
  if (!raw) return plans;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('PLANS must be JSON, e.g. {"pro":{"per_minute":120}}');
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError("PLANS must be a JSON object keyed by plan name");
  }
  for (const [name, over] of Object.entries(parsed)) {
    if (!(name in plans)) {
      throw new ConfigError(`PLANS: unknown plan "${name}" (known: ${Object.keys(plans).join(", ")})`);
    }
    if (typeof over !== "object" || over === null) throw new ConfigError(`PLANS: ${name} must be an object`);
    const plan = plans[name as keyof Plans];
    for (const [k, v] of Object.entries(over)) {
      if (k === "api") {
        if (typeof v !== "boolean") throw new ConfigError(`PLANS: ${name}.api must be true or false`);
        plan.api = v;
      } else if (k === "per_minute" || k === "per_day" || k === "timers") {
        plan[k] = limit(v, `${name}.${k}`);
      } else {
        throw new ConfigError(`PLANS: unknown setting "${name}.${k}" (per_minute, per_day, timers, api)`);
      }
    }
  }
  return plans;
}

function delays(raw: string | undefined): number[] {
  if (raw === undefined || raw === "") return [60, 300, 1800, 7200];
  const list = raw.split(",").map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isFinite(n) || n < 0) || list.length > 20) {
    throw new ConfigError(`WEBHOOK_RETRY_DELAYS must be comma-separated seconds, got "${raw}"`);
  }
  return list;
}

/** Reads the configuration from `env` (defaults to the process environment). */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const port = int(env, "PORT", 8000);
  const scheduler = env.SCHEDULER || "auto";
  if (scheduler !== "auto" && scheduler !== "queue" && scheduler !== "sweep") {
    throw new ConfigError(`SCHEDULER must be "auto", "queue" or "sweep", got "${scheduler}"`);
  }
  return {
    port,
    siteUrl: (env.SITE_URL || `http://localhost:${port}`).replace(/\/+$/, ""),
    kvPath: env.KV_PATH === undefined ? "./data/timers.sqlite3" : env.KV_PATH || undefined,
    plans: parsePlans(env.PLANS),
    webhookRetryDelays: delays(env.WEBHOOK_RETRY_DELAYS),
    webhookTimeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 10_000, 1),
    webhookConcurrency: int(env, "WEBHOOK_CONCURRENCY", 64, 1),
    webhookAllowPrivate: flag(env, "WEBHOOK_ALLOW_PRIVATE", false),
    trustProxy: flag(env, "TRUST_PROXY", false),
    scheduler,
    sweepIntervalMs: int(env, "SWEEP_INTERVAL_MS", 1000, 10),
    rateLimitFlushMs: int(env, "RATE_LIMIT_FLUSH_MS", 250, 10),
    timerTtlSeconds: int(env, "TIMER_TTL_SECONDS", 30 * 86400, 1),
    logRequests: flag(env, "LOG_REQUESTS", true),
  };
}

/** A configuration for tests: in-memory KV, private webhooks allowed, quiet logs. */
export function testConfig(over: Partial<Config> = {}): Config {
  return { ...loadConfig({ KV_PATH: ":memory:", WEBHOOK_ALLOW_PRIVATE: "1", LOG_REQUESTS: "0" }), ...over };
}
