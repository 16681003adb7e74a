// The Lambda worker: one SQS record in, one order charged (or not), one line of JSON per step.

import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import {
  type GuardChoice,
  type GuardName,
  readConfig,
  type WorkerConfig,
} from "../contract/settings.js";
import { boundaryFaults } from "./boundary.js";
import { type Dynamo, dynamoClient } from "./dynamo.js";
import { copyOf, failpoints } from "./failpoints.js";
import { guardInput } from "./guard-input.js";
import { claim } from "./guards/claim.js";
import type { Guard } from "./guards/guard.js";
import { lease } from "./guards/lease.js";
import { naive } from "./guards/naive.js";
import { off } from "./guards/off.js";
import { pluggedIn } from "./guards/plugged-in.js";
import { powertools } from "./guards/powertools.js";
import { isOutcome, notAnOutcome, type Outcome, thrown } from "./invocation.js";
import { bodyFields, createLog, type Log } from "./log.js";
import { parseOrder } from "./order.js";

const guards: Record<GuardName, Guard> = { off, naive, claim, lease, powertools };

// One client per container, made on the first invocation and kept for the next ones.
let dynamo: Dynamo | undefined;

export async function handler(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const config = readConfig(process.env);
  dynamo ??= dynamoClient();
  const done: Done[] = [];
  for (const record of event.Records)
    done.push(await processRecord(record, context, config, dynamo));
  const failed = done.filter((d) => d.outcome === "failed");
  if (config.batchFailures === "throw" && failed.length > 0) {
    // One failure fails the invocation: SQS delivers every record again, the charged ones too.
    for (const d of done) d.log("batch_failed", { failed: failed.length, records: done.length });
    throw new Error(`${failed.length} of ${done.length} records failed; the batch goes back`);
  }
  // A failed record stays in the queue, and SQS delivers it again after the visibility timeout.
  return { batchItemFailures: failed.map((d) => ({ itemIdentifier: d.messageId })) };
}

/** What became of one record, and its log, for the batch's verdict. */
interface Done {
  messageId: string;
  outcome: Outcome;
  log: Log;
}

async function processRecord(
  record: SQSRecord,
  context: Context,
  config: WorkerConfig,
  dynamo: Dynamo,
): Promise<Done> {
  const startedAt = Date.now();
  const callsBefore = dynamo.calls();
  const attemptsBefore = dynamo.attempts();
  const { messageId } = record;
  const requestId = context.awsRequestId;
  const attempt = Number(record.attributes.ApproximateReceiveCount) || 1; // 1, then 2 on the first retry
  const invocation = { messageId, requestId, attempt };
  const parsed = parseOrder(record.body);
  const { order } = parsed;
  const log = createLog({ orderId: order.orderId, messageId, requestId, guard: config.guard });
  // Where the harness may hold or break this copy: nothing happens unless FAILPOINTS is set.
  const who = { copy: copyOf(record), attempt, messageId };
  const at = failpoints(config, who, log, context);
  // Faults at the boundary (a lost answer, a throttle): none unless FAILPOINTS names this copy.
  const boundary = boundaryFaults(config, who, log);
  dynamo.breakCallsOf(boundary);
  const end = async (outcome: Outcome, details: Record<string, unknown> = {}): Promise<Done> => {
    await at("before-end");
    const dynamoCalls = dynamo.calls() - callsBefore;
    const dynamoAttempts = dynamo.attempts() - attemptsBefore;
    const durationMs = Date.now() - startedAt;
    log("process_end", { outcome, durationMs, dynamoCalls, dynamoAttempts, ...details });
    return { messageId, outcome, log };
  };

  log("process_start", { attempt });
  if (!parsed.ok) {
    log("parse_failed", { error: parsed.error, ...bodyFields(record.body) });
    // strict: claim nothing, charge nothing; SQS retries it into the dead-letter queue.
    if (config.parseMode === "strict") return end("failed");
  }
  try {
    const guard = guardFor(config.guard);
    const outcome: unknown = await guard(
      guardInput(order, invocation, config, dynamo, log, at, context, boundary),
    );
    if (isOutcome(outcome)) return end(outcome);
    return end("failed", notAnOutcome(outcome));
  } catch (err) {
    return end("failed", { ...thrown(err), ...whereInGuardFile(err) });
  }
}

function guardFor(name: GuardChoice): Guard {
  if (name in guards) return guards[name as GuardName];
  if (pluggedIn?.name === name) return pluggedIn.guard;
  throw new Error(
    `GUARD=${name} names a guard file, but this function was built ${pluggedIn ? `with ${pluggedIn.name}` : "without one"}: deploy it with --guard-file`,
  );
}

/**
 * Where in a guard file an error was thrown (file:line:col): its bundle carries a source map,
 * and the function runs with NODE_OPTIONS=--enable-source-maps (harness/aws/worker-env.ts).
 */
function whereInGuardFile(err: unknown): { at?: string } {
  if (!pluggedIn) return {};
  const { name } = pluggedIn;
  const frames = String((err as Error)?.stack ?? "").split("\n");
  const frame = frames.find((line) => line.includes(name));
  const at = frame?.match(/([^\s(/\\]+:\d+:\d+)\)?\s*$/)?.[1];
  return at ? { at } : {};
}
