// The article's Logs Insights views, computed from the worker's events, each with the query
// a user can paste into the CloudWatch console to see the same thing on real AWS.
import type { WorkerEvent } from "./events.js";

export const QUERIES = {
  countsByType: [
    "fields @timestamp, @message",
    '| filter @message like /"type":/',
    '| parse @message /"type":"(?<type>[^"]+)"/',
    "| stats count(*) as events by type",
  ].join("\n"),
  charges: [
    'filter @message like /"type":"charge_applied"/',
    '| parse @message /"orderId":"(?<orderId>[^"]+)"/',
    '| parse @message /"messageId":"(?<messageId>[^"]+)"/',
    "| stats count(*) as charges, count_distinct(orderId) as orders, count_distinct(messageId) as messages",
  ].join("\n"),
  timeline: (orderId: string) =>
    [
      "fields @timestamp, @message",
      `| filter @message like /"orderId":"${orderId}"/`,
      '| parse @message /"type":"(?<type>[^"]+)"/',
      '| parse @message /"messageId":"(?<messageId>[^"]+)"/',
      "| sort @timestamp asc",
    ].join("\n"),
};

/** The regular expressions the queries above use, as JavaScript sees them (tests check they match). */
export const INSIGHTS_PATTERNS = {
  isEvent: /"type":/,
  chargeApplied: /"type":"charge_applied"/,
  type: /"type":"(?<type>[^"]+)"/,
  orderId: /"orderId":"(?<orderId>[^"]+)"/,
  messageId: /"messageId":"(?<messageId>[^"]+)"/,
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
