/**
 * Example webhooks ("Send example"): a realistic payload of any event type, marked as a test
 * (`data.test: true`, an example timer id), sent once to an account endpoint so a receiver can be
 * built and checked before any timer runs.
 */
import { ApiError } from "../errors.ts";
import { newEventId } from "../ids.ts";
import type { EventType } from "../timers/model.ts";
import { RUNDOWN_EVENT_TYPES, type RundownEventType } from "../rundowns/model.ts";
import type { WebhookPayload } from "./delivery_model.ts";
import type { EndpointService } from "./endpoints.ts";
import type { AttemptResult } from "./deliver.ts";
import type { Sender } from "./sender.ts";
import { TEST_SENDS_PER_MINUTE } from "./quota.ts";

/** Every event type an example can be sent of. */
export type ExampleEvent = EventType | "webhook.test" | RundownEventType;

const isRundownEvent = (e: ExampleEvent): e is RundownEventType =>
  (RUNDOWN_EVENT_TYPES as readonly string[]).includes(e);

/** The timer id examples name: of the issued shape, never a real timer's (issued ids are random). */
export const EXAMPLE_TIMER_ID = "tmr_ExampleTimer0001";

/** A realistic `data` of each event type at `now` (as the timers send it), with `test: true`. */
export function exampleData(event: EventType | "webhook.test", now: number): Record<string, unknown> {
  const at = (s: number) => new Date(now - s * 1000).toISOString();
  const data: Record<string, Record<string, unknown>> = {
    "timer.started": { state: "running", duration: 300, remaining_seconds: 300, started_at: at(0) },
    "timer.paused": { state: "paused", remaining_seconds: 180 },
    "timer.resumed": { state: "running", remaining_seconds: 180 },
    "timer.stopped": { state: "stopped", remaining_seconds: 45 },
    "timer.reset": { state: "idle", remaining_seconds: 300 },
    "timer.completed": {
      state: "completed",
      duration: 300,
      actual_duration: 300,
      started_at: at(300),
      completed_at: at(0),
    },
    "interval.round_end": { round: 3, rounds: 8, work: 20, rest: 10 },
    "interval.completed": { rounds: 8, duration: 240, actual_duration: 240, started_at: at(240), completed_at: at(0) },
    "timer.warning": { zone: "warning", remaining_seconds: 60 },
    "timer.danger": { zone: "danger", remaining_seconds: 10 },
    "timer.adjusted": { seconds: 60, added_seconds: 60, remaining_seconds: 240 },
    "webhook.test": { message: "This is a test delivery; it needs no action." },
  };
  return { ...data[event], test: true };
}

/** The rundown id examples name: of the issued shape, never a real rundown's. */
export const EXAMPLE_RUNDOWN_ID = "rdn_ExampleRundown01";

/** A realistic `data` of each rundown event (as rundowns send it), with `test: true`. */
function rundownExampleData(event: RundownEventType): Record<string, unknown> {
  const item = (index: number, title: string) => ({ index, timer_id: EXAMPLE_TIMER_ID, title });
  const data: Record<RundownEventType, Record<string, unknown>> = {
    "rundown.started": { item: item(0, "Opening") },
    "rundown.advanced": { from: 0, to: 1, item: item(1, "Keynote"), cause: "finish" },
    "rundown.completed": { item: item(2, "Closing"), cause: "finish" },
  };
  return { ...data[event], test: true };
}

/** The example payload of `event` (a rundown event's names an example rundown, as rundowns send them). */
export function examplePayload(event: ExampleEvent, now: number): WebhookPayload {
  const id = newEventId(now);
  if (isRundownEvent(event)) {
    const payload = {
      id,
      event,
      timestamp: new Date(now).toISOString(),
      rundown_id: EXAMPLE_RUNDOWN_ID,
      title: "Example show",
      data: rundownExampleData(event),
    };
    // Signed and sent as it is, as rundown deliveries are (rundowns/model.ts).
    return payload as unknown as WebhookPayload;
  }
  return {
    id,
    event,
    timestamp: new Date(now).toISOString(),
    timer_id: EXAMPLE_TIMER_ID,
    title: "Example",
    type: event.startsWith("interval.") ? "interval" : "countdown",
    data: exampleData(event, now),
  };
}

/**
 * Sends the example of `event` once to the account's endpoint (enabled or not: it was asked for),
 * signed like every delivery; at most TEST_SENDS_PER_MINUTE test sends a minute per account (429).
 */
export async function sendEndpointExample(
  endpoints: EndpointService,
  sender: Sender,
  acct: string,
  endpointId: string,
  event: ExampleEvent,
): Promise<{ result: AttemptResult; payload: WebhookPayload }> {
  const endpoint = await endpoints.get(acct, endpointId);
  const now = endpoints.now();
  const payload = examplePayload(event, now);
  // Queued in the sender's pool as the endpoint's own (examples to other endpoints never wait behind it).
  const d = { account_id: acct, timer_id: `${EXAMPLE_TIMER_ID}/${endpoint.id}`, url: endpoint.url, payload };
  const r = await sender.testSend(d, now);
  if ("retryAfter" in r) {
    throw new ApiError(
      429,
      `at most ${TEST_SENDS_PER_MINUTE} test sends a minute per account; retry in ${r.retryAfter} s`,
      undefined,
      { "Retry-After": String(r.retryAfter) },
    );
  }
  return { result: r, payload };
}
