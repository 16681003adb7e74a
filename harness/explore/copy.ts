// One delivery of one message, through the worker's real code: the same steps as
// worker/index.ts's processRecord (process_start, the guard, before-end, process_end), with the
// guard's input built the same way. Only the surroundings are the explorer's: the client is the
// gated one, `at` is a gate, the log lines are kept instead of printed, and the Lambda context
// counts down on the schedule's clock.

import type { Context } from "aws-lambda";
import type { WorkerConfig } from "../../contract/settings.js";
import type { Dynamo } from "../../worker/dynamo.js";
import type { At } from "../../worker/failpoints.js";
import { guardInput } from "../../worker/guard-input.js";
import type { Guard } from "../../worker/guards/guard.js";
import {
  type Invocation,
  isOutcome,
  notAnOutcome,
  type Outcome,
  thrown,
} from "../../worker/invocation.js";
import { createLog } from "../../worker/log.js";
import { parseOrder } from "../../worker/order.js";
import type { WorkerEvent } from "../observe/events.js";

export interface DeliveryInput {
  guard: Guard;
  config: WorkerConfig;
  body: string;
  invocation: Invocation;
  dynamo: Dynamo;
  context: Context;
  at: At;
  /** Every line the copy logs, as the harness reads it back from CloudWatch. */
  write: (event: WorkerEvent) => void;
  /** DynamoDB calls this copy made so far, and the SDK attempts they took. */
  calls: () => number;
  attempts: () => number;
}

export async function deliver(input: DeliveryInput): Promise<Outcome> {
  const { guard, config, body, invocation, dynamo, context, at, calls, attempts } = input;
  const startedAt = Date.now();
  const { messageId, requestId, attempt } = invocation;
  const { order } = parseOrder(body);
  const log = createLog(
    { orderId: order.orderId, messageId, requestId, guard: config.guard },
    (line) => input.write(JSON.parse(line) as WorkerEvent),
  );
  const end = async (outcome: Outcome, details: Record<string, unknown> = {}) => {
    await at("before-end");
    log("process_end", {
      outcome,
      durationMs: Date.now() - startedAt,
      dynamoCalls: calls(),
      dynamoAttempts: attempts(),
      ...details,
    });
    return outcome;
  };

  log("process_start", { attempt });
  try {
    const outcome: unknown = await guard(
      guardInput(order, invocation, config, dynamo, log, at, context),
    );
    // A guard file in plain JavaScript may return anything: the worker fails the record.
    if (isOutcome(outcome)) return end(outcome);
    return end("failed", { ...notAnOutcome(outcome) });
  } catch (err) {
    return end("failed", { ...thrown(err) });
  }
}

/** The Lambda context a guard reads: ids, and the time left before this delivery's deadline. */
export function lambdaContext(
  functionName: string,
  requestId: string,
  remainingMs: () => number,
): Context {
  return {
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: "256",
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "explore",
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: remainingMs,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
