import { describe, expect, test } from "vitest";
import type { WorkerEvent } from "../../harness/observe/events.js";
import { stepsView } from "../../harness/report/steps-view.js";

const head = (ms: number, messageId: string) => ({
  orderId: "ORDER-701",
  messageId,
  requestId: `r-${messageId}`,
  guard: "claim",
  ts: new Date(Date.UTC(2026, 11, 6, 12, 0, 0, ms)).toISOString(),
});

describe("step by step", () => {
  test("a phase with a boundary fault is told step by step, the fault in words", () => {
    const timeline: WorkerEvent[] = [
      { ...head(0, "m1"), type: "process_start", attempt: 1 },
      {
        ...head(40, "m1"),
        type: "fault",
        point: "dynamo",
        rule: "dynamo:PutItem:claims=lost-answer@copy1@attempt1",
        operation: "PutItem",
        tables: ["aws-lab-sqs-idempotency-claims"],
        sdkAttempt: "attempt=1; max=4",
      },
      { ...head(95, "m1"), type: "claim_lost" } as WorkerEvent,
      { ...head(300, "m1"), type: "fault", point: "payment", rule: "payment=lost-answer@copy1" },
    ];
    expect(stepsView(timeline, ["m1"])).toEqual([
      "  +0 ms  copy 1  starts (attempt 1)",
      " +40 ms  copy 1  PutItem claims: DynamoDB applied it, its answer lost (SDK attempt=1; max=4)",
      " +95 ms  copy 1  claim_lost",
      "+300 ms  copy 1  the payment went through, its answer lost",
    ]);
  });

  test("a phase with neither failpoints nor faults has no steps: its timeline says it all", () => {
    const timeline: WorkerEvent[] = [{ ...head(0, "m1"), type: "process_start", attempt: 1 }];
    expect(stepsView(timeline, ["m1"])).toEqual([]);
  });
});
