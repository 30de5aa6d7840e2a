/** The README's webhook test vector (secret, payload, headers as published): keep the two in step. */
import type { WebhookPayload } from "../lib/kv/store.ts";

export const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  payload: {
    id: "evt_00mhqk6k0abcdefghijklmn",
    event: "timer.completed",
    timestamp: "2026-11-22T12:00:10.000Z",
    timer_id: "tmr_4fGh8KzQ2mN7pX1a",
    title: "Tea",
    type: "countdown",
    data: {
      state: "completed",
      duration: 10,
      actual_duration: 10,
      started_at: "2026-11-22T12:00:00.000Z",
      completed_at: "2026-11-22T12:00:10.000Z",
    },
  } satisfies WebhookPayload,
  nowMs: Date.parse("2026-11-22T12:00:10.123Z"),
  headers: {
    "x-service-signature": "sha256=17bb4d909c279bcddc362bbfd98f97cf81b14f3235f03c7c163d3eb58dda8336",
    "webhook-id": "evt_00mhqk6k0abcdefghijklmn",
    "webhook-timestamp": "1795348810",
    "webhook-signature": "v1,UWTPa0N20HG64+bF2asZsAxyr0C+PGMFg2Ew/w2MQkU=",
  },
};
