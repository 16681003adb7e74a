// Faults at the worker's boundary (FAILPOINTS' dynamo and payment rules, contract/failpoints.ts):
// where production loses answers. A DynamoDB call is broken inside the SDK's retry loop, one
// attempt, so the SDK's own retry strategy decides what happens next, as it would after a real
// reset or throttle. A payment loses its answer after the charge was recorded.
import {
  type DynamoDBClient,
  ProvisionedThroughputExceededException,
} from "@aws-sdk/client-dynamodb";
import {
  type BoundaryTable,
  boundaryRulesFor,
  type DynamoFault,
  type DynamoFaultRule,
  formatRule,
  type Passer,
  type PaymentFaultRule,
  parseFailpoints,
} from "../contract/failpoints.js";
import type { WorkerConfig } from "../contract/settings.js";
import { markInjected } from "./injected.js";
import type { Log } from "./log.js";
import { sleep } from "./time.js";

/** One delivery's boundary faults: each rule acts once, on the first call or payment it matches. */
export interface Boundary {
  /** The fault for this attempt of a call, if a rule not yet used names it. */
  dynamoFault(operation: string, tables: string[], sdkAttempt: string): DynamoFault | undefined;
  /** After a charge was recorded: the timeout the worker gets instead of the answer, if any. */
  paymentFault(): Error | undefined;
}

type Tables = Pick<WorkerConfig, "claimsTable" | "ledgerTable" | "powertoolsTable">;

/** This delivery's boundary faults; none (undefined) unless a rule names this copy. */
export function boundaryFaults(
  config: Pick<WorkerConfig, "failpoints"> & Tables,
  who: Passer,
  log: Log,
): Boundary | undefined {
  const rules = boundaryRulesFor(parseFailpoints(config.failpoints), who);
  if (rules.length === 0) return undefined;
  const used = new Set<DynamoFaultRule | PaymentFaultRule>();
  const roles = new Map<string, BoundaryTable>([
    [config.claimsTable, "claims"],
    [config.ledgerTable, "ledger"],
    [config.powertoolsTable, "powertools"],
  ]);
  return {
    dynamoFault(operation, tables, sdkAttempt) {
      const named = tables.map((t) => roles.get(t));
      const rule = rules.find(
        (r): r is DynamoFaultRule =>
          r.point === "dynamo" &&
          !used.has(r) &&
          r.operation === operation &&
          (r.table === undefined || named.includes(r.table)),
      );
      if (!rule) return undefined;
      used.add(rule);
      log("fault", { point: "dynamo", rule: formatRule(rule), operation, tables, sdkAttempt });
      return rule.action;
    },
    paymentFault() {
      const rule = rules.find((r) => r.point === "payment" && !used.has(r));
      if (!rule) return undefined;
      used.add(rule);
      log("fault", { point: "payment", rule: formatRule(rule) });
      const timeout = new Error("the payment provider did not answer in time");
      return markInjected(Object.assign(timeout, { name: "TimeoutError" }));
    },
  };
}

/** One SDK attempt: the request as the retry middleware hands it on, and what comes back. */
type Attempt = (args: { input: unknown; request: unknown }) => Promise<unknown>;
export type AttemptMiddleware = (next: Attempt, context: { commandName?: string }) => Attempt;
/** The SDK types a middleware by step; one placed relative to another is any of them. */
export const asRelative = (m: AttemptMiddleware) =>
  m as unknown as Parameters<DynamoDBClient["middlewareStack"]["addRelativeTo"]>[0];

/** Puts the boundary's faults into a client's stack, inside the retry loop: once per attempt. */
export function breakCalls(client: DynamoDBClient, current: () => Boundary | undefined): void {
  const breakAttempt: AttemptMiddleware = (next, context) => async (args) => {
    const boundary = current();
    if (!boundary) return next(args);
    const operation = String(context.commandName).replace(/Command$/, "");
    // The retry middleware numbers each attempt in this header: "attempt=2; max=3".
    const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
    const sdkAttempt = headers["amz-sdk-request"] ?? "";
    const fault = boundary.dynamoFault(operation, tablesOf(args.input), sdkAttempt);
    if (!fault) return next(args);
    if (fault.kind === "slow") {
      await sleep(fault.ms);
      return next(args);
    }
    if (fault.kind === "throttled")
      throw markInjected(
        new ProvisionedThroughputExceededException({
          message: "The level of configured provisioned throughput for the table was exceeded",
          $metadata: { httpStatusCode: 400 },
        }),
      );
    if (fault.kind === "lost-request") throw connectionReset("write ECONNRESET");
    await next(args).catch(() => undefined); // applied (or refused): either way, the answer is lost
    throw connectionReset("socket hang up");
  };
  client.middlewareStack.addRelativeTo(asRelative(breakAttempt), {
    relation: "after",
    toMiddleware: "countDynamoAttempts",
    name: "boundaryFaults",
  });
}

/** What Node's HTTP client throws when the connection drops: the SDK retries ECONNRESET. */
function connectionReset(message: string): Error {
  return markInjected(Object.assign(new Error(message), { code: "ECONNRESET" }));
}

/** The tables a request names, one or several (a transaction). */
function tablesOf(input: unknown): string[] {
  const request = input as {
    TableName?: string;
    TransactItems?: Record<string, unknown>[];
    RequestItems?: Record<string, unknown>;
  };
  if (request.TableName) return [request.TableName];
  if (request.RequestItems) return Object.keys(request.RequestItems);
  const parts = request.TransactItems ?? [];
  return parts.flatMap((part) =>
    Object.values(part).map((p) => String((p as { TableName?: string }).TableName)),
  );
}
