// The worker's DynamoDB client, counting the calls it makes, so process_end can say what each
// message cost (the load bench compares guards by it).
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export interface Dynamo {
  /** The raw client, for Powertools' persistence layer. */
  client: DynamoDBClient;
  /** The same client, reading and writing plain objects. */
  db: DynamoDBDocumentClient;
  /** Calls made so far by this container. */
  calls(): number;
}

/**
 * In the function, the client's endpoint comes from AWS_ENDPOINT_URL, which both emulators set;
 * a test hands in a client of its own.
 */
export function dynamoClient(client = new DynamoDBClient({})): Dynamo {
  let calls = 0;
  // "initialize" runs once per command sent, before any retry: a call the code made.
  client.middlewareStack.add(
    (next) => (args) => {
      calls += 1;
      return next(args);
    },
    { step: "initialize", name: "countDynamoCalls" },
  );
  return { client, db: DynamoDBDocumentClient.from(client), calls: () => calls };
}
