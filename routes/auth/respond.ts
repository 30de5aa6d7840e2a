import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** HTML responses of the sign-in pages: never cached, never framed, no Referer (links may hold one-time tokens). */

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The page as the response of `c`, keeping the cookies set on it. */
export function html(c: Context, body: string, status: ContentfulStatusCode = 200): Response {
  c.header("content-security-policy", CSP);
  c.header("cache-control", "no-store");
  c.header("x-content-type-options", "nosniff");
  c.header("referrer-policy", "no-referrer");
  return c.html(body, status);
}
