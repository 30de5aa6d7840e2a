/**
 * The site's one Content-Security-Policy: nothing by default, then each kind same-origin, no plugins, no base tag.
 * Pages differ only in the options (framing, inline styles, forms, fonts).
 */
export interface CspOptions {
  /** Inline style attributes (validated colours, computed sizes). */
  inlineStyles?: boolean;
  /** Fonts (data: URIs included). */
  fonts?: boolean;
  /** Where forms may post: "'self'" (default) or "'none'". */
  formAction?: string;
  /** Which pages this one may frame. Default "'none'". */
  frameSrc?: string;
  /**
   * Who may frame this page. Default "'none'". null leaves `frame-ancestors` out: even `*`
   * refuses embedders with opaque origins (a file:// page, a sandboxed iframe).
   */
  frameAncestors?: string | null;
}

export function contentSecurityPolicy(o: CspOptions = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    o.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    ...(o.fonts ? ["font-src 'self' data:"] : []),
    "connect-src 'self'",
    "base-uri 'none'",
    `form-action ${o.formAction ?? "'self'"}`,
    "object-src 'none'",
    `frame-src ${o.frameSrc ?? "'none'"}`,
    ...(o.frameAncestors === null ? [] : [`frame-ancestors ${o.frameAncestors ?? "'none'"}`]),
  ].join("; ");
}

/** Headers of a page that may hold a secret or one-time token: never cached, sniffed or framed. */
export function privatePageHeaders(o: CspOptions & { referrer: string }): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(o),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": o.referrer,
  };
}
