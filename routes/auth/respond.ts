import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { privatePageHeaders } from "../../lib/csp.ts";

/** HTML responses of the sign-in pages: never cached, never framed, no Referer (links may hold one-time tokens). */

/** The page as the response of `c`, keeping the cookies set on it. */
export function html(c: Context, body: string, status: ContentfulStatusCode = 200): Response {
  for (const [k, v] of Object.entries(privatePageHeaders({ referrer: "no-referrer" }))) c.header(k, v);
  return c.html(body, status);
}
