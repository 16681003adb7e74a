// The two tables the worker writes (docs/design.md §3): the claims table (one record per
// orderId, the guard's memory) and the charges ledger (one item per charge, what a payment
// provider would have on record). The client is handed in, so a test can point it anywhere.
import { randomUUID } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import {
  CLAIM_STATUS,
  type ClaimRecord,
  type ConditionalClaim,
  type LeaseClaim,
  type NaiveClaim,
} from "../contract/claims.js";
import type { LedgerItem } from "../contract/ledger.js";
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
   * it finished (it crashed, or it is slow) and the payload is the same. Won: the record it took
   * over, if any. Lost: the record that holds the order, from the failed write itself (one call),
   * or from a read where the emulator does not return it (see holderOf).
   */
  async takeLease(record: LeaseClaim): Promise<LeaseTaken> {
    try {
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
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return { won: true, previous: Attributes as LeaseClaim | undefined };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return { won: false, holder: await this.holderOf(err, record.orderId) };
    }
  }

  /** The item a failed conditional write returned; read again only if the emulator sent none. */
  private async holderOf(err: unknown, orderId: string): Promise<ClaimRecord | undefined> {
    const item = (err as { Item?: Record<string, AttributeValue> }).Item;
    return item ? (unmarshall(item) as ClaimRecord) : this.read(orderId);
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
    await this.db.send(new UpdateCommand(this.completeLeaseRequest(orderId, owner, by)));
  }

  /**
   * The fence: the charge and COMPLETED in one transaction, conditioned on this copy still
   * owning the lease. A copy whose lease was taken over records nothing (see isFenced).
   */
  async chargeAndCompleteLease(
    ledger: Ledger,
    item: LedgerItem,
    owner: string,
    by: Invocation,
  ): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: ledger.putRequest(item) },
          { Update: this.completeLeaseRequest(item.orderId, owner, by) },
        ],
      }),
    );
  }

  private completeLeaseRequest(orderId: string, owner: string, by: Invocation) {
    return {
      TableName: this.name,
      Key: { orderId },
      UpdateExpression: `${COMPLETE} REMOVE leaseUntil`,
      ConditionExpression: all(CONDITION.ownedBy, CONDITION.claimed),
      ExpressionAttributeNames: { ...NAMES.owner, ...NAMES.status },
      ExpressionAttributeValues: {
        ...completedBy(by),
        ":owner": owner,
        ":claimed": CLAIM_STATUS.claimed,
      },
    };
  }
}

export type LeaseTaken =
  | { won: true; previous: LeaseClaim | undefined }
  | { won: false; holder: ClaimRecord | undefined };

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

  /** A new charge of this order by this copy, with its own chargeId. */
  static item(order: Order, by: Invocation): LedgerItem {
    return { chargeId: randomUUID(), ...order, ...by, chargedAt: new Date().toISOString() };
  }

  /** One charge: a new item, whatever charged before. Always recorded (see RecordCharge). */
  async record(item: LedgerItem): Promise<true> {
    await this.db.send(new PutCommand(this.putRequest(item)));
    return true;
  }

  putRequest(item: LedgerItem) {
    return { TableName: this.name, Item: item };
  }
}

export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === "ConditionalCheckFailedException";
}

/** The fence held: the transaction was refused because another copy owns the lease now. */
export function isFenced(err: unknown): boolean {
  const { name, CancellationReasons } = err as {
    name?: string;
    CancellationReasons?: { Code?: string }[];
  };
  return (
    name === "TransactionCanceledException" &&
    (CancellationReasons ?? []).some((reason) => reason.Code === "ConditionalCheckFailed")
  );
}
