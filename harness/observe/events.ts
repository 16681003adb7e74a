// The worker's log lines, read back as data.
import { EVENT_TYPES, type EventType, type WorkerEvent } from "../../contract/events.js";

export type { WorkerEvent };

/**
 * A worker event from one CloudWatch log message, or undefined for START/END/REPORT and the
 * like. The real Node.js runtime (AWS, LocalStack) prefixes console.log lines with
 * "<timestamp>\t<requestId>\tINFO\t"; MiniStack does not. Both are read.
 */
export function parseEvent(message: string): WorkerEvent | undefined {
  const text = message.slice(message.indexOf("{")).trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text) as Partial<WorkerEvent>;
    if (!EVENT_TYPES.includes(value.type as EventType)) return undefined;
    if (typeof value.messageId !== "string" || typeof value.ts !== "string") return undefined;
    return value as WorkerEvent;
  } catch {
    return undefined;
  }
}

/** Events in the order they happened; ties keep log order. */
export function byTime(events: WorkerEvent[]): WorkerEvent[] {
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.ts.localeCompare(b.event.ts) || a.index - b.index)
    .map(({ event }) => event);
}
