// Every item of a table, page by page, read consistently: what the checks and a reset see is
// what the last write left, not an eventually consistent copy.
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { Connection } from "./connection.js";

export async function scanAll<T>(conn: Connection, table: string): Promise<T[]> {
  const items: T[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await conn.db.send(
      new ScanCommand({ TableName: table, ExclusiveStartKey, ConsistentRead: true }),
    );
    items.push(...((page.Items ?? []) as T[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}
