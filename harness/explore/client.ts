// The worker's own DynamoDB client (worker/dynamo.ts), pointed at the emulator, with the worker's
// retry settings and two more middlewares: when the code makes a call, the schedule hears which
// keys it names; before each attempt the SDK makes at it (inside the SDK's retry loop), the copy
// stops at a gate named after the call ("PutItem claims"), and the schedule may have the network
// lose that attempt's request or answer, so the SDK's own retry decides what comes next.
//
// One client for every copy, not one each: worker/guards/powertools.ts keeps the first client
// (and table) it is given for as long as the process lives, so a client per copy would send every
// Powertools call through the first copy's. Which copy is calling comes from AsyncLocalStorage.
import {
  DynamoDBClient,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from "@aws-sdk/client-dynamodb";
import type { FinalizeRequestMiddleware } from "@smithy/types";
import { type Dynamo, dynamoClient } from "../../worker/dynamo.js";
import { EMULATOR_CREDENTIALS } from "../aws/connection.js";
import { type CallInfo, currentActor, type Gate, type Loss } from "./gates.js";
import { networkError, PaymentTimeout, type RetriesPerCopy } from "./sdk-retries.js";

/** The tables a session made, and the short names steps call them by. */
export interface ExploreTables {
  claims: string;
  ledger: string;
  powertools: string;
}

export const TABLE_WORDS: Record<keyof ExploreTables, string> = {
  claims: "claims",
  ledger: "charges",
  powertools: "powertools",
};

/** Each table's partition key (docs/design.md §3). */
export const KEY_ATTRIBUTES: Record<keyof ExploreTables, string> = {
  claims: "orderId",
  ledger: "chargeId",
  powertools: "id",
};

type AttemptMiddleware = FinalizeRequestMiddleware<ServiceInputTypes, ServiceOutputTypes>;

/** What a call's attempt heard, told to the schedule: its own answer, or the one the explorer lost. */
const LOSS_TOLD: Record<Loss, string> = {
  request: "the request is lost on the way: nothing applied, the SDK sees a network error",
  answer: "DynamoDB applied it; its answer is lost: the SDK sees a network error",
  payment: "the charge went through; its answer is lost: the payment times out",
};

export function gatedClient(
  endpoint: string,
  region: string,
  tables: ExploreTables,
  retries: RetriesPerCopy,
): Dynamo {
  const dynamo = dynamoClient(
    new DynamoDBClient({
      endpoint,
      region,
      credentials: EMULATOR_CREDENTIALS,
      // The worker's settings; each copy's retries decided by the SDK's own strategy.
      maxAttempts: retries.settings.maxAttempts,
      retryMode: retries.settings.retryMode,
      retryStrategy: retries,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
    }),
  );
  installGates(dynamo.client.middlewareStack, tables);
  return dynamo;
}

/** The header a gated attempt carries, so a request without it is one that went around. */
export const GATED_HEADER = "x-lab-explorer-gate";

const gated = new WeakSet<object>();

/**
 * The explorer's two middlewares, on a DynamoDB client's stack (the explorer's own, or one a
 * guard built): once per stack, however often it is asked.
 */
export function installGates(stack: DynamoDBClient["middlewareStack"], tables: ExploreTables) {
  if (gated.has(stack)) return;
  gated.add(stack);
  const names = Object.keys(tables) as (keyof ExploreTables)[];
  const words = new Map(names.map((k) => [tables[k], TABLE_WORDS[k]]));
  const keyNames = new Map(names.map((k) => [tables[k], KEY_ATTRIBUTES[k]]));
  const calls = new WeakMap<object, { call: CallInfo; name: string; attempts: number }>();
  // Once per call the code makes: what it names, before the SDK's retries.
  stack.add(
    (next, context) => async (args) => {
      const actor = currentActor();
      if (!actor) return next(args); // the explorer's own reads
      const call = describeCall(String(context.commandName), args.input, keyNames);
      actor.calls += 1;
      actor.scope.calling(actor, call);
      const where = [...new Set(call.keys.map((k) => words.get(k.table) ?? k.table))].join("+");
      calls.set(context, { call, name: `${call.operation} ${where}`, attempts: 0 });
      return next(args);
    },
    { step: "initialize", name: "exploreCall", priority: "high" },
  );
  // Once per attempt, inside the SDK's retry loop: the gate, and whatever the network loses.
  const perAttempt: AttemptMiddleware = (next, context) => async (args) => {
    const actor = currentActor();
    const made = calls.get(context);
    if (!actor || !made) return next(args);
    made.attempts += 1;
    actor.attempts += 1;
    const { call, attempts } = made;
    const name = attempts === 1 ? made.name : `${made.name} (SDK retry, attempt ${attempts})`;
    const gate: Gate = { name, call, attempt: attempts };
    await actor.scope.reach(actor, gate);
    const { request } = args as { request?: { headers?: Record<string, string> } };
    if (request?.headers) request.headers[GATED_HEADER] = String(attempts);
    const lose = gate.lose;
    if (lose === "request") {
      actor.scope.heard(actor, `${name}: ${LOSS_TOLD.request}`);
      throw networkError("request");
    }
    // A retry's own answer is told: it is what the SDK makes of the lost one.
    const retry = attempts > 1;
    try {
      const answer = await next(args);
      if (lose === undefined) {
        if (retry) actor.scope.heard(actor, `${name}: DynamoDB answered`);
        return answer;
      }
    } catch (err) {
      if (lose === undefined) {
        if (retry) actor.scope.heard(actor, `${name}: DynamoDB refused it: ${(err as Error).name}`);
        throw err;
      }
    }
    actor.scope.heard(actor, `${name}: ${LOSS_TOLD[lose]}`);
    throw lose === "payment" ? new PaymentTimeout() : networkError("answer");
  };
  stack.addRelativeTo(perAttempt, {
    relation: "after",
    toMiddleware: "retryMiddleware",
    name: "exploreAttempt",
  });
}

type Input = Record<string, unknown>;

/** What a command does and which keys it names, from its input (plain or marshalled). */
export function describeCall(
  commandName: string,
  input: unknown,
  keyNames: ReadonlyMap<string, string>,
): CallInfo {
  const operation = commandName.replace(/Command$/, "");
  const keys: CallInfo["keys"] = [];
  const note = (request: Input | undefined) => {
    if (!request) return;
    const table = String(request.TableName);
    const item = (request.Item ?? request.Key) as Input | undefined;
    const keyName = keyNames.get(table);
    if (item && keyName && item[keyName] !== undefined)
      keys.push({ table, key: plain(item[keyName]) });
    else keys.push({ table, key: "" });
  };
  const request = input as Input;
  if (Array.isArray(request.TransactItems)) {
    for (const part of request.TransactItems as Input[]) {
      note((part.Put ?? part.Update ?? part.Delete ?? part.ConditionCheck) as Input);
    }
  } else note(request);
  return { operation, keys };
}

/** A key value as a string, whether the document client or the raw one wrote it. */
function plain(value: unknown): string {
  if (typeof value === "string") return value;
  const v = value as { S?: string; N?: string } | undefined;
  return v?.S ?? v?.N ?? JSON.stringify(value);
}
