import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { Order } from "../../contract/order.js";
import { retryWhileBusy } from "./busy.js";
import type { Guard } from "./guard.js";

let persistenceStore: DynamoDBPersistenceLayer | undefined;

/**
 * The same charge, guarded by the maintained library: Powertools for AWS Lambda's idempotency
 * utility, keyed on orderId, with its own DynamoDB table. An INPROGRESS record expires with the
 * invocation that wrote it, so a crashed copy does not block the order forever.
 */
export const powertools: Guard = async (input) => {
  const { order, config, context, dynamoClient, log, at, charge } = input;
  persistenceStore ??= new DynamoDBPersistenceLayer({
    tableName: config.powertoolsTable,
    awsSdkV3Client: dynamoClient, // the worker's own, so its calls are counted too
  });
  const idempotency = new IdempotencyConfig({
    eventKeyJmesPath: "orderId",
    payloadValidationJmesPath: "[customerId, amount]",
    // How long a COMPLETED record is remembered; Powertools treats an expired one as absent.
    expiresAfterSeconds: config.recordTtlSeconds,
  });
  idempotency.registerLambdaContext(context); // so INPROGRESS expires when this invocation would

  let ran = false;
  const chargeOnce = makeIdempotent(
    async (_order: Order) => {
      ran = true;
      await at("after-claim"); // Powertools has saved INPROGRESS
      log("claim_won");
      await charge();
      return { charged: true };
    },
    { persistenceStore, config: idempotency },
  );
  // Another copy's INPROGRESS record: look again a few times before failing (see busy.ts).
  await at("before-claim");
  const attempt = () =>
    chargeOnce(order).then(
      () => undefined,
      (err: unknown) => err,
    );
  const err = await retryWhileBusy(attempt, (e) => e instanceof IdempotencyAlreadyInProgressError);
  if (err instanceof IdempotencyAlreadyInProgressError) {
    log("claim_busy");
    return "failed";
  }
  if (err instanceof IdempotencyValidationError) {
    log("payload_mismatch", { amount: order.amount, customerId: order.customerId });
    return "failed";
  }
  if (err) throw err;
  await at("after-complete"); // Powertools has saved COMPLETED, or found it
  if (ran) return "charged";
  log("claim_lost"); // Powertools returned the stored result of the copy that charged
  log("skip_duplicate");
  return "skipped";
};
