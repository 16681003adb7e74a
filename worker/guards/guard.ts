import type { Context } from "aws-lambda";
import type { Order } from "../../contract/order.js";
import type { WorkerConfig } from "../../contract/settings.js";
import type { Log } from "../log.js";
import type { ClaimsTable } from "../store.js";

/** Which copy of the message this is, and which invocation runs it. */
export interface Invocation {
  messageId: string;
  requestId: string;
  /** SQS's ApproximateReceiveCount: 1 on the first delivery, 2 on the first retry, … */
  attempt: number;
}

/** What happened to one SQS record. "failed" hands the record back to SQS for a retry. */
export type Outcome = "charged" | "skipped" | "failed";

export interface GuardInput {
  order: Order;
  invocation: Invocation;
  config: WorkerConfig;
  /** The guard's memory: one record per orderId. */
  claims: ClaimsTable;
  log: Log;
  context: Context;
  /** Does the work and charges the order once: every call is one more charge. */
  charge: () => Promise<void>;
}

/** An idempotency guard decides whether this copy of the order may charge. */
export type Guard = (input: GuardInput) => Promise<Outcome>;
