// The worker's own DynamoDB client (worker/dynamo.ts), pointed at the emulator, with one more
// middleware: before each command is sent, the copy that sends it stops at a gate named after
// the call ("PutItem claims"), and the schedule hears which keys the call names.
//
// One client for every copy, not one each: worker/guards/powertools.ts keeps the first client
// (and table) it is given for as long as the process lives, so a client per copy would send every
// Powertools call through the first copy's. Which copy is calling comes from AsyncLocalStorage.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { type Dynamo, dynamoClient } from "../../worker/dynamo.js";
import { EMULATOR_CREDENTIALS } from "../aws/connection.js";
import { type CallInfo, currentActor } from "./gates.js";

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

export function gatedClient(endpoint: string, region: string, tables: ExploreTables): Dynamo {
  const dynamo = dynamoClient(
    new DynamoDBClient({
      endpoint,
      region,
      credentials: EMULATOR_CREDENTIALS,
      // One try: an SDK retry would be a second call nobody scheduled.
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
    }),
  );
  const names = Object.keys(tables) as (keyof ExploreTables)[];
  const words = new Map(names.map((k) => [tables[k], TABLE_WORDS[k]]));
  const keyNames = new Map(names.map((k) => [tables[k], KEY_ATTRIBUTES[k]]));
  dynamo.client.middlewareStack.add(
    (next, context) => async (args) => {
      const actor = currentActor();
      if (!actor) return next(args); // the explorer's own reads
      const call = describeCall(String(context.commandName), args.input, keyNames);
      actor.calls += 1;
      actor.scope.calling(actor, call);
      const where = [...new Set(call.keys.map((k) => words.get(k.table) ?? k.table))].join("+");
      await actor.scope.reach(actor, { name: `${call.operation} ${where}`, call });
      return next(args);
    },
    { step: "initialize", name: "exploreGate", priority: "high" },
  );
  return dynamo;
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
