// The charges ledger (docs/design.md §3): what the payment provider has on record, one item per
// charge. With an idempotency key (PROVIDER_KEY), the provider keeps one charge per key, the way
// payment APIs take an Idempotency-Key header: a second call with the key gets the first charge
// back (replayed); with the key but another amount, it is refused.
import { randomUUID } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { LedgerItem } from "../contract/ledger.js";
import type { Order } from "../contract/order.js";
import type { ProviderKey } from "../contract/settings.js";
import type { Invocation } from "./invocation.js";

/** The chargeId's prefix for a key the guard chose: "key=ORDER-201". */
export const GUARD_KEY = "key";

/** What the provider answered: a new charge, the earlier one for this key, or a refusal. */
export type ProviderAnswer = "charged" | "replayed" | "refused";

export class Ledger {
  /**
   * The items this ledger wrote, or put into a transaction, oldest first: a guard may record its
   * charge under a chargeId of its own, and charge_applied must name what the ledger holds.
   */
  private readonly written: LedgerItem[] = [];

  constructor(
    private readonly db: DynamoDBDocumentClient,
    readonly name: string,
  ) {}

  /** How many writes so far: `writtenSince(writes())` later is what was written in between. */
  writes(): number {
    return this.written.length;
  }

  /** The last item written since the count `since`, if any. */
  writtenSince(since: number): LedgerItem | undefined {
    return this.written.length > since ? this.written[this.written.length - 1] : undefined;
  }

  /**
   * A charge of this order by this copy: a new chargeId, or the key's when there is one. A key
   * the guard chose (`charge({ idempotencyKey })`) wins over PROVIDER_KEY's.
   */
  static item(
    order: Order,
    by: Invocation,
    providerKey: ProviderKey = "none",
    guardKey?: string,
  ): LedgerItem {
    const charge = { ...order, ...by, chargedAt: new Date().toISOString() };
    if (guardKey !== undefined)
      return { chargeId: `${GUARD_KEY}=${guardKey}`, idempotencyKey: guardKey, ...charge };
    if (providerKey === "none") return { chargeId: randomUUID(), ...charge };
    const key = providerKey === "orderId" ? order.orderId : by.messageId;
    return { chargeId: `${providerKey}=${key}`, idempotencyKey: key, ...charge };
  }

  /** One charge, or, for a key already used, the provider's answer to it. */
  async record(item: LedgerItem): Promise<ProviderAnswer> {
    try {
      await this.db.send(new PutCommand(this.putRequest(item)));
      return "charged";
    } catch (err) {
      if ((err as { name?: string }).name !== "ConditionalCheckFailedException") throw err;
      const old = (err as { Item?: Record<string, AttributeValue> }).Item;
      return this.answerFor(item, old ? (unmarshall(old) as LedgerItem) : undefined);
    }
  }

  /**
   * The key was used before: the same charge again is a replay, another one a refusal. The item
   * this very request sent (its delivery's requestId, its chargedAt) is no earlier charge: the
   * write was applied, its answer lost, and the SDK's retry met it. The charge is this one's.
   */
  async answerFor(item: LedgerItem, earlier?: LedgerItem): Promise<ProviderAnswer> {
    const before = earlier ?? (await this.read(item.chargeId));
    if (before && sentBy(before, item)) return "charged";
    const same = before?.amount === item.amount && before?.customerId === item.customerId;
    return same ? "replayed" : "refused";
  }

  private async read(chargeId: string): Promise<LedgerItem | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.name, Key: { chargeId }, ConsistentRead: true }),
    );
    return Item as LedgerItem | undefined;
  }

  /** The write of a charge; with a key, only if no charge holds that key yet. */
  putRequest(item: LedgerItem) {
    this.written.push(item);
    if (item.idempotencyKey === undefined) return { TableName: this.name, Item: item };
    return {
      TableName: this.name,
      Item: item,
      ConditionExpression: "attribute_not_exists(chargeId)",
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    };
  }
}

/** The item held under the key is the one this request sent: no other request makes it. */
const sentBy = (held: LedgerItem, sent: LedgerItem) =>
  held.requestId === sent.requestId &&
  held.messageId === sent.messageId &&
  held.chargedAt === sent.chargedAt;
