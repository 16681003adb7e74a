// The article's Logs Insights views, computed from the worker's events, each with the query
// a user can paste into the CloudWatch console to see the same thing on real AWS.
import type { WorkerEvent } from "./events.js";

/**
 * The regular expressions of the article's queries: one source for the query texts below and
 * for the tests that run those texts on the worker's real log lines (Logs Insights reads
 * these as the same regular expressions JavaScript does).
 */
export const INSIGHTS_PATTERNS = {
  isEvent: /"type":/,
  chargeApplied: /"type":"charge_applied"/,
  type: /"type":"(?<type>[^"]+)"/,
  orderId: /"orderId":"(?<orderId>[^"]+)"/,
  messageId: /"messageId":"(?<messageId>[^"]+)"/,
};

const P = INSIGHTS_PATTERNS;
const like = (pattern: RegExp) => `| filter @message like /${pattern.source}/`;
const parse = (pattern: RegExp) => `| parse @message /${pattern.source}/`;

/** What a user pastes into the CloudWatch console to see each view on real AWS. */
export const QUERIES = {
  countsByType: [
    "fields @timestamp, @message",
    like(P.isEvent),
    parse(P.type),
    "| stats count(*) as events by type",
  ].join("\n"),
  charges: [
    like(P.chargeApplied).slice(2), // a query may not start with a pipe
    parse(P.orderId),
    parse(P.messageId),
    "| stats count(*) as charges, count_distinct(orderId) as orders, count_distinct(messageId) as messages",
  ].join("\n"),
  timeline: (orderId: string) =>
    [
      "fields @timestamp, @message",
      like(new RegExp(`"orderId":"${orderId}"`)),
      parse(P.type),
      parse(P.messageId),
      "| sort @timestamp asc",
    ].join("\n"),
};

export function countsByType(events: WorkerEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { type } of events) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

export interface ChargeSummary {
  charges: number;
  orders: number;
  messages: number;
}

export function chargeSummary(events: WorkerEvent[]): ChargeSummary {
  const charges = events.filter((e) => e.type === "charge_applied");
  return {
    charges: charges.length,
    orders: new Set(charges.map((e) => e.orderId)).size,
    messages: new Set(charges.map((e) => e.messageId)).size,
  };
}

/** Charges per orderId, as the worker saw the orderId (so "unparseable" is a key of its own). */
export function chargesByOrder(events: WorkerEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of events) {
    if (event.type === "charge_applied") counts[event.orderId] = (counts[event.orderId] ?? 0) + 1;
  }
  return counts;
}

export function timeline(events: WorkerEvent[], orderId: string): WorkerEvent[] {
  return events.filter((e) => e.orderId === orderId);
}
