/**
 * Running a show: actions without a body (Stream Deck, Companion, vMix, curl) and the speaker's
 * message. API key or the timer's control token; thin handlers over TimerService.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Config } from "../../../config.ts";
import { ApiError } from "../../../lib/errors.ts";
import type { AppEnv } from "../../../lib/http.ts";
import { type Timer as TimerRecord, timerView } from "../../../lib/timers/model.ts";
import type { TimerService } from "../../../lib/timers/service.ts";
import { errors, ok } from "./openapi.ts";
import { ActionParams, ActionQuery, MessageBody, Timer, TimerIdParam } from "./schemas.ts";

const NO_TIMER = { 404: "No timer with this id (or it expired); ids of any other shape also answer 404" };

const runAction = createRoute({
  method: "post",
  path: "/timers/{id}/actions/{action}",
  operationId: "runTimerAction",
  tags: ["Timers"],
  summary: "Start, pause, resume, reset, stop or adjust without a body (API key or the timer's control token)",
  description: "The same answers and events as PATCH /timers/{id}/state, for tools that send a bare POST " +
    "(Stream Deck, Companion's generic HTTP module, vMix scripts, curl). adjust takes ?seconds=N. There is no " +
    "GET: link previewers and prefetchers send GETs.",
  request: { params: ActionParams, query: ActionQuery },
  responses: {
    200: ok(Timer, "The timer after the action"),
    ...errors([400, 401, 403, 404, 409, 422], {
      404: "No timer with this id (or it expired), or no such action",
      409: "The action is not valid in the timer's state; error.field is action",
      422: "seconds missing, 0 or out of range for adjust, or given to another action; error.field is seconds",
    }),
  },
});

const setMessage = createRoute({
  method: "put",
  path: "/timers/{id}/message",
  operationId: "setTimerMessage",
  tags: ["Timers"],
  summary: "Show a message or black out the viewer (API key or the timer's control token)",
  description: "Replaces the message. It rides the live stream to every open viewer; it changes no state and no " +
    'deadline and sends no webhook. `{"blackout": true}` alone darkens the viewer.',
  request: { params: TimerIdParam, body: { required: true, content: { "application/json": { schema: MessageBody } } } },
  responses: {
    200: ok(Timer, "The timer with its message"),
    ...errors([400, 401, 403, 404, 413, 422], NO_TIMER),
  },
});

const clearMessage = createRoute({
  method: "delete",
  path: "/timers/{id}/message",
  operationId: "clearTimerMessage",
  tags: ["Timers"],
  summary: "Hide the message and end a blackout (API key or the timer's control token)",
  request: { params: TimerIdParam },
  responses: { 200: ok(Timer, "The timer without a message"), ...errors([401, 403, 404], NO_TIMER) },
});

/** Registers the show routes on `api`. */
export function showRoutes(api: OpenAPIHono<AppEnv>, svc: TimerService, config: Config) {
  const view = (t: TimerRecord, owner: boolean) =>
    // deno-lint-ignore no-explicit-any
    timerView(t, svc.now(), config.siteUrl, { owner }) as any;

  api.openapi(runAction, async (c) => {
    const p = c.get("principal");
    const { id, action } = c.req.valid("param");
    const { seconds } = c.req.valid("query");
    if (action !== "adjust" && seconds !== undefined) {
      throw new ApiError(422, `seconds applies only to adjust, not to ${action}`, "seconds");
    }
    const timer = await svc.act(p, id, { action, seconds });
    return c.json(view(timer, p.kind === "account"), 200);
  });

  api.openapi(setMessage, async (c) => {
    const p = c.get("principal");
    const timer = await svc.setMessage(p, c.req.valid("param").id, c.req.valid("json"));
    return c.json(view(timer, p.kind === "account"), 200);
  });

  api.openapi(clearMessage, async (c) => {
    const p = c.get("principal");
    const timer = await svc.setMessage(p, c.req.valid("param").id, null);
    return c.json(view(timer, p.kind === "account"), 200);
  });
}
