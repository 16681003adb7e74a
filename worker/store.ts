// The two tables the worker writes: claims (one item per orderId, the guard's memory) and the
// charges ledger (one item per charge, what a payment provider would have on record).
import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type { Order } from "./order.js";

// The endpoint comes from AWS_ENDPOINT_URL, which both emulators set inside the function.
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export interface Claim {
  orderId: string;
  status: "CLAIMED" | "COMPLETED";
  messageId: string;
  requestId: string;
  claimedAt?: string;
  completedMessageId?: string;
  completedAt?: string;
}

export interface Invocation {
  messageId: string;
  requestId: string;
}

export async function readClaim(table: string, orderId: string): Promise<Claim | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table, Key: { orderId }, ConsistentRead: true }),
  );
  return Item as Claim | undefined;
}

/** The check and the reservation in one operation: it fails if any item holds this orderId. */
export async function putClaimIfAbsent(table: string, claim: Claim): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: table,
      Item: claim,
      ConditionExpression: "attribute_not_exists(orderId)",
    }),
  );
}

export async function putClaim(table: string, claim: Claim): Promise<void> {
  await db.send(new PutCommand({ TableName: table, Item: claim }));
}

/** Only the copy that holds the claim may mark it COMPLETED. */
export async function completeClaim(table: string, orderId: string, by: Invocation): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { orderId },
      UpdateExpression:
        "SET #status = :completed, completedMessageId = :messageId, completedAt = :now",
      ConditionExpression: "messageId = :messageId",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: {
        ":completed": "COMPLETED",
        ":messageId": by.messageId,
        ":now": new Date().toISOString(),
      },
    }),
  );
}

export async function recordCharge(table: string, order: Order, by: Invocation): Promise<string> {
  const chargeId = randomUUID();
  await db.send(
    new PutCommand({
      TableName: table,
      Item: { chargeId, ...order, ...by, chargedAt: new Date().toISOString() },
    }),
  );
  return chargeId;
}

export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === "ConditionalCheckFailedException";
}
