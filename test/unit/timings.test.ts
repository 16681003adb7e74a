import { describe, expect, test } from "vitest";
import {
  LOCALSTACK_TEST_TIMINGS,
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
