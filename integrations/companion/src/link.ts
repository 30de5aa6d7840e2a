/**
 * The module's configuration: the site URL and a timer's control link
 * (`{site}/c/<timer_id>#<control_token>`), parsed into what the connection needs.
 */

/** What the connection needs to follow and drive one timer. */
export interface Target {
  /** The site's base URL without a trailing slash (API at `{site}/api/v1`, live stream at `{site}/live/:id`). */
  site: string;
  timerId: string;
  /** The control token (the link's fragment): sent as the Bearer credential, never logged. */
  token: string;
}

/** A configuration the module cannot use; `field` names the config field to fix. */
export class ConfigProblem extends Error {
  override name = "ConfigProblem";
  constructor(message: string, readonly field: "site_url" | "control_link") {
    super(message);
  }
}

const TIMER_ID = /^[A-Za-z0-9_-]{1,64}$/;

function httpUrl(
  text: string,
  field: "site_url" | "control_link",
  what: string,
): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigProblem(
      `${what} must be an absolute http(s) address, got "${text}"`,
      field,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigProblem(
      `${what} must start with http:// or https://, got "${url.protocol}"`,
      field,
    );
  }
  return url;
}

/**
 * Parses the config fields. The site URL may be left blank: the link's own site is used. When
 * given, it wins (e.g. the service reached on a LAN address while the link names its public one).
 */
export function parseTarget(
  siteUrl: string | undefined,
  controlLink: string | undefined,
): Target {
  const link = (controlLink ?? "").trim();
  if (!link) {
    throw new ConfigProblem(
      "paste the timer's control link ({site}/c/<timer_id>#<control_token>)",
      "control_link",
    );
  }
  const url = httpUrl(link, "control_link", "the control link");
  const at = url.pathname.lastIndexOf("/c/");
  const timerId = at < 0 ? "" : decodeURIComponent(url.pathname.slice(at + 3).replace(/\/$/, ""));
  if (!TIMER_ID.test(timerId)) {
    throw new ConfigProblem(
      "the control link must look like {site}/c/<timer_id>#<control_token>; its path has no /c/<timer_id>",
      "control_link",
    );
  }
  const token = decodeURIComponent(url.hash.slice(1)).trim();
  if (!token) {
    throw new ConfigProblem(
      "the control link has no token after # (copy the whole control link, the part after # included)",
      "control_link",
    );
  }
  const given = (siteUrl ?? "").trim();
  const site = given ? httpUrl(given, "site_url", "the site URL").href : `${url.origin}${url.pathname.slice(0, at)}`;
  return { site: site.replace(/\/+$/, ""), timerId, token };
}
