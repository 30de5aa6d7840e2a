/**
 * Running a rundown's show: its message (shown on the stage across items) and the live item's
 * message, with the API key or the rundown's control token. Thin handlers over RundownService.
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../../lib/http.ts";
import type { RundownRead, RundownService } from "../../../lib/rundowns/service.ts";
import { errors, ok } from "./openapi.ts";
import { Rundown, RundownIdParam } from "./rundown_schemas.ts";
import { MessageBody } from "./schemas.ts";

const tags = ["Rundowns"];
const NO_RUNDOWN = { 404: "No rundown with this id; ids of any other shape also answer 404" };
const body = { required: true, content: { "application/json": { schema: MessageBody } } };

const setMessage = createRoute({
  method: "put",
  path: "/rundowns/{id}/message",
  operationId: "setRundownMessage",
  tags,
  summary: "Show a message on the stage across items, or black it out (API key or the rundown's control token)",
  description: "The same body as a timer's message. It stays up as the show moves from item to item; while the " +
    "live item has a message of its own, the stage shows the item's. It rides the stage's live stream, changes " +
    "no state and sends no webhook.",
  request: { params: RundownIdParam, body },
  responses: {
    200: ok(Rundown, "The rundown with its message"),
    ...errors([400, 401, 403, 404, 413, 422], { ...NO_RUNDOWN, 422: "An invalid field; error.field names it" }),
  },
});

const clearMessage = createRoute({
  method: "delete",
  path: "/rundowns/{id}/message",
  operationId: "clearRundownMessage",
  tags,
  summary: "Hide the rundown's message and end its blackout (API key or the rundown's control token)",
  request: { params: RundownIdParam },
  responses: { 200: ok(Rundown, "The rundown without a message"), ...errors([401, 403, 404], NO_RUNDOWN) },
});

const setItemMessage = createRoute({
  method: "put",
  path: "/rundowns/{id}/item/message",
  operationId: "setRundownItemMessage",
  tags,
  summary: "Set the live item's own message (API key or the rundown's control token)",
  description: "As PUT /timers/{id}/message on the live item's timer: it goes with that item (the next item does " +
    "not show it) and wins over the rundown's message while set.",
  request: { params: RundownIdParam, body },
  responses: {
    200: ok(Rundown, "The rundown; the item's message is on its timer"),
    ...errors([400, 401, 403, 404, 409, 413, 422], {
      ...NO_RUNDOWN,
      409: "The live item's timer was deleted",
      422: "An invalid field; error.field names it",
    }),
  },
});

const clearItemMessage = createRoute({
  method: "delete",
  path: "/rundowns/{id}/item/message",
  operationId: "clearRundownItemMessage",
  tags,
  summary: "Clear the live item's own message (API key or the rundown's control token)",
  request: { params: RundownIdParam },
  responses: { 200: ok(Rundown, "The rundown"), ...errors([401, 403, 404, 409], NO_RUNDOWN) },
});

/** Registers the rundown message routes on `api`. */
export function rundownShowRoutes(
  api: OpenAPIHono<AppEnv>,
  svc: RundownService,
  // deno-lint-ignore no-explicit-any
  view: (r: RundownRead, owner: boolean) => any,
) {
  api.openapi(setMessage, async (c) => {
    const p = c.get("principal");
    return c.json(view(await svc.setMessage(p, c.req.valid("param").id, c.req.valid("json")), p.kind === "account"));
  });
  api.openapi(clearMessage, async (c) => {
    const p = c.get("principal");
    return c.json(view(await svc.setMessage(p, c.req.valid("param").id, null), p.kind === "account"));
  });
  api.openapi(setItemMessage, async (c) => {
    const p = c.get("principal");
    const read = await svc.item(p, c.req.valid("param").id, { message: c.req.valid("json") });
    return c.json(view(read, p.kind === "account"));
  });
  api.openapi(clearItemMessage, async (c) => {
    const p = c.get("principal");
    return c.json(view(await svc.item(p, c.req.valid("param").id, { message: null }), p.kind === "account"));
  });
}
