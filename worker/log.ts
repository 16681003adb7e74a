// One JSON object per line on stdout: Lambda ships each line to CloudWatch Logs, and the
// article's Logs Insights filters (/"type":"charge_applied"/) match JSON.stringify's output
// because it writes no spaces between keys and values.

export const EVENT_TYPES = [
  "process_start",
  "parse_failed",
  "claim_won",
  "claim_lost",
  "claim_busy",
  "claim_released",
  "skip_duplicate",
  "payload_mismatch",
  "charge_applied",
  "charge_failed",
  "process_end",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

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
