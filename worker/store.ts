// The two tables the worker writes (docs/design.md §3): the claims table (one record per
// orderId, the guard's memory) and the charges ledger (one item per charge, what a payment
// provider would have on record). The client is handed in, so a test can point it anywhere.
import { randomUUID } from "node:crypto";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  CLAIM_STATUS,
  type ClaimRecord,
  type ConditionalClaim,
  type LeaseClaim,
  type NaiveClaim,
} from "../contract/claims.js";
import type { Order } from "../contract/order.js";
import type { Invocation } from "./guards/guard.js";

// The conditions the guards are built from, one named part each. DynamoDB refuses an attribute
// name a request does not use, so each request spreads only the NAMES it needs.
const CONDITION = {
  absent: "attribute_not_exists(orderId)",
  claimed: "#status = :claimed",
  leaseRanOut: "leaseUntil < :now",
  samePayload: "payloadHash = :hash",
  heldByMessage: "messageId = :messageId",
  ownedBy: "#owner = :owner",
} as const;
const NAMES = { status: { "#status": "status" }, owner: { "#owner": "owner" } };
const either = (...parts: string[]) => parts.join(" OR ");
const all = (...parts: string[]) => `(${parts.join(" AND ")})`;

const COMPLETE = "SET #status = :completed, completedMessageId = :messageId, completedAt = :now";

export class ClaimsTable {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    readonly name: string,
  ) {}

  async read(orderId: string): Promise<ClaimRecord | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.name, Key: { orderId }, ConsistentRead: true }),
    );
    return Item as ClaimRecord | undefined;
  }

  /** naive's write: unconditional, so the last copy to write wins. */
  async put(record: NaiveClaim): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.name, Item: record }));
  }

  /** The check and the reservation in one operation: it fails if any record holds this orderId. */
  async putIfAbsent(record: ConditionalClaim): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.name, Item: record, ConditionExpression: CONDITION.absent }),
    );
  }

  /** COMPLETED, by the copy that claimed the order only. */
  async complete(orderId: string, by: Invocation): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.name,
        Key: { orderId },
        UpdateExpression: COMPLETE,
        ConditionExpression: CONDITION.heldByMessage,
        ExpressionAttributeNames: NAMES.status,
        ExpressionAttributeValues: completedBy(by),
      }),
    );
  }

  /**
   * Takes the lease if nobody holds the order, or if a copy holds it whose lease ran out before
   * it finished (it crashed) and the payload is the same. Returns the record it took over, if any.
   */
  async takeLease(record: LeaseClaim): Promise<LeaseClaim | undefined> {
    const { Attributes } = await this.db.send(
      new PutCommand({
        TableName: this.name,
        Item: record,
        ConditionExpression: either(
          CONDITION.absent,
          all(CONDITION.claimed, CONDITION.leaseRanOut, CONDITION.samePayload),
        ),
        ExpressionAttributeNames: NAMES.status,
        ExpressionAttributeValues: {
          ":claimed": CLAIM_STATUS.claimed,
          ":now": Date.now(),
          ":hash": record.payloadHash,
        },
        ReturnValues: "ALL_OLD",
      }),
    );
    return Attributes as LeaseClaim | undefined;
  }

  /** Gives the lease back after a failed charge, so a retry can take it. Only its owner may. */
  async releaseLease(orderId: string, owner: string): Promise<void> {
    await this.db.send(
      new DeleteCommand({
        TableName: this.name,
        Key: { orderId },
        ConditionExpression: all(CONDITION.ownedBy, CONDITION.claimed),
        ExpressionAttributeNames: { ...NAMES.owner, ...NAMES.status },
        ExpressionAttributeValues: { ":owner": owner, ":claimed": CLAIM_STATUS.claimed },
      }),
    );
  }

  /** COMPLETED, by the lease's owner only: a copy that lost its lease meanwhile fails here. */
  async completeLease(orderId: string, owner: string, by: Invocation): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.name,
        Key: { orderId },
        UpdateExpression: `${COMPLETE} REMOVE leaseUntil`,
        ConditionExpression: CONDITION.ownedBy,
        ExpressionAttributeNames: { ...NAMES.owner, ...NAMES.status },
        ExpressionAttributeValues: { ...completedBy(by), ":owner": owner },
      }),
    );
  }
}

const completedBy = (by: Invocation) => ({
  ":completed": CLAIM_STATUS.completed,
  ":messageId": by.messageId,
  ":now": new Date().toISOString(),
});

export class Ledger {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    readonly name: string,
  ) {}

  /** One charge: a new item with its own chargeId, whatever charged before. */
  async record(order: Order, by: Invocation): Promise<string> {
    const chargeId = randomUUID();
    await this.db.send(
      new PutCommand({
        TableName: this.name,
        Item: { chargeId, ...order, ...by, chargedAt: new Date().toISOString() },
      }),
    );
    return chargeId;
  }
}

export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === "ConditionalCheckFailedException";
}
