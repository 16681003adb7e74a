import { describe, expect, test } from "vitest";
import { invocationIntervals, maxConcurrency } from "../../harness/observe/overlap.js";
import { event } from "./fixtures.js";

const span = (id: string, start: number, end: number) => [
  event("process_start", id, start),
  event("process_end", id, end),
];

describe("maxConcurrency", () => {
  test("one after another is 1", () => {
    expect(maxConcurrency(invocationIntervals([...span("a", 0, 10), ...span("b", 20, 30)]))).toBe(
      1,
    );
  });

  test("touching is not overlapping: one ends as the next starts", () => {
    expect(maxConcurrency(invocationIntervals([...span("a", 0, 10), ...span("b", 10, 20)]))).toBe(
      1,
    );
  });

  test("three open at once", () => {
    const events = [
      ...span("a", 0, 100),
      ...span("b", 10, 50),
      ...span("c", 40, 60),
      ...span("d", 70, 80),
    ];
    expect(maxConcurrency(invocationIntervals(events))).toBe(3);
  });

  test("a retry of the same message is a separate invocation", () => {
    const first = [
      event("process_start", "m", 0, { requestId: "r1" }),
      event("process_end", "m", 50, { requestId: "r1" }),
    ];
    const retry = [
      event("process_start", "m", 20, { requestId: "r2" }),
      event("process_end", "m", 60, { requestId: "r2" }),
    ];
    expect(maxConcurrency(invocationIntervals([...first, ...retry]))).toBe(2);
  });

  test("an invocation that never ended (a crash) is not counted", () => {
    expect(invocationIntervals([event("process_start", "a", 0)])).toEqual([]);
    expect(maxConcurrency([])).toBe(0);
  });
});
