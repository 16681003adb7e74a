import { describe, expect, test } from "vitest";
import {
  LOCALSTACK_TEST_TIMINGS,
  phaseClocks,
  TEST_TIMINGS,
  timingsProblem,
  WORKSHOP_TIMINGS,
} from "../../harness/aws/timings.js";

describe("AWS's rule: the visibility timeout is at least the function timeout", () => {
  test.each([TEST_TIMINGS, LOCALSTACK_TEST_TIMINGS, WORKSHOP_TIMINGS])(
    "the lab's own timings keep it (%o)",
    (timings) => expect(timingsProblem(timings)).toBeUndefined(),
  );

  test("a function timeout longer than the visibility timeout is refused, as AWS words it", () => {
    const problem = timingsProblem({
      ...TEST_TIMINGS,
      functionTimeoutSeconds: 10,
      visibilityTimeoutSeconds: 6,
    });
    expect(problem).toContain(
      "Queue visibility timeout: 6 seconds is less than Function timeout: 10 seconds",
    );
  });

  test("equal timeouts are allowed", () => {
    expect(
      timingsProblem({ ...TEST_TIMINGS, functionTimeoutSeconds: 6, visibilityTimeoutSeconds: 6 }),
    ).toBeUndefined();
  });
});

describe("a phase's clocks", () => {
  const ministack = { emulator: "ministack" } as const;
  const localstack = { emulator: "localstack" } as const;

  test("a phase that asks for nothing runs with the backend's deployed clocks", () => {
    expect(phaseClocks(ministack, {})).toEqual({
      functionTimeoutSeconds: TEST_TIMINGS.functionTimeoutSeconds,
      visibilityTimeoutSeconds: TEST_TIMINGS.visibilityTimeoutSeconds,
    });
    expect(phaseClocks(localstack, {})).toEqual({
      functionTimeoutSeconds: LOCALSTACK_TEST_TIMINGS.functionTimeoutSeconds,
      visibilityTimeoutSeconds: LOCALSTACK_TEST_TIMINGS.visibilityTimeoutSeconds,
    });
  });

  test("a held copy's clock is half as long again as it asks on MiniStack, twice on LocalStack; the queue's follows", () => {
    expect(phaseClocks(ministack, { functionTimeoutSeconds: 8 })).toEqual({
      functionTimeoutSeconds: 12,
      visibilityTimeoutSeconds: 12,
    });
    expect(phaseClocks(localstack, { functionTimeoutSeconds: 8 })).toEqual({
      functionTimeoutSeconds: 16,
      visibilityTimeoutSeconds: 16,
    });
  });

  test("never below the backend's own function timeout", () => {
    expect(phaseClocks(localstack, { functionTimeoutSeconds: 2 }).functionTimeoutSeconds).toBe(
      LOCALSTACK_TEST_TIMINGS.functionTimeoutSeconds,
    );
  });

  test("a queue's clock set on purpose stays as set (the visibility-clock lesson)", () => {
    expect(phaseClocks(localstack, { functionTimeoutSeconds: 8, visibilitySeconds: 1 })).toEqual({
      functionTimeoutSeconds: 16,
      visibilityTimeoutSeconds: 1,
    });
  });
});
