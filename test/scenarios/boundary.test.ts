// Faults at the worker's boundary (FAILPOINTS' dynamo and payment rules), against the emulator's
// real DynamoDB through the real SDK with the worker's own retry settings: the pieces
// worker/index.ts puts together for a record (its client, its boundary faults, the guard's
// input), with the log lines kept. What the SDK does after a fault is the SDK's own doing.
import { randomUUID } from "node:crypto";
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { ClaimRecord } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import { DYNAMO_RETRIES } from "../../contract/retries.js";
import { type ProviderKey, readConfig } from "../../contract/settings.js";
import { connect, EMULATOR_CREDENTIALS } from "../../harness/aws/connection.js";
import { scanAll } from "../../harness/aws/scan.js";
import { transactionTokenRetry } from "../../harness/aws/transaction-token.js";
import { labRegion } from "../../harness/common/region.js";
import { boundaryFaults } from "../../worker/boundary.js";
import { dynamoClient } from "../../worker/dynamo.js";
import { noFailpoints } from "../../worker/failpoints.js";
import { guardInput } from "../../worker/guard-input.js";
import { claim } from "../../worker/guards/claim.js";
import type { Guard } from "../../worker/guards/guard.js";
import { lease } from "../../worker/guards/lease.js";
import { off } from "../../worker/guards/off.js";
import type { Log } from "../../worker/log.js";

/** The SDK's own header on a call's first attempt, with the worker's retry settings. */
const FIRST_ATTEMPT = `attempt=1; max=${DYNAMO_RETRIES.maxAttempts}`;

import "./provided.js";

const { backend } = inject("lab");
const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
const run = randomUUID().slice(0, 8);
const tables = {
  claimsTable: `boundary-claims-${run}`,
  ledgerTable: `boundary-ledger-${run}`,
  powertoolsTable: `boundary-powertools-${run}`,
};
// The function's client: the SDK's standard retries, 3 attempts, stated as the worker states them.
const dynamo = dynamoClient(
  new DynamoDBClient({
    endpoint: backend.endpoint,
    region: labRegion(),
    credentials: EMULATOR_CREDENTIALS,
    ...DYNAMO_RETRIES,
  }),
);

const keyedBy = (TableName: string, key: string) =>
  new CreateTableCommand({
    TableName,
    AttributeDefinitions: [{ AttributeName: key, AttributeType: "S" }],
    KeySchema: [{ AttributeName: key, KeyType: "HASH" }],
    BillingMode: "PAY_PER_REQUEST",
  });

beforeAll(async () => {
  await conn.db.send(keyedBy(tables.claimsTable, "orderId"));
  await conn.db.send(keyedBy(tables.ledgerTable, "chargeId"));
});
afterAll(async () => {
  await conn.db.send(new DeleteTableCommand({ TableName: tables.claimsTable }));
  await conn.db.send(new DeleteTableCommand({ TableName: tables.ledgerTable }));
  conn.close();
  dynamo.client.destroy();
});

interface Delivery {
  failpoints?: string;
  copy?: number;
  attempt?: number;
  providerKey?: ProviderKey;
}

type Line = { type: string } & Record<string, unknown>;

/** One delivery of an order to a guard, as worker/index.ts runs it: what it said and cost. */
async function deliver(guard: Guard, orderId: string, d: Delivery = {}) {
  const config = {
    ...readConfig({ GUARD: "off", FAILPOINTS: d.failpoints ?? "" }),
    ...tables,
    providerKey: d.providerKey ?? "none",
  };
  const invocation = { messageId: randomUUID(), requestId: randomUUID(), attempt: d.attempt ?? 1 };
  const lines: Line[] = [];
  // Every line, as data: the details' types are the worker's concern, not this test's.
  const log = ((type: string, details: object = {}) => {
    lines.push({ type, ...details });
  }) as Log;
  const boundary = boundaryFaults(config, { ...invocation, copy: d.copy ?? 1 }, log);
  dynamo.breakCallsOf(boundary);
  const [callsBefore, attemptsBefore] = [dynamo.calls(), dynamo.attempts()];
  const context = { getRemainingTimeInMillis: () => 10_000 } as Context;
  const order = { orderId, customerId: "CUSTOMER-123", amount: 150 };
  const outcome = await guard(
    guardInput(order, invocation, config, dynamo, log, noFailpoints, context, boundary),
  ).catch((err: Error) => `threw ${err.name}: ${err.message}`);
  const calls = dynamo.calls() - callsBefore;
  const attempts = dynamo.attempts() - attemptsBefore;
  return { outcome, said: lines.map((l) => l.type), lines, calls, attempts, ...invocation };
}

const chargesOf = async (orderId: string) =>
  (await scanAll<LedgerItem>(conn, tables.ledgerTable)).filter((i) => i.orderId === orderId);

const claimOf = async (orderId: string) =>
  (
    await conn.db.send(
      new GetCommand({ TableName: tables.claimsTable, Key: { orderId }, ConsistentRead: true }),
    )
  ).Item as (ClaimRecord & { owner?: string }) | undefined;

describe("a DynamoDB call's faults, inside the SDK's retry loop", () => {
  test("without FAILPOINTS: no fault middleware, one attempt per call (claim: 3 calls: its claim, the charge, COMPLETED)", async () => {
    const clean = await deliver(claim, `B-CLEAN-${run}`);
    expect(clean).toMatchObject({ outcome: "charged", calls: 3, attempts: 3 });
    expect(dynamo.client.middlewareStack.identify().join()).not.toContain("boundaryFaults");
  });

  test("without FAILPOINTS the lease costs what it did: 2 calls a winner, 1 a duplicate, no retry", async () => {
    const orderId = `B-LEASE-CLEAN-${run}`;
    expect(await deliver(lease, orderId)).toMatchObject({
      outcome: "charged",
      calls: 2,
      attempts: 2,
    });
    expect(await deliver(lease, orderId)).toMatchObject({
      outcome: "skipped",
      calls: 1,
      attempts: 1,
    });
    expect(dynamo.client.middlewareStack.identify().join()).not.toContain("boundaryFaults");
  });

  test("the claim's answer lost: applied, the SDK's retry refused, the order never charged", async () => {
    const orderId = `B-LOST-${run}`;
    const copy = await deliver(claim, orderId, {
      failpoints: "dynamo:PutItem:claims=lost-answer@copy1@attempt1",
    });
    // One call, two attempts: the first wrote CLAIMED, the retry met its own claim.
    expect(copy).toMatchObject({ outcome: "skipped", calls: 1, attempts: 2 });
    expect(copy.said).toEqual(["fault", "claim_lost", "skip_duplicate"]);
    expect(copy.lines[0]).toMatchObject({
      point: "dynamo",
      rule: "dynamo:PutItem:claims=lost-answer@copy1@attempt1",
      operation: "PutItem",
      sdkAttempt: FIRST_ATTEMPT,
    });
    expect(await claimOf(orderId)).toMatchObject({
      status: "CLAIMED",
      messageId: copy.messageId,
    });
    expect(await chargesOf(orderId)).toEqual([]);
  });

  test("the claim's request lost: nothing applied, the SDK's retry wins it", async () => {
    const orderId = `B-REQ-${run}`;
    const copy = await deliver(claim, orderId, {
      failpoints: "dynamo:PutItem:claims=lost-request",
    });
    expect(copy).toMatchObject({ outcome: "charged", calls: 3, attempts: 4 });
    expect(await chargesOf(orderId)).toHaveLength(1);
  });

  test("throttled: ProvisionedThroughputExceededException, the SDK backs off and retries", async () => {
    const orderId = `B-THR-${run}`;
    const copy = await deliver(claim, orderId, {
      failpoints: "dynamo:PutItem:claims=throttled@attempt1",
    });
    expect(copy).toMatchObject({ outcome: "charged", calls: 3, attempts: 4 });
    expect(await chargesOf(orderId)).toHaveLength(1);
  });

  test("slow: the call takes longer, one attempt", async () => {
    const started = Date.now();
    const copy = await deliver(claim, `B-SLOW-${run}`, {
      failpoints: "dynamo:PutItem:claims=slow(300)",
    });
    expect(copy).toMatchObject({ outcome: "charged", calls: 3, attempts: 3 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  test("a rule for another copy, attempt or table leaves this delivery alone", async () => {
    const copy = await deliver(claim, `B-OTHER-${run}`, {
      failpoints:
        "dynamo:PutItem:claims=lost-answer@copy2;dynamo:PutItem:claims=lost-answer@attempt2;dynamo:PutItem:powertools=lost-answer",
    });
    expect(copy).toMatchObject({ outcome: "charged", calls: 3, attempts: 3 });
    expect(copy.said).not.toContain("fault");
  });
});

describe("the payment's answer lost after the charge was recorded", () => {
  test("the provider has the charge; the worker hears a timeout, and SQS's retry charges again", async () => {
    const orderId = `B-PAY-${run}`;
    const failpoints = "payment=lost-answer@attempt1";
    const first = await deliver(off, orderId, { failpoints });
    expect(first.outcome).toBe("threw TimeoutError: the payment provider did not answer in time");
    expect(first.said).toEqual(["charge_applied", "fault", "charge_failed"]);
    const retry = await deliver(off, orderId, { failpoints, attempt: 2 });
    expect(retry.outcome).toBe("charged");
    expect(await chargesOf(orderId)).toHaveLength(2);
  });

  test("with the orderId as the provider's key, the retry gets the charge back", async () => {
    const orderId = `B-PAYKEY-${run}`;
    const failpoints = "payment=lost-answer@attempt1";
    await deliver(off, orderId, { failpoints, providerKey: "orderId" });
    const retry = await deliver(off, orderId, { failpoints, attempt: 2, providerKey: "orderId" });
    expect(retry).toMatchObject({ outcome: "charged", said: ["charge_replayed"] });
    expect((await chargesOf(orderId)).map((c) => c.chargeId)).toEqual([`orderId=${orderId}`]);
  });
});

describe("the charge's own write, its answer lost", () => {
  test("with a key: the SDK's retry meets the charge this call made, which is charged, not replayed", async () => {
    const orderId = `B-LEDGERLOST-${run}`;
    const failpoints = "dynamo:PutItem:ledger=lost-answer@attempt1";
    const copy = await deliver(off, orderId, { failpoints, providerKey: "orderId" });
    expect(copy).toMatchObject({ outcome: "charged", said: ["fault", "charge_applied"] });
    expect(copy.attempts - copy.calls).toBe(1);
    expect((await chargesOf(orderId)).map((c) => c.chargeId)).toEqual([`orderId=${orderId}`]);
    const later = await deliver(off, orderId, { providerKey: "orderId" });
    expect(later).toMatchObject({ outcome: "charged", said: ["charge_replayed"] });
  });
});

describe("a guard that keys its payment (the guard API's idempotencyKey)", () => {
  const keyed: Guard = async ({ order, charge }) => {
    await charge({ idempotencyKey: `pay-${order.orderId}` });
    return "charged";
  };

  test("its key names the charge, and a copy with the same key gets that charge back", async () => {
    const orderId = `B-KEYED-${run}`;
    const first = await deliver(keyed, orderId);
    const second = await deliver(keyed, orderId);
    expect(first.said).toEqual(["charge_applied"]);
    expect(second.said).toEqual(["charge_replayed"]);
    const held = (await chargesOf(orderId)).map((c) => [c.chargeId, c.idempotencyKey]);
    expect(held).toEqual([[`key=pay-${orderId}`, `pay-${orderId}`]]);
    expect(first.lines[0]?.chargeId).toBe(`key=pay-${orderId}`);
  });

  test("the guard's key wins over PROVIDER_KEY's", async () => {
    const orderId = `B-KEYWINS-${run}`;
    await deliver(keyed, orderId, { providerKey: "messageId" });
    expect((await chargesOf(orderId)).map((c) => c.chargeId)).toEqual([`key=pay-${orderId}`]);
  });

  test("a record of its own under another chargeId: charge_applied names what the ledger holds", async () => {
    const orderId = `B-OWNREC-${run}`;
    const ownRecord: Guard = async ({ order, charge, ledger }) => {
      await charge(async (item) => {
        const mine = { ...item, chargeId: `mine-${order.orderId}` };
        return { answer: await ledger.record(mine), chargeId: mine.chargeId };
      });
      return "charged";
    };
    const copy = await deliver(ownRecord, orderId);
    const held = (await chargesOf(orderId)).map((c) => c.chargeId);
    expect(held).toEqual([`mine-${orderId}`]);
    expect(copy.lines.filter((l) => l.type === "charge_applied").map((l) => l.chargeId)).toEqual(
      held,
    );
  });
});

describe("the lease guard under the same faults", () => {
  test("its claim's answer lost: the claim the SDK's retry meets is its own, so it charges", async () => {
    const orderId = `B-LEASE-${run}`;
    const copy = await deliver(lease, orderId, {
      failpoints: "dynamo:PutItem:claims=lost-answer@attempt1",
    });
    expect(copy).toMatchObject({ outcome: "charged", calls: 2, attempts: 3 });
    expect(copy.said).toEqual(["fault", "claim_won", "charge_applied"]);
    expect(copy.lines[1]).toMatchObject({ ownClaim: true });
    expect(await chargesOf(orderId)).toHaveLength(1);
    expect(await claimOf(orderId)).toMatchObject({ status: "COMPLETED" });
  });

  const faults = ["lost-answer", "lost-request", "throttled", "slow(50)"].flatMap((action) => [
    `dynamo:PutItem:claims=${action}@attempt1`,
    `dynamo:TransactWriteItems:claims=${action}@attempt1`,
  ]);
  test.each([...faults, "payment=lost-answer@attempt1"])(
    "exactly once under %s, SQS's retry included",
    async (failpoints) => {
      const orderId = `B-LEASE-${failpoints.replace(/\W+/g, "-")}-${run}`;
      const first = await deliver(lease, orderId, { failpoints });
      const retry = await deliver(lease, orderId, { failpoints, attempt: 2 });
      // Charged by the first delivery, a duplicate to SQS's retry: one charge, COMPLETED.
      expect([first.outcome, retry.outcome]).toEqual(["charged", "skipped"]);
      expect(first.said).toContain("fault");
      expect(await claimOf(orderId)).toMatchObject({ status: "COMPLETED" });
      expect(await chargesOf(orderId)).toHaveLength(1);
    },
  );
});

describe("the emulator's answer to a transaction retried with its ClientRequestToken", () => {
  test("as AWS documents it: the same success (the lease's fenced charge counts on it)", async () => {
    const answer = await transactionTokenRetry(conn);
    expect(answer, `${backend.name} ${backend.version} answered ${JSON.stringify(answer)}`).toEqual(
      { kind: "as AWS" },
    );
    expect(await transactionTokenRetry(conn)).toBe(answer); // asked once per run
  });
});
