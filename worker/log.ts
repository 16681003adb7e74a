// One JSON object per line on stdout: Lambda ships each line to CloudWatch Logs, and the
// article's Logs Insights filters (/"type":"charge_applied"/) match JSON.stringify's output
// because it writes no spaces between keys and values.

import type { EventType } from "../contract/events.js";

export interface LogContext {
  orderId: string;
  messageId: string;
  requestId: string;
  guard: string;
}

export type Log = (type: EventType, details?: Record<string, unknown>) => void;

export function formatLine(
  type: EventType,
  context: LogContext,
  details: Record<string, unknown> = {},
  now: Date = new Date(),
): string {
  const { orderId, messageId, requestId, guard } = context;
  return JSON.stringify({
    type,
    orderId,
    messageId,
    requestId,
    guard,
    ts: now.toISOString(),
    ...details,
  });
}

export function createLog(context: LogContext, write = (line: string) => console.log(line)): Log {
  return (type, details) => write(formatLine(type, context, details));
}
