/**
 * The parts of the OpenAPI document that are not a route: info, licence, security, shared response
 * headers, error responses with examples, and the webhooks. Routes build their responses with
 * `ok()` and `errors()` so every operation documents the same headers.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../../lib/http.ts";
import { ErrorEnvelope } from "./schemas.ts";
import { registerWebhooks } from "./webhook_schemas.ts";

export const API_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Timer Service API",
    version: "1.0.0",
    summary: "Countdown, event and interval timers with live pages and signed webhooks.",
    description: "Authenticate with `Authorization: Bearer <API_KEY>`. Errors always have the shape " +
      '`{"error":{"code","message","field"}}`. Guides (quick start, webhooks and their verification, the widget, ' +
      "rate limits) are at [/docs/guides](/docs/guides).",
    license: { name: "MIT", identifier: "MIT" },
  },
  security: [{ bearer: [] }],
  tags: [
    { name: "Timers", description: "Create, read, change and delete timers" },
    { name: "Rundowns", description: "Timers run one after another on one stage URL, linked or cued" },
    { name: "Webhooks", description: "Delivery log, test sends and redelivery" },
    { name: "Account", description: "The account's API request log" },
    { name: "Public events", description: "Holidays and international days; no key needed" },
  ],
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

const HEADERS: Record<string, { description: string; schema: Record<string, unknown>; required?: boolean }> = {
  "X-Request-Id": {
    description: "The request's id (yours if you sent a valid X-Request-Id); quote it when reporting a problem",
    schema: { type: "string", pattern: "^[\\w.-]{1,64}$" },
    required: true,
  },
  "X-RateLimit-Limit": {
    description:
      "Requests allowed in the current minute window (a plan without a per-minute limit, or a 429 for a spent day: the day's; absent when unlimited)",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Remaining": {
    description:
      "Requests left in the current minute window (a plan without a per-minute limit: the day's; absent when unlimited)",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Reset": {
    description:
      "Unix epoch seconds at which the window of X-RateLimit-Limit and -Remaining resets: the current minute's, or the UTC day's (a plan without a per-minute limit, or a 429 for a spent day)",
    schema: { type: "integer", minimum: 0 },
  },
  "Location": {
    description: "The created timer's URL",
    schema: { type: "string", format: "uri" },
    required: true,
  },
  "Retry-After": {
    description: "Seconds to wait before retrying",
    schema: { type: "integer", minimum: 0 },
    required: true,
  },
  "WWW-Authenticate": {
    description: "The Bearer challenge",
    schema: { type: "string", pattern: "^Bearer" },
    required: true,
  },
  "Allow": {
    description: "The methods this path answers",
    schema: { type: "string" },
    required: true,
  },
};

const RATE = {
  "X-RateLimit-Limit": ref("X-RateLimit-Limit"),
  "X-RateLimit-Remaining": ref("X-RateLimit-Remaining"),
  "X-RateLimit-Reset": ref("X-RateLimit-Reset"),
};
const COMMON = { "X-Request-Id": ref("X-Request-Id"), ...RATE };

/** A JSON success response with the common headers (plus `Location` for 201). */
export function ok<T>(schema: T, description: string, opts: { location?: boolean } = {}) {
  return {
    description,
    headers: opts.location ? { ...COMMON, Location: ref("Location") } : COMMON,
    content: { "application/json": { schema } },
  };
}

const DEFAULT_TEXT: Record<number, string> = {
  400: "Malformed JSON, a body that is not UTF-8, or a Content-Type other than JSON",
  401: "Missing or invalid credentials",
  403: "The plan has no API access",
  404: "Timer not found or expired (also for ids of any other shape)",
  405: "Another method on this path; the Allow header lists the ones it answers",
  409: "The action is not valid in the timer's current state (error.field is action or state)",
  413: "Body over 16 KiB",
  422: "A field is invalid; error.field names the first offending field",
  429: "Rate limit exceeded; wait Retry-After seconds",
  500: "Unexpected error; the message quotes the request id",
  503: "The service cannot reach its storage right now; retry later",
};

/**
 * The 401 and 403 of a route with no timer or rundown in its path: a control token is no
 * credential there (the gate cannot tell a real one from a made-up one), so it gets 401.
 */
export const KEY_ONLY = {
  401: "Missing or invalid credentials, or a control token (only an API key is accepted here)",
  403: "The plan has no API access",
};

const EXAMPLES: Record<number, { message: string; field?: string }> = {
  400: { message: 'limit must be an integer from 1 to 100, got "abc"', field: "limit" },
  401: { message: "missing API key: send Authorization: Bearer <API_KEY>" },
  403: { message: "the free plan has no API access; upgrade to pro or enterprise" },
  404: { message: "timer not found or expired" },
  405: { message: "PUT is not allowed on /api/v1/timers/tmr_4fGh8KzQ2mN7pX1a; use GET, PATCH, DELETE" },
  409: { message: "cannot pause a timer that is idle; start it first", field: "action" },
  413: { message: "the request body must be at most 16 KiB" },
  422: { message: "duration must be an integer from 1 to 31536000 (seconds), got 0", field: "duration" },
  429: { message: "rate limit of 60 requests per minute exceeded; retry in 12 s" },
  500: { message: "unexpected error; quote request id req_8HfJ2kLm9QpR3sTv when reporting it" },
  503: { message: "the database cannot be reached right now; retry later" },
};

/**
 * Error responses for an operation: the statuses it can answer with what each means for it
 * (`text` overrides the default wording), plus 405, 429, 500 and 503, which every operation can meet.
 */
export function errors(codes: number[], text: Record<number, string> = {}) {
  const all = [...new Set([...codes, 405, 429, 500, 503])].sort((a, b) => a - b);
  return Object.fromEntries(all.map((code) => {
    const headers: Record<string, unknown> = code >= 500 ? { "X-Request-Id": ref("X-Request-Id") } : { ...COMMON };
    if (code === 401) headers["WWW-Authenticate"] = ref("WWW-Authenticate");
    if (code === 405) headers.Allow = ref("Allow");
    if (code === 429) headers["Retry-After"] = ref("Retry-After");
    const example = { error: { code, ...EXAMPLES[code] } };
    return [code, {
      description: text[code] ?? DEFAULT_TEXT[code],
      headers,
      content: { "application/json": { schema: ErrorEnvelope, examples: { [String(code)]: { value: example } } } },
    }];
  }));
}

/** Registers the security scheme, headers and webhooks, and serves the document at /openapi.json (built once). */
export function documentApi(api: OpenAPIHono<AppEnv>, siteUrl: () => string) {
  api.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API key (tsk_…), or a timer's control token (tct_…) for that timer's GET and state endpoints",
  });
  for (const [name, h] of Object.entries(HEADERS)) {
    api.openAPIRegistry.registerComponent("headers", name, h);
  }
  registerWebhooks(api.openAPIRegistry as unknown as Parameters<typeof registerWebhooks>[0]);
  // Built on the first request, once every route is registered; building it per request cost ≈ 15 ms of the event loop.
  let doc: string | undefined;
  api.get("/openapi.json", (c) => {
    doc ??= JSON.stringify(api.getOpenAPI31Document(openApiConfig(siteUrl())));
    return c.body(doc, 200, { "content-type": "application/json" });
  });
}

/** The document's top level for a site. */
export function openApiConfig(siteUrl: string) {
  return { ...API_INFO, servers: [{ url: `${siteUrl}/api/v1` }] };
}
