// How many invocations ran at the same moment, measured from the worker's own log lines.
// A racing scenario whose invocations never overlapped has not raced.
import type { WorkerEvent } from "./events.js";

export interface Interval {
  start: number;
  end: number;
}

/** One interval per invocation, from its process_start to its process_end. */
export function invocationIntervals(events: WorkerEvent[]): Interval[] {
  const starts = new Map<string, number>();
  const intervals: Interval[] = [];
  for (const event of events) {
    const key = `${event.requestId}/${event.messageId}`;
    if (event.type === "process_start") starts.set(key, Date.parse(event.ts));
    if (event.type === "process_end") {
      const start = starts.get(key);
      if (start !== undefined) intervals.push({ start, end: Date.parse(event.ts) });
    }
  }
  return intervals;
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
