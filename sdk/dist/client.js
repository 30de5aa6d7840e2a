/** The typed API client: openapi-fetch over the paths generated from the service's OpenAPI document. */
import createFetchClient, {} from "openapi-fetch";
/** Creates a typed client for the Timer Service API. */
export function createClient(options) {
    const base = options.baseUrl.replace(/\/+$/, "");
    return createFetchClient({
        baseUrl: base.endsWith("/api/v1") ? base : `${base}/api/v1`,
        headers: {
            ...options.headers,
            ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
        },
        ...(options.fetch ? { fetch: options.fetch } : {}),
    });
}
