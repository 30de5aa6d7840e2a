/** What the rundown tests share: an item to create, and a rundown created through the API. */
import assert from "node:assert/strict";
import type { setup } from "./helpers.ts";

type S = Awaited<ReturnType<typeof setup>>;

/** A countdown item of a rundown's creation body. */
export const talk = (title: string, duration: number) => ({ type: "countdown", title, duration });

/** Creates a rundown (201 asserted): its id and its items' timer ids, in order. */
export async function rundown(s: S, body: Record<string, unknown>) {
  const r = await s.call("POST", "/api/v1/rundowns", { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return {
    id: r.body.rundown_id as string,
    ids: r.body.items.map((i: { timer_id: string }) => i.timer_id) as string[],
  };
}
