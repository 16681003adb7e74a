// The deliveries a run's events show: which messages have ended (acknowledged or dead-lettered),
// which deliveries never logged their end, which came after an acknowledgement. Pure: events in,
// answers out; observe.ts polls with them.
import type { SentMessage } from "../drive/send.js";
import type { WorkerEvent } from "./events.js";

export interface Unfinished {
  messageId: string;
  intendedOrderId: string;
  lastEvent: string;
}

/**
 * A message has ended when the worker acknowledged it (charged or skipped) or SQS dead-lettered
 * it. A record whose batch then failed (batch_failed) was not acknowledged: it comes back.
 */
export function unfinished(
  sent: SentMessage[],
  events: WorkerEvent[],
  deadLettered: ReadonlySet<string>,
): Unfinished[] {
  const last = new Map<string, WorkerEvent>();
  const done = new Set<string>();
  for (const event of events) {
    last.set(event.messageId, event);
    if (acknowledges(event)) {
      done.add(event.messageId);
    }
    if (event.type === "batch_failed") done.delete(event.messageId);
  }
  return sent
    .filter((m) => !done.has(m.messageId) && !deadLettered.has(m.messageId))
    .map((m) => {
      const event = last.get(m.messageId);
      const lastEvent = event
        ? `${event.type}${event.type === "process_end" ? ` ${event.outcome}` : ""}`
        : "none yet";
      return { messageId: m.messageId, intendedOrderId: m.intendedOrderId, lastEvent };
    });
}

/**
 * The process_start lines of deliveries (one record of one invocation) that logged no
 * process_end: still running, crashed, or killed at the function timeout.
 */
export function unendedDeliveries(events: WorkerEvent[]): WorkerEvent[] {
  const running = new Map<string, WorkerEvent>();
  for (const event of events) {
    const delivery = `${event.requestId}/${event.messageId}`;
    if (event.type === "process_start") running.set(delivery, event);
    if (event.type === "process_end") running.delete(delivery);
  }
  return [...running.values()];
}

/** A delivery's end that tells SQS to delete the record: charged or skipped. */
const acknowledges = (event: WorkerEvent) =>
  event.type === "process_end" && (event.outcome === "charged" || event.outcome === "skipped");

/**
 * The process_start lines of deliveries that came after an earlier delivery of the same message
 * had acknowledged it: that one's run, from receive to acknowledgement, outlived the visibility
 * timeout, and its acknowledgement came too late to remove the message.
 */
export function deliveriesAfterAcknowledged(events: WorkerEvent[]): WorkerEvent[] {
  const acknowledged = new Set<string>();
  const after: WorkerEvent[] = [];
  for (const event of events) {
    if (event.type === "process_start" && acknowledged.has(event.messageId)) after.push(event);
    // A record acknowledged inside a batch that then failed comes back by design.
    if (event.type === "batch_failed") acknowledged.delete(event.messageId);
    if (acknowledges(event)) acknowledged.add(event.messageId);
  }
  return after;
}

/**
 * Invocations that logged process_start and no process_end yet. A message can be acknowledged
 * while another delivery of it still runs (its visibility timeout ran out meanwhile): the run
 * is not over until that one has said what it did too.
 */
export function stillRunning(
  events: WorkerEvent[],
  timedOut?: { afterMs: number; nowMs: number },
): number {
  const running = unendedDeliveries(events);
  if (!timedOut) return running.length;
  // Lambda ends an invocation at its timeout: one that started before that and said nothing
  // more will never log its end.
  return running.filter((start) => timedOut.nowMs - Date.parse(start.ts) < timedOut.afterMs).length;
}

/** The dead-lettered messages whose last delivery (attempt `deliveries`) the log shows. */
export function lastDeliveryLogged(
  deadLettered: ReadonlySet<string>,
  events: WorkerEvent[],
  deliveries: number | undefined,
): ReadonlySet<string> {
  if (deliveries === undefined) return deadLettered;
  const last = events.filter((e) => e.type === "process_start" && Number(e.attempt) >= deliveries);
  return new Set(last.map((e) => e.messageId).filter((id) => deadLettered.has(id)));
}

export const invocationsIn = (events: WorkerEvent[]) =>
  new Set(events.filter((e) => e.type === "process_start").map((e) => e.requestId)).size;
