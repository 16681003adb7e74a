// A phase's invocations as lanes: one per invocation, a bar from its start to its end, a mark
// per event, each with the words its tooltip says. Times only; pixels are the page's business.
import { EVENT_TYPES, type EventType } from "../../contract/events.js";
import type { WorkerEvent } from "../observe/events.js";
import { type InvocationSpan, invocationSpans, orphanCount } from "../observe/invocations.js";

/** The events drawn as marks, in legend order; process_start and process_end are the bar. */
export type MarkType = Exclude<EventType, "process_start" | "process_end">;
export const MARK_TYPES = EVENT_TYPES.filter(
  (t): t is MarkType => t !== "process_start" && t !== "process_end",
);
export const isMarkType = (type: string): type is MarkType => MARK_TYPES.includes(type as MarkType);

/** Bar outcomes in legend order; any other outcome a process_end logs comes after these. */
const OUTCOMES = ["charged", "skipped", "failed", "crashed"];

export interface MarkView {
  type: MarkType;
  ts: string;
  atMs: number;
  tip: string;
}

export interface LaneView {
  messageId: string;
  requestId: string;
  /** The order the record said it was; on a FIFO queue the lab sends each order as its own message group. */
  orderId: string;
  /**
   * When one invocation handled several records (a batch): how many, and whether this lane is
   * the first of them. A batch's lanes come one after another.
   */
  batch?: { records: number; first: boolean };
  /** On a FIFO queue: the record's message group (the lab sends each order as its own group). */
  group?: string;
  attempt?: number;
  outcome: string;
  crashed: boolean;
  startMs: number;
  endMs: number;
  /** The bar's tooltip: ids, attempt, how it ended and how long it took. */
  tip: string;
  /** Crashed lanes only: what the crash mark's tooltip says. */
  crashTip?: string;
  marks: MarkView[];
}

export interface TimelineView {
  lanes: LaneView[];
  /** The first event's time, and how long from it to the last. */
  t0: number;
  spanMs: number;
  startTs: string;
  /** Events from invocations that logged no process_start, so are not drawn. */
  orphans: number;
  legend: { outcomes: { outcome: string; count: number }[]; marks: MarkType[] };
  markCounts: Partial<Record<MarkType, number>>;
}

const clock = (ts: string) => ts.slice(11, 23);
const text = (value: unknown) =>
  value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
const BASE_KEYS = new Set(["type", "orderId", "messageId", "requestId", "guard", "ts"]);

export function timelineView(
  timeline: WorkerEvent[],
  options: { fifo?: boolean } = {},
): TimelineView {
  const spans = byInvocation(invocationSpans(timeline));
  const records = new Map<string, number>();
  for (const span of spans) records.set(span.requestId, (records.get(span.requestId) ?? 0) + 1);
  const times = timeline.map((e) => Date.parse(e.ts));
  const t0 = times.length ? Math.min(...times) : 0;
  const spanMs = times.length ? Math.max(Math.max(...times) - t0, 1) : 0;
  const relative = (ms: number) => `+${ms - t0} ms`;

  const lanes = spans.map((span, i): LaneView => {
    const crashed = span.outcome === "crashed";
    const batchOf = records.get(span.requestId) ?? 1;
    const first = spans[i - 1]?.requestId !== span.requestId;
    const marks = span.events.flatMap((e) =>
      isMarkType(e.type) ? [markView(e, e.type, relative(Date.parse(e.ts)))] : [],
    );
    return {
      messageId: span.messageId,
      requestId: span.requestId,
      orderId: span.events[0]?.orderId ?? "",
      ...(options.fifo ? { group: span.events[0]?.orderId ?? "" } : {}),
      ...(batchOf > 1 ? { batch: { records: batchOf, first } } : {}),
      ...(span.attempt !== undefined ? { attempt: span.attempt } : {}),
      outcome: span.outcome,
      crashed,
      startMs: span.startMs,
      endMs: span.endMs,
      tip: [
        `orderId ${span.events[0]?.orderId ?? ""}`,
        `messageId ${span.messageId}`,
        `requestId ${span.requestId}${batchOf > 1 ? ` (one invocation, ${batchOf} records)` : ""}`,
        ...(span.attempt !== undefined ? [`attempt ${span.attempt}`] : []),
        crashed
          ? `crashed: no process_end; last event at ${relative(span.endMs)}`
          : `${span.outcome} in ${span.endMs - span.startMs} ms`,
      ].join("\n"),
      ...(crashed
        ? {
            crashTip: `crashed: the invocation logged no process_end after ${clock(new Date(span.endMs).toISOString())}`,
          }
        : {}),
      marks,
    };
  });

  const outcomes = new Map<string, number>();
  for (const lane of lanes) outcomes.set(lane.outcome, (outcomes.get(lane.outcome) ?? 0) + 1);
  const markCounts: Partial<Record<MarkType, number>> = {};
  for (const lane of lanes)
    for (const mark of lane.marks) markCounts[mark.type] = (markCounts[mark.type] ?? 0) + 1;
  const ordered = [...OUTCOMES, ...[...outcomes.keys()].filter((o) => !OUTCOMES.includes(o))];

  return {
    lanes,
    t0,
    spanMs,
    startTs: timeline.find((e) => Date.parse(e.ts) === t0)?.ts ?? "",
    orphans: orphanCount(timeline, spans),
    legend: {
      outcomes: ordered.flatMap((outcome) => {
        const count = outcomes.get(outcome);
        return count === undefined ? [] : [{ outcome, count }];
      }),
      marks: MARK_TYPES.filter((t) => markCounts[t] !== undefined),
    },
    markCounts,
  };
}

/** The records of one invocation side by side, invocations in the order they started. */
function byInvocation(spans: InvocationSpan[]): InvocationSpan[] {
  const order = new Map<string, number>();
  for (const span of spans) if (!order.has(span.requestId)) order.set(span.requestId, order.size);
  return spans
    .map((span, i) => ({ span, i }))
    .sort(
      (a, b) =>
        (order.get(a.span.requestId) ?? 0) - (order.get(b.span.requestId) ?? 0) || a.i - b.i,
    )
    .map(({ span }) => span);
}

function markView(event: WorkerEvent, type: MarkType, relative: string): MarkView {
  const details = Object.entries(event)
    .filter(([k]) => !BASE_KEYS.has(k))
    .map(([k, v]) => {
      const shown = text(v);
      return `${k}: ${shown.length > 160 ? `${shown.slice(0, 160)}…` : shown}`;
    });
  return {
    type,
    ts: event.ts,
    atMs: Date.parse(event.ts),
    tip: [
      `${type} at ${clock(event.ts)} (${relative})`,
      `orderId: ${event.orderId}`,
      ...details,
    ].join("\n"),
  };
}
