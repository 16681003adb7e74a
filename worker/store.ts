// The two tables the worker writes: claims (one item per orderId, the guard's memory) and the
// charges ledger (one item per charge, what a payment provider would have on record).
import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
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
  // lease only:
  owner?: string;
  leaseUntil?: number;
  payloadHash?: string;
}

export interface Invocation {
  messageId: string;
  requestId: string;
  /** SQS's ApproximateReceiveCount: 1 on the first delivery, 2 on the first retry, … */
  attempt: number;
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

/**
 * Takes the claim if nobody holds it, or if a copy holds it whose lease ran out without
 * finishing (it crashed). Returns the claim it took over, if any.
 */
export async function takeLease(table: string, claim: Claim): Promise<Claim | undefined> {
  const { Attributes } = await db.send(
    new PutCommand({
      TableName: table,
      Item: claim,
      ConditionExpression:
        "attribute_not_exists(orderId) OR (#status = :claimed AND leaseUntil < :now AND payloadHash = :hash)",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: {
        ":claimed": "CLAIMED",
        ":now": Date.now(),
        ":hash": claim.payloadHash,
      },
      ReturnValues: "ALL_OLD",
    }),
  );
  return Attributes as Claim | undefined;
}

/** Gives the claim back after a failed charge, so a retry can take it. Only the owner may. */
export async function releaseLease(table: string, orderId: string, owner: string): Promise<void> {
  await db.send(
    new DeleteCommand({
      TableName: table,
      Key: { orderId },
      ConditionExpression: "#owner = :owner AND #status = :claimed",
      ExpressionAttributeNames: { "#owner": "owner", "#status": "status" },
      ExpressionAttributeValues: { ":owner": owner, ":claimed": "CLAIMED" },
    }),
  );
}

/** COMPLETED, by the owner of the lease only; a copy that lost its lease meanwhile fails here. */
export async function completeLease(table: string, orderId: string, owner: string, by: Invocation) {
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { orderId },
      UpdateExpression:
        "SET #status = :completed, completedMessageId = :messageId, completedAt = :now REMOVE leaseUntil",
      ConditionExpression: "#owner = :owner",
      ExpressionAttributeNames: { "#status": "status", "#owner": "owner" },
      ExpressionAttributeValues: {
        ":completed": "COMPLETED",
        ":messageId": by.messageId,
        ":now": new Date().toISOString(),
        ":owner": owner,
      },
    }),
  );
}

export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === "ConditionalCheckFailedException";
}
