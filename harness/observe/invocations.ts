// The worker's events grouped into invocations: one per (requestId, messageId) that logged a
// process_start. The overlap measure and the report's timeline both read them from here.
import type { WorkerEvent } from "./events.js";

/** One invocation of the worker for one message, from its process_start to its process_end. */
export interface InvocationSpan {
  messageId: string;
  requestId: string;
  /** The attempt its process_start logged, when it logged a positive one. */
  attempt?: number;
  /** False when it logged no process_end: it crashed (or has not finished yet). */
  ended: boolean;
  /** charged | skipped | failed from process_end, or crashed when there is none. */
  outcome: string;
  startMs: number;
  /** Its process_end, or else its last event. */
  endMs: number;
  events: WorkerEvent[];
}

const keyOf = (event: WorkerEvent) => `${event.requestId}\u0000${event.messageId}`;

/** The invocations in these events, by start (then messageId); events of none are left out. */
export function invocationSpans(events: WorkerEvent[]): InvocationSpan[] {
  const groups = new Map<string, WorkerEvent[]>();
  for (const event of events) {
    const group = groups.get(keyOf(event));
    if (group) group.push(event);
    else groups.set(keyOf(event), [event]);
  }
  const spans: InvocationSpan[] = [];
  for (const group of groups.values()) {
    const start = group.find((e) => e.type === "process_start");
    if (!start) continue;
    const end = group.find((e) => e.type === "process_end");
    const attempt = Number(start.attempt);
    spans.push({
      messageId: start.messageId,
      requestId: start.requestId,
      ...(Number.isFinite(attempt) && attempt > 0 ? { attempt } : {}),
      ended: end !== undefined,
      outcome: end ? outcomeText(end.outcome) : "crashed",
      startMs: Date.parse(start.ts),
      endMs: end ? Date.parse(end.ts) : Math.max(...group.map((e) => Date.parse(e.ts))),
      events: group,
    });
  }
  return spans.sort((a, b) => a.startMs - b.startMs || a.messageId.localeCompare(b.messageId));
}

const outcomeText = (outcome: unknown) =>
  outcome === undefined ? "ended" : typeof outcome === "string" ? outcome : JSON.stringify(outcome);

/** The events that belong to no invocation (no process_start was logged for theirs). */
export const orphanCount = (events: WorkerEvent[], spans: InvocationSpan[]) =>
  events.length - spans.reduce((n, span) => n + span.events.length, 0);
