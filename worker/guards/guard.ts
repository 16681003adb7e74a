import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import type { Order } from "../../contract/order.js";
import type { WorkerConfig } from "../../contract/settings.js";
import type { ChargeOptions, RecordCharge } from "../charge.js";
import type { At } from "../failpoints.js";
import type { Invocation, Outcome } from "../invocation.js";
import type { Ledger } from "../ledger.js";
import type { Log } from "../log.js";
import type { ClaimsTable } from "../store.js";

export type { Invocation, Outcome };

export interface GuardInput {
  order: Order;
  invocation: Invocation;
  config: WorkerConfig;
  /** The guard's memory: one record per orderId. */
  claims: ClaimsTable;
  /** The charges, one item each (the lease guard writes its charge with its completion). */
  ledger: Ledger;
  /** The raw DynamoDB client, for Powertools' persistence layer. */
  dynamoClient: DynamoDBClient;
  /** The same client, reading and writing plain objects: for requests of a guard's own. */
  db: DynamoDBDocumentClient;
  log: Log;
  /** A failpoint (failpoints.ts): nothing happens there unless the harness set one. */
  at: At;
  context: Context;
  /**
   * Does the work and charges the order once: every call is one more charge. It records the
   * charge in the ledger, or as `record` says (given alone or as an option); false when that
   * refused it (the lease's fence). `idempotencyKey`: the payment provider's key for this charge.
   */
  charge: (how?: RecordCharge | ChargeOptions) => Promise<boolean>;
}

/** An idempotency guard decides whether this copy of the order may charge. */
export type Guard = (input: GuardInput) => Promise<Outcome>;
