// What the emulator answers when a TransactWriteItems comes again with the same
// ClientRequestToken: what the SDK sends when it retries a transaction whose answer was lost
// (the token is filled in once per call, before the retry loop). AWS documents the answer: the
// same success, for ten minutes after the first. The lease guard's fenced charge counts on it,
// so the lab asks the emulator it runs on, once per run, instead of assuming.
import { randomUUID } from "node:crypto";
import { CreateTableCommand, DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Connection } from "./connection.js";

/** "as AWS": the retry succeeded; "refused": the emulator answered it with this error. */
export type TokenRetryAnswer = { kind: "as AWS" } | { kind: "refused"; error: string };

const asked = new Map<string, Promise<TokenRetryAnswer>>();

/** Once per endpoint and process: a table of its own, one conditional put sent twice, removed. */
export function transactionTokenRetry(conn: Connection): Promise<TokenRetryAnswer> {
  let answer = asked.get(conn.endpoint);
  if (!answer) {
    answer = probe(conn);
    asked.set(conn.endpoint, answer);
  }
  return answer;
}

async function probe(conn: Connection): Promise<TokenRetryAnswer> {
  const table = `lab-probe-token-${randomUUID().slice(0, 8)}`;
  await conn.db.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
  try {
    // Conditional, as the lease's fence is: a second write without the token would be refused.
    // A token of its own: one seen in the last ten minutes with another payload is refused.
    const token = randomUUID();
    const send = () =>
      conn.db.send(
        new TransactWriteCommand({
          ClientRequestToken: token,
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { id: "probe" },
                ConditionExpression: "attribute_not_exists(id)",
              },
            },
          ],
        }),
      );
    await send();
    try {
      await send();
      return { kind: "as AWS" };
    } catch (err) {
      return { kind: "refused", error: (err as Error).name };
    }
  } finally {
    await conn.db.send(new DeleteTableCommand({ TableName: table }));
  }
}
