// How many invocations ran at the same moment, measured from the worker's own log lines.
// A racing scenario whose invocations never overlapped has not raced.
import type { WorkerEvent } from "./events.js";
import { invocationSpans } from "./invocations.js";

export interface Interval {
  start: number;
  end: number;
}

/** One interval per invocation that ended, from its process_start to its process_end. */
export function invocationIntervals(events: WorkerEvent[]): Interval[] {
  return invocationSpans(events)
    .filter((span) => span.ended)
    .map((span) => ({ start: span.startMs, end: span.endMs }));
}

/** The largest number of intervals open at once. Touching (one ends as another starts) is not overlap. */
export function maxConcurrency(intervals: Interval[]): number {
  const points = intervals.flatMap(({ start, end }) => [
    { at: start, delta: 1 },
    { at: end, delta: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.delta - b.delta); // ends before starts at the same instant
  let open = 0;
  let max = 0;
  for (const { delta } of points) {
    open += delta;
    max = Math.max(max, open);
  }
  return max;
}
