// The worker's DynamoDB client, counting the calls it makes and the attempts the SDK made for
// them, so process_end can say what each message cost (the load bench compares guards by it).
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DYNAMO_RETRIES } from "../contract/retries.js";
import { type AttemptMiddleware, asRelative, type Boundary, breakCalls } from "./boundary.js";

export interface Dynamo {
  /** The raw client, for Powertools' persistence layer. */
  client: DynamoDBClient;
  /** The same client, reading and writing plain objects. */
  db: DynamoDBDocumentClient;
  /** Calls made so far by this container. */
  calls(): number;
  /** Attempts the SDK made for them: one per call, more where it retried. */
  attempts(): number;
  /**
   * The boundary faults of the delivery running now (FAILPOINTS' dynamo rules), or none. The
   * worker runs one record at a time, so one delivery's rules are the client's at a time.
   */
  breakCallsOf(boundary: Boundary | undefined): void;
}

/**
 * In the function, the client's endpoint comes from AWS_ENDPOINT_URL, which both emulators set,
 * and its retries are the SDK's defaults, written out (contract/retries.ts); a test hands in a
 * client of its own.
 */
export function dynamoClient(client = new DynamoDBClient({ ...DYNAMO_RETRIES })): Dynamo {
  let calls = 0;
  let attempts = 0;
  // "initialize" runs once per command sent, before any retry: a call the code made.
  client.middlewareStack.add(
    (next) => (args) => {
      calls += 1;
      return next(args);
    },
    { step: "initialize", name: "countDynamoCalls" },
  );
  // Right after the SDK's retry middleware: inside its loop, so once per attempt.
  const countAttempt: AttemptMiddleware = (next) => (args) => {
    attempts += 1;
    return next(args);
  };
  client.middlewareStack.addRelativeTo(asRelative(countAttempt), {
    relation: "after",
    toMiddleware: "retryMiddleware",
    name: "countDynamoAttempts",
  });
  let current: Boundary | undefined;
  let breaking = false;
  return {
    client,
    db: DynamoDBDocumentClient.from(client),
    calls: () => calls,
    attempts: () => attempts,
    breakCallsOf: (boundary) => {
      current = boundary;
      // Added the first time a delivery has faults: without FAILPOINTS the stack stays as it was.
      if (boundary && !breaking) breakCalls(client, () => current);
      breaking ||= boundary !== undefined;
    },
  };
}
