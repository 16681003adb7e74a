import type { Context } from "aws-lambda";
import type { WorkerConfig } from "../../contract/settings.js";
import type { Log } from "../log.js";
import type { Order } from "../order.js";
import type { Invocation } from "../store.js";

/** What happened to one SQS record. "failed" hands the record back to SQS for a retry. */
export type Outcome = "charged" | "skipped" | "failed";

export interface GuardInput {
  order: Order;
  invocation: Invocation;
  config: WorkerConfig;
  log: Log;
  context: Context;
  /** Does the work and charges the order once: every call is one more charge. */
  charge: () => Promise<void>;
}

/** An idempotency guard decides whether this copy of the order may charge. */
export type Guard = (input: GuardInput) => Promise<Outcome>;
