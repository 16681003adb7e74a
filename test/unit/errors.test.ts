import { ListQueuesCommand } from "@aws-sdk/client-sqs";
import { describe, expect, test } from "vitest";
import { connect } from "../../harness/aws/connection.js";
import {
  EmulatorError,
  EXIT,
  LabError,
  talkingTo,
  UsageError,
} from "../../harness/common/errors.js";

describe("errors and exit codes", () => {
  test("one table: 0 held, 1 a check failed, 2 usage, 3 the lab could not run", () => {
    expect(EXIT).toEqual({ held: 0, checkFailed: 1, usage: 2, couldNotRun: 3 });
    expect(new UsageError("x").exitCode).toBe(2);
    expect(new LabError("x").exitCode).toBe(3);
  });

  test("a real SDK call to a closed port becomes an EmulatorError that keeps its cause", async () => {
    const conn = connect("http://127.0.0.1:9");
    try {
      const failure = await talkingTo(conn.endpoint, "listing queues", () =>
        conn.sqs.send(new ListQueuesCommand({})),
      ).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(EmulatorError);
      const error = failure as EmulatorError;
      expect(error.exitCode).toBe(EXIT.couldNotRun);
      expect(error.message).toMatch(/^listing queues failed at http:\/\/127\.0\.0\.1:9: /);
      expect((error.cause as { code?: string }).code).toBe("ECONNREFUSED");
    } finally {
      conn.close();
    }
  });

  test("anything else passes through untouched: a bug stays a bug", async () => {
    const bug = new TypeError("undefined is not a function");
    await expect(talkingTo("http://127.0.0.1:9", "x", () => Promise.reject(bug))).rejects.toBe(bug);
  });
});
