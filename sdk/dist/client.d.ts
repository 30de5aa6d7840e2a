/** The typed API client: openapi-fetch over the paths generated from the service's OpenAPI document. */
import { type Client } from "openapi-fetch";
import type { paths } from "./schema.js";
export interface ClientOptions {
    /** The service's address, e.g. `https://timers.example.com` (`/api/v1` is added unless present). */
    baseUrl: string;
    /** An API key (`tsk_…`), or a timer's control token (`tct_…`) for that timer's read and state calls. */
    apiKey?: string;
    /** Another fetch (tests, proxies). */
    fetch?: typeof globalThis.fetch;
    /** Extra headers sent with every request. */
    headers?: Record<string, string>;
}
/** The client: `client.GET("/timers/{id}", { params: { path: { id } } })` and so on, typed end to end. */
export type TimerClient = Client<paths>;
/** Creates a typed client for the Timer Service API. */
export declare function createClient(options: ClientOptions): TimerClient;
