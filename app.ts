/** Builds the Hono app from its dependencies; no listening here (tests call app.request()). */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Config } from "./config.ts";
import { KeyResolver } from "./lib/accounts/auth.ts";
import { ApiError } from "./lib/errors.ts";
import { type AppEnv, errorHandler, jsonBody, type LogLine, notFoundHandler, requestContext } from "./lib/http.ts";
import { apiGate, ControlTokens } from "./lib/accounts/gate.ts";
import { RateLimiter } from "./lib/accounts/rate_limit.ts";
import type { Store } from "./lib/kv/store.ts";
import { TimerService } from "./lib/timers/service.ts";
import { validationHook } from "./lib/timers/validation.ts";
import { docsRoutes } from "./routes/docs.ts";
import { documentApi } from "./routes/api/v1/openapi.ts";
import { liveRoutes } from "./routes/live.ts";
import { missingPageResponse, pageRoutes } from "./routes/pages/mod.ts";
import { dashboardRoutes } from "./routes/dashboard/mod.ts";
import { accountFrame } from "./routes/dashboard/account.tsx";
import { Auth } from "./lib/accounts/service.ts";
import { authRoutes } from "./routes/auth/mod.ts";
import { timerRoutes } from "./routes/api/v1/timers.ts";
import { showRoutes } from "./routes/api/v1/show_routes.ts";
import { webhookRoutes } from "./routes/api/v1/webhooks.ts";
import { logRoutes } from "./routes/api/v1/logs.ts";
import { eventRoutes } from "./routes/api/v1/events.ts";
import { rundownRoutes } from "./routes/api/v1/rundowns.ts";
import { RundownService } from "./lib/rundowns/service.ts";
import { endpointRoutes } from "./routes/api/v1/endpoints.ts";
import { EndpointService } from "./lib/webhooks/endpoints.ts";
import { Scheduler } from "./lib/webhooks/scheduler.ts";
import { OpenStreams } from "./lib/streams.ts";
import { logRequests, RequestLog } from "./lib/accounts/request_log.ts";
import { keyStillThere } from "./lib/accounts/first_proof.ts";

export interface AppDeps {
  store: Store;
  config: Config;
  /** The clock, injectable for tests. */
  now?: () => number;
  log?: (line: LogLine) => void;
  /** The fetch webhooks are sent with (tests may inject one). */
  fetch?: typeof fetch;
  /** How the scheduler shares the due work with other instances (SchedulerDeps.sharing). */
  sharing?: "shared" | "alone";
}

/** The app and the services it holds (tests and main.ts reach them here). */
export function createApp(deps: AppDeps) {
  const { store, config } = deps;
  const now = deps.now ?? Date.now;
  const log = config.logRequests ? deps.log : undefined;
  const limiter = new RateLimiter(store.kv, { flushMs: config.rateLimitFlushMs, now });
  const scheduler = new Scheduler({
    store,
    config,
    now,
    log: deps.log,
    fetch: deps.fetch,
    limiter,
    sharing: deps.sharing,
  });
  // The service tells this scheduler what its commits scheduled, and claims with its lease while it runs.
  const timers = new TimerService(store, config, now, scheduler);
  const rundowns = new RundownService(timers);
  // Account endpoints take the URLs a timer's webhook_url takes.
  const endpoints = new EndpointService(store.endpoints, (raw) => timers.checkWebhookUrl(raw), now);
  const keys = new KeyResolver(store, { ttlMs: 5000, now });
  const auth = new Auth({ store, config, now, timers, log: deps.log });
  // The SSE streams held open, so that shutdown can end them (they never end by themselves).
  const streams = new OpenStreams(config.liveStreamsMax, config.liveStreamsPerIp);

  const app = new OpenAPIHono<AppEnv>();
  app.use(requestContext({ log, now, trustProxyHops: config.trustProxyHops }));
  app.onError(errorHandler({ log: deps.log }));

  // The account's API request log (lib/accounts/request_log.ts): noted after the answer, written in batches.
  const requestLog = new RequestLog(store, {
    flushMs: config.rateLimitFlushMs,
    failed: (msg, e) => deps.log?.({ time: new Date().toISOString(), level: "error", msg, error: String(e) }),
  });

  const api = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  api.use(logRequests(requestLog, now));
  api.use(apiGate(limiter, config.plans, keys, new ControlTokens(store, { ttlMs: 60_000, now })));
  const body = jsonBody({ maxBytes: 16 * 1024 });
  api.on("POST", ["/timers", "/rundowns", "/webhook_endpoints", "/webhook_endpoints/:endpoint_id/test"], body);
  api.on("PATCH", [
    "/timers/:id",
    "/timers/:id/state",
    "/rundowns/:id",
    "/rundowns/:id/state",
    "/webhook_endpoints/:endpoint_id",
  ], body);
  api.on("PUT", ["/timers/:id/message", "/rundowns/:id/message", "/rundowns/:id/item/message"], body);
  // A test send's body is optional: read as JSON only when one is sent (an empty one is none).
  const bodyOrNone = jsonBody({ maxBytes: 16 * 1024, emptyOk: true });
  api.on("POST", ["/timers/:id/webhook/test"], (c, next) => {
    const sent = c.req.header("content-type") !== undefined || Number(c.req.header("content-length") ?? 0) > 0;
    return sent ? bodyOrNone(c, next) : next();
  });
  // Every other request that sends a body meets the same limit, so a route left out above reads none unbounded.
  api.use(jsonBody({ maxBytes: 16 * 1024, optional: true }));
  timerRoutes(api, timers, config);
  showRoutes(api, timers, config);
  webhookRoutes(api, timers, scheduler);
  logRoutes(api, timers, requestLog, limiter);
  rundownRoutes(api, rundowns, config);
  endpointRoutes(api, endpoints, scheduler.sender, () => config.siteUrl, (p) => keyStillThere(store.kv, p));
  eventRoutes(api, now);
  documentApi(api, () => config.siteUrl);
  app.route("/api/v1", api);

  app.get("/healthz", async (c) => {
    try {
      await store.kv.get(["healthz"]);
      return c.json({ ok: true });
    } catch {
      throw new ApiError(503, "the database cannot be reached right now; retry later");
    }
  });
  liveRoutes(app, { store, config, now, streams });
  pageRoutes(app, { store, config, now, streams });
  authRoutes(app, auth, timers, keys, { "/dashboard/account": accountFrame(auth.sessions.secure) });
  dashboardRoutes(app, { store, config, now, timers, scheduler, keys, limiter, streams, endpoints, requestLog });
  docsRoutes(app);

  app.notFound(notFoundHandler([
    { pattern: /^\/api\/v1\/timers$/, methods: ["GET", "POST"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+$/, methods: ["GET", "PATCH", "DELETE"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+\/state$/, methods: ["PATCH"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+\/actions\/[^/]+$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+\/message$/, methods: ["PUT", "DELETE"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+\/control_token$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+\/deliveries$/, methods: ["GET"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+\/deliveries\/[^/]+\/redeliver$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/timers\/[^/]+\/webhook\/test$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/rundowns$/, methods: ["GET", "POST"] },
    { pattern: /^\/api\/v1\/rundowns\/[^/]+$/, methods: ["GET", "PATCH", "DELETE"] },
    { pattern: /^\/api\/v1\/rundowns\/[^/]+\/state$/, methods: ["PATCH"] },
    { pattern: /^\/api\/v1\/rundowns\/[^/]+\/actions\/[^/]+$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/rundowns\/[^/]+\/message$/, methods: ["PUT", "DELETE"] },
    { pattern: /^\/api\/v1\/rundowns\/[^/]+\/item\/message$/, methods: ["PUT", "DELETE"] },
    { pattern: /^\/api\/v1\/rundowns\/[^/]+\/control_token$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/deliveries$/, methods: ["GET"] },
    { pattern: /^\/api\/v1\/deliveries\/[^/]+\/redeliver$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/requests$/, methods: ["GET"] },
    { pattern: /^\/api\/v1\/webhook_endpoints$/, methods: ["GET", "POST"] },
    { pattern: /^\/api\/v1\/webhook_endpoints\/[^/]+$/, methods: ["GET", "PATCH", "DELETE"] },
    { pattern: /^\/api\/v1\/webhook_endpoints\/[^/]+\/test$/, methods: ["POST"] },
    { pattern: /^\/api\/v1\/openapi\.json$/, methods: ["GET"] },
    { pattern: /^\/api\/v1\/events$/, methods: ["GET"] },
    { pattern: /^\/healthz$/, methods: ["GET"] },
  ], missingPageResponse));

  return {
    app,
    timers,
    rundowns,
    endpoints,
    keys,
    limiter,
    scheduler,
    auth,
    store,
    config,
    now,
    streams,
    requestLog,
  };
}

export type App = ReturnType<typeof createApp>;
