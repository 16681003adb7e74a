import type { EventType } from "../../contract/events.js";
import type { WorkerEvent } from "../../harness/observe/events.js";

/** A worker event as the harness reads it back, for pure-logic tests. */
export function event(
  type: EventType,
  messageId: string,
  at: number,
  extra: Partial<WorkerEvent> = {},
): WorkerEvent {
  return {
    type,
    orderId: "ORDER-001",
    messageId,
    requestId: `req-${messageId}`,
    guard: "off",
    ts: new Date(Date.UTC(2026, 8, 14, 12, 0, 0, at)).toISOString(),
    ...extra,
  };
}
