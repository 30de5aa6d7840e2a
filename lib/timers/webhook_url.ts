/** What a webhook URL given to the API must be. */
import { ApiError } from "../errors.ts";
import { rfc3986Href, webhookUrlProblem } from "../webhooks/destinations.ts";
import { ruleMessage } from "./validation.ts";

/** A webhook URL must be absolute http(s); plain http only where the operator allows it. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError(422, ruleMessage("webhook_url", raw), "webhook_url");
  }
  const httpOk = allowPrivate && url.protocol === "http:";
  // WHATWG URL keeps " ` { } in a host name, which RFC 3986 (and DNS) has no room for.
  const badHost = /[^A-Za-z0-9\-._~!$&'()*+,;=[\]:]/.test(url.hostname);
  // A plain http URL on a default install is most often a receiver on the developer's machine: say how.
  if (url.protocol === "http:" && !httpOk && url.hostname && !badHost && !url.username && !url.password) {
    throw new ApiError(
      422,
      `${ruleMessage("webhook_url", raw)}; this server refuses plain http and private addresses: ` +
        `for local development, start it with WEBHOOK_ALLOW_PRIVATE=1`,
      "webhook_url",
    );
  }
  if ((url.protocol !== "https:" && !httpOk) || !url.hostname || badHost || url.username || url.password) {
    throw new ApiError(422, ruleMessage("webhook_url", raw), "webhook_url");
  }
  const refused = webhookUrlProblem(url, allowPrivate);
  if (refused) throw new ApiError(422, refused, "webhook_url");
  if (raw.length > 2048) throw new ApiError(422, "webhook_url must be at most 2048 characters", "webhook_url");
  // The stored (normalised) URL is what reads answer and a PATCH may send back: it keeps the limit too.
  const href = rfc3986Href(url);
  if (href.length > 2048) {
    throw new ApiError(
      422,
      `webhook_url must be at most 2048 characters once normalised (non-ASCII characters percent-encoded), ` +
        `got ${href.length}`,
      "webhook_url",
    );
  }
  return href;
}
