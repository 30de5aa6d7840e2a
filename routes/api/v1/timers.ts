/** /api/v1/timers: thin handlers over TimerService; schemas double as the OpenAPI document. */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Config } from "../../../config.ts";
import { ApiError } from "../../../lib/errors.ts";
import { requireAccount, type TimerService } from "../../../lib/timers/service.ts";
import { type Timer as TimerRecord, timerView } from "../../../lib/timers/model.ts";
import { LIMITS } from "../../../lib/timers/validation.ts";
import type { AppEnv } from "../../../lib/http.ts";
import { errors, KEY_ONLY, ok } from "./openapi.ts";
import {
  CreateTimerBody,
  Deleted,
  ListQuery,
  StateBody,
  Timer,
  TimerIdParam,
  TimerList,
  UpdateTimerBody,
} from "./schemas.ts";

const body = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const NO_TIMER = { 404: "No timer with this id (or it expired); ids of any other shape also answer 404" };
const OWNER = { 403: "The plan has no API access, or a control token was used where only an API key is accepted" };

const createTimer = createRoute({
  method: "post",
  path: "/timers",
  operationId: "createTimer",
  tags: ["Timers"],
  summary: "Create a timer",
  request: { body: body(CreateTimerBody) },
  responses: {
    201: ok(
      Timer,
      "Created; Location names the timer; control_url is shown only here (and by POST /timers/{id}/control_token)",
      { location: true },
    ),
    ...errors([400, 401, 403, 413, 422], {
      ...KEY_ONLY,
      403: "The plan has no API access, or the plan's stored-timer limit is reached (the message names it)",
    }),
  },
});

const listTimers = createRoute({
  method: "get",
  path: "/timers",
  operationId: "listTimers",
  tags: ["Timers"],
  summary: "List your timers, newest first",
  request: { query: ListQuery },
  responses: {
    200: ok(TimerList, "A page of timers"),
    ...errors([400, 401, 403], { ...KEY_ONLY, 400: "An invalid query parameter, or a cursor this API did not return" }),
  },
});

const getTimer = createRoute({
  method: "get",
  path: "/timers/{id}",
  operationId: "getTimer",
  tags: ["Timers"],
  summary: "Read a timer (API key or the timer's control token)",
  request: { params: TimerIdParam },
  responses: { 200: ok(Timer, "The timer as it is now"), ...errors([401, 403, 404], NO_TIMER) },
});

const updateTimer = createRoute({
  method: "patch",
  path: "/timers/{id}",
  operationId: "updateTimer",
  tags: ["Timers"],
  summary: "Change title, theme, color, webhook_url, zones, or reschedule (duration, target_date)",
  request: { params: TimerIdParam, body: body(UpdateTimerBody) },
  responses: {
    200: ok(Timer, "The updated timer"),
    ...errors([400, 401, 403, 404, 409, 413, 422], {
      ...NO_TIMER,
      ...OWNER,
      409: "The change is not allowed in the timer's state (duration of a running countdown, target_date of a " +
        "completed or stopped event, overtime turned off past zero); error.field names it and the message says why",
    }),
  },
});

const changeState = createRoute({
  method: "patch",
  path: "/timers/{id}/state",
  operationId: "changeTimerState",
  tags: ["Timers"],
  summary: "Start, pause, resume, reset or stop (API key or the timer's control token)",
  request: { params: TimerIdParam, body: body(StateBody) },
  responses: {
    200: ok(Timer, "The timer after the action"),
    ...errors([400, 401, 403, 404, 409, 413, 422], {
      ...NO_TIMER,
      409: "The action is not valid in the timer's state (e.g. pause while idle, pause or resume an event timer); " +
        "error.field is action or state and the message names both",
    }),
  },
});

const deleteTimer = createRoute({
  method: "delete",
  path: "/timers/{id}",
  operationId: "deleteTimer",
  tags: ["Timers"],
  summary: "Delete a timer, its pending deliveries and its delivery log",
  description: "The timer of a running rundown's live item cannot be deleted (409): the show would wait on a timer " +
    "that no longer exists. Stop the rundown or move it on first. Other items of a rundown may be deleted; the show " +
    "skips them. Deleting a rundown deletes the timers created with it, whatever their state.",
  request: { params: TimerIdParam },
  responses: {
    200: ok(Deleted, "Deleted"),
    ...errors([401, 403, 404, 409], {
      ...NO_TIMER,
      ...OWNER,
      409: "The timer is the live item of a running rundown; the message names the rundown " +
        "(POST /rundowns/{id}/actions/stop, next or goto first)",
    }),
  },
});

const rotateControlToken = createRoute({
  method: "post",
  path: "/timers/{id}/control_token",
  operationId: "rotateControlToken",
  tags: ["Timers"],
  summary: "Replace the control token (a lost or leaked control_url)",
  description: "The old control_url stops working at once; the new one is in this response only.",
  request: { params: TimerIdParam },
  responses: {
    200: ok(Timer, "The timer with its new control_url"),
    ...errors([401, 403, 404], { ...NO_TIMER, ...OWNER }),
  },
});

/** Registers the timer routes on `api`. */
export function timerRoutes(api: OpenAPIHono<AppEnv>, svc: TimerService, config: Config) {
  const view = (t: TimerRecord, owner: boolean) =>
    // deno-lint-ignore no-explicit-any
    timerView(t, svc.now(), config.siteUrl, { owner }) as any;

  /** The owner's view with the control URL (no cache keeps it: see apiGate). */
  const withControlUrl = (timer: TimerRecord, token: string) => ({
    ...view(timer, true),
    control_url: `${config.siteUrl}/c/${timer.id}#${token}`,
  });

  api.openapi(createTimer, async (c) => {
    const { timer, controlToken } = await svc.create(c.get("principal"), c.req.valid("json"));
    c.header("Location", `${config.siteUrl}/api/v1/timers/${timer.id}`);
    return c.json(withControlUrl(timer, controlToken), 201);
  });

  api.openapi(rotateControlToken, async (c) => {
    const { timer, controlToken } = await svc.rotateControlToken(c.get("principal"), c.req.valid("param").id);
    return c.json(withControlUrl(timer, controlToken), 200);
  });

  api.openapi(listTimers, async (c) => {
    const account = requireAccount(c.get("principal"));
    const q = c.req.valid("query");
    const page = await svc.store.listTimers(account.id, {
      type: q.type,
      limit: q.limit ?? LIMITS.list.default,
      cursor: q.cursor,
      now: svc.now(),
    }).catch((e) => {
      if (q.cursor && e instanceof TypeError) throw new ApiError(400, "cursor is not one this API returned", "cursor");
      throw e;
    });
    return c.json({ timers: page.timers.map((t) => view(t, true)), next_cursor: page.next_cursor }, 200);
  });

  api.openapi(getTimer, async (c) => {
    const p = c.get("principal");
    const { timer } = await svc.get(p, c.req.valid("param").id);
    return c.json(view(timer, p.kind === "account"), 200);
  });

  api.openapi(updateTimer, async (c) => {
    const timer = await svc.update(c.get("principal"), c.req.valid("param").id, c.req.valid("json"));
    return c.json(view(timer, true), 200);
  });

  api.openapi(changeState, async (c) => {
    const p = c.get("principal");
    const timer = await svc.act(p, c.req.valid("param").id, c.req.valid("json"));
    return c.json(view(timer, p.kind === "account"), 200);
  });

  api.openapi(deleteTimer, async (c) => {
    const id = c.req.valid("param").id;
    await svc.delete(c.get("principal"), id);
    return c.json({ deleted: true as const, timer_id: id }, 200);
  });
}
