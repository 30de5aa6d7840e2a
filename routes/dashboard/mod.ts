/**
 * /dashboard — the signed-in developer's pages: overview, API keys, webhook secret, timers and
 * their deliveries. Server-rendered; every form is a POST answered with a redirect (Post/Redirect/
 * Get): a secret to show once is held for the session and shown by the next GET of its page only,
 * so a reload or the back button makes and shows nothing again; islands only where the page is live. Every rule
 * is the API's own: the pages call TimerService, the webhook functions and lib/accounts.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Config } from "../../config.ts";
import {
  accountUsage,
  type KeyResolver,
  type RateLimiter,
  retirePreviousSecret,
  revealSecret,
  rotateSecret,
  secretRevealable,
  signingSecrets,
  USAGE_TIMERS_COUNTED,
} from "../../lib/accounts/mod.ts";
import { ApiError } from "../../lib/errors.ts";
import type { AppEnv } from "../../lib/http.ts";
import { asLang } from "../../lib/i18n.ts";
import type { Store } from "../../lib/kv/store.ts";
import type { OpenStreams } from "../../lib/streams.ts";
import type { TimerService } from "../../lib/timers/service.ts";
import type { Scheduler } from "../../lib/webhooks/scheduler.ts";
import type { EndpointService } from "../../lib/webhooks/endpoints.ts";
import {
  type Ctx,
  flash,
  formOf,
  frameOf,
  html,
  langOf,
  onceOf,
  safeBack,
  seeOther,
  setLang,
  takeFlash,
} from "./http.ts";
import { OnceResults } from "../../lib/accounts/once.ts";
import { authTexts } from "../auth/texts.ts";
import { accountPage } from "./account.tsx";
import { keysPage } from "./keys.tsx";
import { problemPage, reauthPage, type Section } from "./layout.tsx";
import { overviewPage, planRefusalPage } from "./overview.tsx";
import { createKey, dashboardGuards, type DashEnv, isFresh, listKeys, revokeKey } from "./session.ts";
import { dashTexts } from "./texts.ts";
import { timerRoutes } from "./timer_routes.ts";
import { showRoutes } from "./timer_show.tsx";
import { webhooksPage } from "./webhooks.tsx";
import { logRoutes } from "./logs.tsx";
import type { RequestLog } from "../../lib/accounts/request_log.ts";
import { ENDPOINT_FORM, type EndpointForm, endpointRoutes, EndpointsSection } from "./endpoints.tsx";

export interface DashboardDeps {
  store: Store;
  config: Config;
  now: () => number;
  timers: TimerService;
  scheduler: Scheduler;
  /** The API's key cache, cleared when a key is revoked so this process refuses it at once. */
  keys: KeyResolver;
  /** The API's rate limiter: its counts are merged into KV before the overview reads them. */
  limiter: RateLimiter;
  /** The process's open event streams: the live feed ends with them at shutdown. */
  streams: OpenStreams;
  /** The account's webhook endpoints (the Webhooks tab). */
  endpoints: EndpointService;
  /** The API request log (the API requests tab). */
  requestLog: RequestLog;
}

/** Mounts the dashboard on the app. */
export function dashboardRoutes(app: Hono<AppEnv>, deps: DashboardDeps) {
  const { store, config, now } = deps;
  const once = onceOf(new OnceResults({ store, now }));
  const dash = new Hono<DashEnv>();
  // Forms are small; a larger body is refused before it is read (a 50 MB form took 1.6 GB to parse).
  dash.use(bodyLimit({
    maxSize: 32 * 1024,
    onError: () => {
      throw new ApiError(413, "the request body is over 32 KiB");
    },
  }));
  dash.use(...dashboardGuards(deps));
  // Ids in dashboard paths are short; a longer one names nothing (and is too long for a KV key).
  dash.use("*", async (c, next) => {
    if (c.req.path.split("/").some((part) => part.length > 64)) throw new ApiError(404, "no such dashboard page");
    await next();
  });
  dash.onError((err, c) => {
    if (!(err instanceof PlanRefused) || !c.get("session")) return errorPage(c, err);
    const account = c.get("session").account;
    const page = planRefusalPage(frameOf(c), {
      plan: account.plan,
      limits: config.plans[account.plan],
      message: err.message,
      contact: config.operatorContact,
    });
    return html(c, page, 403);
  });
  dash.notFound((c) => errorPage(c, new ApiError(404, "no such dashboard page")));

  // A new API key, a secret shown or a webhook endpoint (a feed of the account's events) outlives
  // the session that made it (sign-out everywhere, a password change): only a recent sign-in may
  // do it, not a cookie stolen later. Revoking, retiring, deleting and timers need none.
  const recent = (section: Section, back: string): MiddlewareHandler<DashEnv> => async (c, next) => {
    if (!isFresh(c.get("session").record, now())) return html(c, reauthPage(frameOf(c), section, back), 403);
    await next();
    // Shown only if the session outlived the change: a reset's first proof ends the sessions
    // before it deletes the keys and replaces the secrets, so what a session that ended made
    // meanwhile may have landed after them (shown to nobody, it gives nobody a way in).
    if (!(await store.users.getSession(c.get("session").record.hash))) {
      throw new ApiError(401, "the session ended while this was being done; sign in again");
    }
  };

  dash.get("/", async (c) => {
    const account = c.get("session").account;
    // This process's latest counts first, so the figures include the requests just made.
    await deps.limiter.flush();
    const u = await accountUsage(store, config.plans, account.id, now());
    if (!u) throw new ApiError(404, "account not found");
    const capped = u.timers_stored >= USAGE_TIMERS_COUNTED;
    const newest = (await listKeys(store, account.id)).filter((k) => k.revoked_at === null)
      .sort((a, b) => b.created_at - a.created_at)[0];
    return html(
      c,
      overviewPage(frameOf(c), {
        plan: u.plan,
        limits: u.limits,
        usage: { minute: u.requests_this_minute, day: u.requests_today, timers: u.timers_stored, timersCapped: capped },
        flash: takeFlash(c),
        siteUrl: config.siteUrl,
        keyPrefix: newest?.prefix ?? null,
        administrator: (await store.accounts.administrator()) === account.id,
        contact: config.operatorContact,
      }),
    );
  });

  dash.get("/lang", (c) => {
    const lang = asLang(c.req.query("lang"));
    // Only the dashboard's own form (or an address typed in) changes it, never another site's link
    // or image; a client sending no Sec-Fetch-Site is no browser's cross-site request.
    const site = c.req.header("sec-fetch-site");
    if (lang && (site === undefined || site === "same-origin" || site === "none")) setLang(c, lang);
    return seeOther(c, safeBack(c.req.query("back"), "/dashboard"));
  });

  // ── API keys ───────────────────────────────────────────────────────────────────────────────
  dash.get("/keys", async (c) => {
    const keys = await listKeys(store, c.get("session").account.id);
    const created = await once.take<{ name: string; secret: string }>(c, "/dashboard/keys") ?? undefined;
    return html(c, keysPage(frameOf(c), { keys, flash: takeFlash(c), created }));
  });

  dash.post("/keys", recent("keys", "/dashboard/keys"), async (c) => {
    const account = c.get("session").account;
    const form = await formOf(c);
    const f = frameOf(c);
    try {
      const created = await createKey(store, account.id, form.name ?? "", now());
      await once.hold(c, "/dashboard/keys", { name: created.key.name, secret: created.secret });
      return seeOther(c, "/dashboard/keys");
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 422) throw e;
      const keys = await listKeys(store, account.id);
      return html(c, keysPage(f, { keys, flash: null, nameError: f.t.key_name_required }), 422);
    }
  });

  dash.post("/keys/:id/revoke", async (c) => {
    const account = c.get("session").account;
    const key = await revokeKey(store, account.id, c.req.param("id"), now());
    // Other processes stop accepting it within the resolver's TTL; this one at once.
    deps.keys.clear();
    flash(c, { kind: "ok", text: dashTexts(langOf(c)).key_revoked.replace("{name}", key.name) });
    return seeOther(c, "/dashboard/keys");
  });

  // ── webhook secret ─────────────────────────────────────────────────────────────────────────
  const secretsOf = (account: DashEnv["Variables"]["session"]["account"]) => {
    const at = now();
    const [newest] = account.webhook_secrets;
    return {
      currentCreated: newest.created_at,
      previousUntil: signingSecrets(account, at).graceEndsAt,
      revealable: secretRevealable(account),
    };
  };

  dash.get("/webhooks", async (c) => {
    const f = frameOf(c);
    const held = await once.take<{ secret: string; rotated: boolean }>(c, "/dashboard/webhooks");
    const revealed = held
      ? { secret: held.secret, heading: held.rotated ? f.t.wh_new_secret : f.t.wh_your_secret }
      : undefined;
    const account = c.get("session").account;
    const form = await once.take<EndpointForm>(c, ENDPOINT_FORM) ?? undefined;
    const endpoints = config.plans[account.plan].api
      ? EndpointsSection({ f, endpoints: await deps.endpoints.list(account.id), form })
      : undefined;
    return html(c, webhooksPage(f, { secrets: secretsOf(account), flash: takeFlash(c), revealed, endpoints }));
  });

  // A sign-up's first secret was never shown: revealed here once (then only a rotation shows one).
  dash.post("/webhooks/reveal", recent("webhooks", "/dashboard/webhooks"), async (c) => {
    const secret = await revealSecret(store, c.get("session").account.id);
    await once.hold(c, "/dashboard/webhooks", { secret, rotated: false });
    return seeOther(c, "/dashboard/webhooks");
  });

  dash.post("/webhooks/rotate", recent("webhooks", "/dashboard/webhooks"), async (c) => {
    const { webhookSecret } = await rotateSecret(store, c.get("session").account.id, now());
    await once.hold(c, "/dashboard/webhooks", { secret: webhookSecret, rotated: true });
    return seeOther(c, "/dashboard/webhooks");
  });

  dash.post("/webhooks/retire", async (c) => {
    await retirePreviousSecret(store, c.get("session").account.id, now());
    flash(c, { kind: "ok", text: dashTexts(langOf(c)).wh_retired });
    return seeOther(c, "/dashboard/webhooks");
  });

  // ── account: sign-in's sections in the dashboard's frame ────────────────────────────────────
  dash.get("/account", async (c) => {
    const { user, csrf } = c.get("session");
    const fresh = (await store.users.get(user.id)) ?? user;
    const f = frameOf(c);
    const at = authTexts(f.lang);
    const done = c.req.query("done");
    return html(
      c,
      accountPage(f, {
        csrf,
        email: fresh.email,
        hasPassword: fresh.password_hash !== null,
        passkeys: await store.users.listPasskeys(user.id),
        back: "/dashboard/account",
        t: at,
        notice: done === "password"
          ? { kind: "ok", text: at.password_done, section: "password" }
          : done === "passkey"
          ? { kind: "ok", text: at.passkey_done, section: "passkeys" }
          : undefined,
      }),
    );
  });

  timerRoutes(dash, deps, once);
  endpointRoutes(dash, deps, once, recent("webhooks", "/dashboard/webhooks"));
  logRoutes(dash, deps);
  showRoutes(dash, deps);

  app.route("/dashboard", dash);
}

/** An action the account's plan does not include: answered with the plan's page, not a generic refusal. */
export class PlanRefused extends ApiError {
  constructor(message: string) {
    super(403, message);
  }
}

/** An error as a dashboard page (a form error of the user's is a flash instead, see timer_routes.ts). */
function errorPage(c: Ctx, err: Error): Response {
  const status = err instanceof ApiError ? err.status : 500;
  if (status >= 500 || !c.get("session")) throw err;
  // A 429's Retry-After goes with the page, as with the API's answer.
  if (err instanceof ApiError) { for (const [k, v] of Object.entries(err.headers)) c.header(k, v); }
  return html(c, problemPage(frameOf(c), status, err.message, err instanceof ApiError ? err.field : undefined), status);
}
