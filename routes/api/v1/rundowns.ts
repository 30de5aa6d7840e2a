/** /api/v1/rundowns: thin handlers over RundownService; schemas double as the OpenAPI document. */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Config } from "../../../config.ts";
import { ApiError } from "../../../lib/errors.ts";
import type { AppEnv } from "../../../lib/http.ts";
import { rundownView } from "../../../lib/rundowns/model.ts";
import type { RundownRead, RundownService } from "../../../lib/rundowns/service.ts";
import { requireAccount } from "../../../lib/timers/service.ts";
import { LIMITS } from "../../../lib/timers/validation.ts";
import { errors, KEY_ONLY, ok } from "./openapi.ts";
import {
  CreateRundownBody,
  registerRundownWebhooks,
  Rundown,
  RundownActionParams,
  RundownActionQuery,
  RundownDeleted,
  rundownHook,
  RundownIdParam,
  RundownList,
  RundownStateBody,
  UpdateRundownBody,
} from "./rundown_schemas.ts";
import { PageQuery } from "./schemas.ts";
import { rundownShowRoutes } from "./rundown_show.ts";

const body = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const NO_RUNDOWN = { 404: "No rundown with this id; ids of any other shape also answer 404" };
const OWNER = { 403: "The plan has no API access, or a control token was used where only an API key is accepted" };
const tags = ["Rundowns"];

const createRundown = createRoute({
  method: "post",
  path: "/rundowns",
  operationId: "createRundown",
  tags,
  summary: "Create a rundown of timers (existing ones, or new countdowns and intervals)",
  request: { body: body(CreateRundownBody) },
  responses: {
    201: ok(Rundown, "Created; Location names it; control_url is shown only here", { location: true }),
    ...errors([400, 401, 403, 409, 413, 422], {
      ...KEY_ONLY,
      403: "No API access, the plan's stored-timer limit reached by the timers to create, or as many rundowns as " +
        "the plan stores timers held already",
      409: "An existing timer is an item of another rundown already; error.field names the item",
      422: "An invalid value; error.field names it, items[i].field for an item",
    }),
  },
});

const listRundowns = createRoute({
  method: "get",
  path: "/rundowns",
  operationId: "listRundowns",
  tags,
  summary: "List your rundowns, newest first",
  request: { query: PageQuery },
  responses: {
    200: ok(RundownList, "A page of rundowns"),
    ...errors([400, 401, 403], { ...KEY_ONLY, 400: "An invalid query parameter, or a cursor this API did not return" }),
  },
});

const getRundown = createRoute({
  method: "get",
  path: "/rundowns/{id}",
  operationId: "getRundown",
  tags,
  summary: "Read a rundown with its items' planned and expected starts (API key or its control token)",
  request: { params: RundownIdParam },
  responses: { 200: ok(Rundown, "The rundown as it is now"), ...errors([401, 403, 404], NO_RUNDOWN) },
});

const updateRundown = createRoute({
  method: "patch",
  path: "/rundowns/{id}",
  operationId: "updateRundown",
  tags,
  summary: "Change title, mode, webhook_url or the items (order, added, removed while not running)",
  request: { params: RundownIdParam, body: body(UpdateRundownBody) },
  responses: {
    200: ok(Rundown, "The updated rundown"),
    ...errors([400, 401, 403, 404, 409, 413, 422], {
      ...NO_RUNDOWN,
      ...OWNER,
      409: "An item to remove is running, or an added timer is in another rundown; error.field names it",
    }),
  },
});

const changeState = createRoute({
  method: "patch",
  path: "/rundowns/{id}/state",
  operationId: "changeRundownState",
  tags,
  summary: "start, next, previous, goto (with index), stop or reset (API key or its control token)",
  request: { params: RundownIdParam, body: body(RundownStateBody) },
  responses: {
    200: ok(Rundown, "The rundown after the action"),
    ...errors([400, 401, 403, 404, 409, 413, 422], {
      ...NO_RUNDOWN,
      409: "Not allowed now (next at the last item, stop when not running, start while the item runs); " +
        "error.field is action",
      422: "An unknown action (error.field is action); goto without index, an index out of range, or index " +
        "with another action (error.field is index)",
    }),
  },
});

const runAction = createRoute({
  method: "post",
  path: "/rundowns/{id}/actions/{action}",
  operationId: "runRundownAction",
  tags,
  summary: "The same actions without a body (?index=N for goto), and adjust (?seconds=N: the live item's time)",
  request: { params: RundownActionParams, query: RundownActionQuery },
  responses: {
    200: ok(Rundown, "The rundown after the action"),
    ...errors([400, 401, 403, 404, 409, 422], {
      404: "No rundown with this id, or no such action",
      409: "Not allowed now; error.field is action (adjust: the live item is not running or paused)",
      422: "index or seconds missing or out of range, or given to another action; error.field names it",
    }),
  },
});

const deleteRundown = createRoute({
  method: "delete",
  path: "/rundowns/{id}",
  operationId: "deleteRundown",
  tags,
  summary: "Delete a rundown and the timers created with it (existing timers stay)",
  request: { params: RundownIdParam },
  responses: { 200: ok(RundownDeleted, "Deleted"), ...errors([401, 403, 404], { ...NO_RUNDOWN, ...OWNER }) },
});

const rotateControlToken = createRoute({
  method: "post",
  path: "/rundowns/{id}/control_token",
  operationId: "rotateRundownControlToken",
  tags,
  summary: "Replace the rundown's control token (a lost or leaked control_url)",
  description: "The old control_url stops working at once; the new one is in this response only.",
  request: { params: RundownIdParam },
  responses: {
    200: ok(Rundown, "The rundown with its new control_url"),
    ...errors([401, 403, 404], { ...NO_RUNDOWN, ...OWNER }),
  },
});

/** Registers the rundown routes on `api`. */
export function rundownRoutes(parent: OpenAPIHono<AppEnv>, svc: RundownService, config: Config) {
  // Its own validation answers (a rundown's 404, an item's field named by its place), behind the parent's gate.
  const api = new OpenAPIHono<AppEnv>({ defaultHook: rundownHook });
  const view = (r: RundownRead, owner: boolean) =>
    // deno-lint-ignore no-explicit-any
    rundownView(r.rundown, r.timers, svc.now(), config.siteUrl, owner) as any;

  /** The owner's view with the control URL (shown only on creation and rotation; no cache keeps it). */
  const withControlUrl = (read: RundownRead, token: string) => ({
    ...view(read, true),
    control_url: `${config.siteUrl}/r/${read.rundown.id}/control#${token}`,
  });

  api.openapi(createRundown, async (c) => {
    const { read, controlToken } = await svc.create(c.get("principal"), c.req.valid("json"));
    c.header("Location", `${config.siteUrl}/api/v1/rundowns/${read.rundown.id}`);
    return c.json(withControlUrl(read, controlToken), 201);
  });

  api.openapi(rotateControlToken, async (c) => {
    const { read, controlToken } = await svc.rotateControlToken(c.get("principal"), c.req.valid("param").id);
    return c.json(withControlUrl(read, controlToken), 200);
  });

  api.openapi(listRundowns, async (c) => {
    const p = c.get("principal");
    requireAccount(p);
    const q = c.req.valid("query");
    const page = await svc.list(p, { limit: q.limit ?? LIMITS.list.default, cursor: q.cursor }).catch((e) => {
      if (q.cursor && e instanceof TypeError) throw new ApiError(400, "cursor is not one this API returned", "cursor");
      throw e;
    });
    const rundowns = [];
    for (const r of page.rundowns) {
      // One deleted since the page was read is left out, not a 404 for the whole list.
      const read = await svc.get(p, r.id).catch((e) => {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      });
      if (read) rundowns.push(view(read, true));
    }
    return c.json({ rundowns, next_cursor: page.next_cursor }, 200);
  });

  api.openapi(getRundown, async (c) => {
    const p = c.get("principal");
    return c.json(view(await svc.get(p, c.req.valid("param").id), p.kind === "account"), 200);
  });

  api.openapi(updateRundown, async (c) => {
    return c.json(view(await svc.update(c.get("principal"), c.req.valid("param").id, c.req.valid("json")), true), 200);
  });

  api.openapi(changeState, async (c) => {
    const p = c.get("principal");
    const { action, index } = c.req.valid("json");
    if (index !== undefined && action !== "goto") {
      throw new ApiError(422, `index applies only to goto, not to ${action}`, "index");
    }
    return c.json(view(await svc.act(p, c.req.valid("param").id, action, index), p.kind === "account"), 200);
  });

  api.openapi(runAction, async (c) => {
    const p = c.get("principal");
    const { id, action } = c.req.valid("param");
    const { index, seconds } = c.req.valid("query");
    if (index !== undefined && action !== "goto") {
      throw new ApiError(422, `index applies only to goto, not to ${action}`, "index");
    }
    if (seconds !== undefined && action !== "adjust") {
      throw new ApiError(422, `seconds applies only to adjust, not to ${action}`, "seconds");
    }
    const read = action === "adjust"
      ? await svc.item(p, id, { adjust: seconds as number })
      : await svc.act(p, id, action, index);
    return c.json(view(read, p.kind === "account"), 200);
  });
  rundownShowRoutes(api, svc, (r, owner) => view(r, owner));

  api.openapi(deleteRundown, async (c) => {
    const id = c.req.valid("param").id;
    await svc.delete(c.get("principal"), id);
    return c.json({ deleted: true as const, rundown_id: id }, 200);
  });
  parent.route("/", api);
  registerRundownWebhooks(parent.openAPIRegistry);
}
