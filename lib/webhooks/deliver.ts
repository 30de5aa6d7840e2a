/** One webhook attempt: the destination is resolved and every address checked before the POST. */
import { resolveDestination, type Resolver } from "./destinations.ts";
import type { SignedRequest } from "./signing.ts";

export interface AttemptResult {
  status: number | null;
  error: string | null;
  duration_ms: number;
  ok: boolean;
}

/** Reads at most `max` bytes of a response body and drops the rest: receivers' bodies are never kept. */
async function drain(res: Response, max = 64 * 1024): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let size = 0;
  try {
    while (size <= max) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** One POST: 2xx is success; redirects are not followed; no answer within `timeoutMs` fails. */
export async function postOnce(
  url: string,
  req: SignedRequest,
  opts: { timeoutMs: number; allowPrivate: boolean; resolve?: Resolver; fetch?: typeof fetch },
): Promise<AttemptResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const dest = await resolveDestination(new URL(url), opts);
    if (dest.error !== undefined) return { status: null, error: dest.error, duration_ms: took(), ok: false };
    const signal = AbortSignal.timeout(opts.timeoutMs);
    const res = await (opts.fetch ?? fetch)(url, {
      method: "POST",
      headers: req.headers,
      body: req.body,
      redirect: "manual",
      signal,
    });
    // The body is read (to keep the connection reusable) but not kept; the signal also ends a
    // body that trickles past the timeout, and the status received stands.
    const length = Number(res.headers.get("content-length") ?? NaN);
    await (length <= 64 * 1024 ? res.arrayBuffer() : drain(res)).catch(() => {});
    const ok = res.status >= 200 && res.status < 300;
    const error = ok
      ? null
      : res.status >= 300 && res.status < 400
      ? `redirect (${res.status}) not followed`
      : `HTTP ${res.status}`;
    return { status: res.status, error, duration_ms: took(), ok };
  } catch (e) {
    const err = e as Error;
    const error = err.name === "TimeoutError" || err.name === "AbortError"
      ? `no answer within ${opts.timeoutMs} ms`
      : `network error: ${err.message.slice(0, 200)}`;
    return { status: null, error, duration_ms: took(), ok: false };
  }
}
