// One JSON object per line on stdout: Lambda ships each line to CloudWatch Logs, and the
// article's Logs Insights filters (/"type":"charge_applied"/) match JSON.stringify's output
// because it writes no spaces between keys and values. Whatever a body holds, a line stays one
// line of JSON: the contract's keys come first and cannot be overwritten, long strings are cut,
// and the characters JSON leaves raw but log capture may split lines at are escaped.

import { createHash } from "node:crypto";
import type { EventDetails, EventType } from "../contract/events.js";

export interface LogContext {
  orderId: string;
  messageId: string;
  requestId: string;
  guard: string;
}

/** log("claim_won"), log("claim_busy", { heldBy }): each type takes its own details (contract/events.ts). */
export type Log = <T extends EventType>(type: T, ...details: DetailsOf<T>) => void;

/** The details argument: optional where every detail of the type is. */
type DetailsOf<T extends EventType> =
  Record<string, never> extends EventDetails[T]
    ? [details?: EventDetails[T]]
    : [details: EventDetails[T]];

/** The longest string a line carries: CloudWatch takes events up to 256 KB, a line stays near 1. */
export const MAX_VALUE_CHARS = 500;

const CONTRACT_KEYS = new Set(["type", "orderId", "messageId", "requestId", "guard", "ts"]);

export function formatLine(
  type: EventType,
  context: LogContext,
  details: object = {},
  now: Date = new Date(),
): string {
  const { orderId, messageId, requestId, guard } = context;
  const extra = Object.entries(details).filter(([key]) => !CONTRACT_KEYS.has(key));
  const event = { type, orderId, messageId, requestId, guard, ts: now.toISOString() };
  const keep = (_: string, value: unknown) => (typeof value === "string" ? cut(value) : value);
  // Two objects joined, because one object would put keys like "0" before "type".
  const head = JSON.stringify(event, keep);
  const tail = JSON.stringify(Object.fromEntries(extra), keep);
  const line = tail === "{}" ? head : `${head.slice(0, -1)},${tail.slice(1)}`;
  // JSON leaves U+0085, U+2028 and U+2029 raw, yet readers that split lines the Unicode way
  // (Python's splitlines, JavaScript's line terminators) end a line at them: escape them too.
  return line.replace(
    /[\u0085\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A string no longer than MAX_VALUE_CHARS, saying how much was cut. */
export function cut(value: string): string {
  if (value.length <= MAX_VALUE_CHARS) return value;
  const kept = value.slice(0, MAX_VALUE_CHARS);
  return `${kept}… (${value.length - MAX_VALUE_CHARS} more characters)`;
}

/** A body as a parse_failed line carries it: its start, its length, and a hash to match it by. */
export function bodyFields(body: string) {
  const bodySha256 = createHash("sha256").update(body).digest("hex").slice(0, 16);
  return { body, bodyLength: body.length, bodySha256 };
}

export function createLog(context: LogContext, write = (line: string) => console.log(line)): Log {
  return (type, ...[details]) => write(formatLine(type, context, details));
}
