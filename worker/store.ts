// The claims table (docs/design.md §3): one record per orderId, the guard's memory. The charges
// ledger is in ledger.ts. The client is handed in, so a test can point it anywhere.
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
  isLeaseClaim,
  type LeaseClaim,
  type NaiveClaim,
} from "../contract/claims.js";
import type { LedgerItem } from "../contract/ledger.js";
import type { Invocation } from "./invocation.js";
import type { Ledger, ProviderAnswer } from "./ledger.js";

// The conditions the guards are built from, one named part each. DynamoDB refuses an attribute
// name a request does not use, so each request spreads only the NAMES it needs.
const CONDITION = {
  absent: "attribute_not_exists(orderId)",
  claimed: "#status = :claimed",
  leaseRanOut: "leaseUntil < :now",
  completed: "#status = :completed",
  forgotten: "expiresAt < :nowSeconds",
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
          // An expired COMPLETED record counts as absent, before DynamoDB's TTL sweep deletes it.
          ConditionExpression: either(
            CONDITION.absent,
            all(CONDITION.claimed, CONDITION.leaseRanOut, CONDITION.samePayload),
            all(CONDITION.completed, CONDITION.forgotten),
          ),
          ExpressionAttributeNames: NAMES.status,
          ExpressionAttributeValues: {
            ":claimed": CLAIM_STATUS.claimed,
            ":completed": CLAIM_STATUS.completed,
            ":now": Date.now(),
            ":nowSeconds": epochSeconds(),
            ":hash": record.payloadHash,
          },
          ReturnValues: "ALL_OLD",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return { won: true, previous: Attributes as LeaseClaim | undefined };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const holder = await this.holderOf(err, record.orderId);
      // Our own claim: this write was applied, its answer lost, and the SDK's retry was refused
      // by the claim it had just written. The lease is ours (whom it took over from is lost).
      if (holder && isLeaseClaim(holder) && holder.owner === record.owner)
        return { won: true, previous: undefined, ownClaim: true };
      return { won: false, holder };
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
  async completeLease(orderId: string, owner: string, by: Invocation, ttlSeconds: number) {
    await this.db.send(
      new UpdateCommand(this.completeLeaseRequest(orderId, owner, by, ttlSeconds)),
    );
  }

  /**
   * The fence: the charge and COMPLETED in one transaction, conditioned on this copy still
   * owning the lease. "fenced": another copy took the lease over, nothing was recorded. With a
   * provider key already used, the provider's answer, and COMPLETED on its own.
   */
  async chargeAndCompleteLease(
    ledger: Ledger,
    item: LedgerItem,
    owner: string,
    by: Invocation,
    ttlSeconds: number,
  ): Promise<ProviderAnswer | "fenced"> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: ledger.putRequest(item) },
            { Update: this.completeLeaseRequest(item.orderId, owner, by, ttlSeconds) },
          ],
        }),
      );
      return "charged";
    } catch (err) {
      const [put, complete] = cancelledParts(err);
      if (complete) return "fenced";
      if (!put) throw err;
      const answer = await ledger.answerFor(item);
      await this.completeLease(item.orderId, owner, by, ttlSeconds);
      return answer;
    }
  }

  private completeLeaseRequest(orderId: string, owner: string, by: Invocation, ttlSeconds: number) {
    return {
      TableName: this.name,
      Key: { orderId },
      // expiresAt is the table's TTL attribute: how long the guard remembers the order.
      UpdateExpression: `${COMPLETE}, expiresAt = :expiresAt REMOVE leaseUntil`,
      ConditionExpression: all(CONDITION.ownedBy, CONDITION.claimed),
      ExpressionAttributeNames: { ...NAMES.owner, ...NAMES.status },
      ExpressionAttributeValues: {
        ...completedBy(by),
        ":expiresAt": epochSeconds() + ttlSeconds,
        ":owner": owner,
        ":claimed": CLAIM_STATUS.claimed,
      },
    };
  }
}

export type LeaseTaken =
  | {
      won: true;
      previous: LeaseClaim | undefined;
      /** The refused write found this copy's own claim: an earlier attempt of it was applied. */
      ownClaim?: true;
    }
  | { won: false; holder: ClaimRecord | undefined };

const completedBy = (by: Invocation) => ({
  ":completed": CLAIM_STATUS.completed,
  ":messageId": by.messageId,
  ":now": new Date().toISOString(),
});

export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string } | null)?.name === "ConditionalCheckFailedException";
}

/**
 * Which parts of a cancelled transaction failed their condition: [the charge, COMPLETED]. A
 * failed COMPLETED is the fence holding: another copy owns the lease now.
 */
function cancelledParts(err: unknown): [boolean, boolean] {
  const { name, CancellationReasons = [] } = err as {
    name?: string;
    CancellationReasons?: { Code?: string }[];
  };
  if (name !== "TransactionCanceledException") return [false, false];
  const failed = (i: number) => CancellationReasons[i]?.Code === "ConditionalCheckFailed";
  return [failed(0), failed(1)];
}

/** DynamoDB's TTL counts in epoch seconds. */
const epochSeconds = () => Math.floor(Date.now() / 1000);
