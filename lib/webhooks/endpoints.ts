/**
 * Account-level webhook endpoints: URLs that receive every event of every timer of the account
 * (those they ask for), beside each timer's own webhook_url. At most MAX_ENDPOINTS per account,
 * stored as one record, so planning a timer's change knows them with one read (or none: cached).
 */
import { ApiError } from "../errors.ts";
import { randomBase62 } from "../ids.ts";
import type { EventType as TimerEventType } from "../timers/model.ts";
import type { RundownEventType } from "../rundowns/model.ts";

/** What an endpoint may ask for: timer events and rundown events. */
export type EventType = TimerEventType | RundownEventType;

/** The most endpoints one account may have; creating one more answers 409. */
export const MAX_ENDPOINTS = 10;

/** Endpoint ids as issued: `we_` + 16 base62. */
export const ENDPOINT_ID = /^we_[0-9A-Za-z]{16}$/;
export const newEndpointId = () => `we_${randomBase62(16)}`;

export interface Endpoint {
  id: string;
  url: string;
  description: string;
  /** The event types it receives, or "all" (including types added later). */
  events: EventType[] | "all";
  enabled: boolean;
  created_at: number;
  updated_at: number;
}

export interface EndpointInput {
  url?: string;
  description?: string;
  events?: EventType[] | "all";
  enabled?: boolean;
}

/** Whether an endpoint takes an event of this type now. */
export const wants = (e: Endpoint, type: string): boolean =>
  e.enabled && (e.events === "all" || (e.events as string[]).includes(type));

/** What reads and writes an account's endpoint list (lib/kv/endpoints.ts). */
export interface EndpointRecords {
  read(acct: string): Promise<{ endpoints: Endpoint[]; versionstamp: string | null }>;
  /** Writes the list if it is still as read (false: it changed meanwhile). */
  save(acct: string, endpoints: Endpoint[], versionstamp: string | null): Promise<boolean>;
}

/** Managing an account's endpoints: the rules; URLs checked as a timer's webhook_url is. */
export class EndpointService {
  constructor(
    readonly records: EndpointRecords,
    /** The timer's webhook_url check (https only unless allowed, public addresses, ports): normalised URL or 422. */
    readonly checkUrl: (raw: string) => string,
    readonly now: () => number,
  ) {}

  async list(acct: string): Promise<Endpoint[]> {
    return (await this.records.read(acct)).endpoints;
  }

  async get(acct: string, id: string): Promise<Endpoint> {
    const found = (await this.list(acct)).find((e) => e.id === id);
    if (!found) throw new ApiError(404, "webhook endpoint not found");
    return found;
  }

  async create(acct: string, input: EndpointInput): Promise<Endpoint> {
    const url = this.#url(input.url!);
    for (;;) {
      const { endpoints, versionstamp } = await this.records.read(acct);
      if (endpoints.length >= MAX_ENDPOINTS) {
        throw new ApiError(
          409,
          `the account has ${endpoints.length} webhook endpoints, the most allowed is ${MAX_ENDPOINTS}; ` +
            "delete or reuse one",
        );
      }
      const now = this.now();
      const endpoint: Endpoint = {
        id: newEndpointId(),
        url,
        description: input.description ?? "",
        events: normaliseEvents(input.events ?? "all"),
        enabled: input.enabled ?? true,
        created_at: now,
        updated_at: now,
      };
      if (await this.records.save(acct, [...endpoints, endpoint], versionstamp)) return endpoint;
    }
  }

  async update(acct: string, id: string, input: EndpointInput): Promise<Endpoint> {
    const url = input.url === undefined ? undefined : this.#url(input.url);
    for (;;) {
      const { endpoints, versionstamp } = await this.records.read(acct);
      const at = endpoints.findIndex((e) => e.id === id);
      if (at < 0) throw new ApiError(404, "webhook endpoint not found");
      const next: Endpoint = {
        ...endpoints[at],
        ...(url !== undefined && { url }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.events !== undefined && { events: normaliseEvents(input.events) }),
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        updated_at: this.now(),
      };
      if (await this.records.save(acct, endpoints.with(at, next), versionstamp)) return next;
    }
  }

  async delete(acct: string, id: string): Promise<void> {
    for (;;) {
      const { endpoints, versionstamp } = await this.records.read(acct);
      if (!endpoints.some((e) => e.id === id)) throw new ApiError(404, "webhook endpoint not found");
      if (await this.records.save(acct, endpoints.filter((e) => e.id !== id), versionstamp)) return;
    }
  }

  /** The URL as a timer's webhook_url is checked, its refusal naming this field. */
  #url(raw: string): string {
    try {
      return this.checkUrl(raw);
    } catch (e) {
      if (!(e instanceof ApiError) || e.field !== "webhook_url") throw e;
      throw new ApiError(e.status, e.message.replace(/^webhook_url\b/, "url"), "url", e.headers);
    }
  }
}

/** Event types without repeats, in a stable order. */
function normaliseEvents(events: EventType[] | "all"): EventType[] | "all" {
  return events === "all" ? "all" : [...new Set(events)].sort();
}
