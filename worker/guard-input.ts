// What a guard is handed for one record: the worker's tables, its log, its failpoint and a charge
// bound to this order and copy. The function builds it here, and so does `npx lab explore`.
import type { Context } from "aws-lambda";
import type { LedgerItem } from "../contract/ledger.js";
import type { Order } from "../contract/order.js";
import type { WorkerConfig } from "../contract/settings.js";
import type { Boundary } from "./boundary.js";
import { charge, chargeOptions } from "./charge.js";
import type { Dynamo } from "./dynamo.js";
import type { At } from "./failpoints.js";
import type { GuardInput } from "./guards/guard.js";
import type { Invocation } from "./invocation.js";
import { Ledger } from "./ledger.js";
import type { Log } from "./log.js";
import { ClaimsTable } from "./store.js";

export function guardInput(
  order: Order,
  invocation: Invocation,
  config: WorkerConfig,
  dynamo: Dynamo,
  log: Log,
  at: At,
  context: Context,
  boundary?: Boundary,
): GuardInput {
  const ledger = new Ledger(dynamo.db, config.ledgerTable);
  return {
    order,
    invocation,
    config,
    claims: new ClaimsTable(dynamo.db, config.claimsTable),
    ledger,
    dynamoClient: dynamo.client,
    db: dynamo.db,
    log,
    at,
    context,
    charge: (how) => {
      const { record = (item: LedgerItem) => ledger.record(item), idempotencyKey } =
        chargeOptions(how);
      const paymentFault = boundary?.paymentFault;
      const input = { order, invocation, config, ledger, log, at, paymentFault };
      return charge(input, { record, idempotencyKey });
    },
  };
}
