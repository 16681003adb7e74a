// The lease guard's state transitions, against the emulator's real DynamoDB: the guard is
// called directly, with a charge that only counts, on a table of its own.
import { randomUUID } from "node:crypto";
import { CreateTableCommand, DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { LeaseClaim } from "../../contract/claims.js";
import { readConfig } from "../../contract/settings.js";
import { connect } from "../../harness/aws/connection.js";
import { fingerprint, lease } from "../../worker/guards/lease.js";
import { ClaimsTable } from "../../worker/store.js";
import "./provided.js";

const { backend } = inject("lab");
const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
const table = `lease-test-${randomUUID().slice(0, 8)}`;
const config = { ...readConfig({ GUARD: "lease", LEASE_MS: "1000" }), claimsTable: table };
// The worker's store, handed the harness's client: the same requests the function makes.
const claims = new ClaimsTable(conn.db, table);
const order = (orderId: string, amount = 150) => ({ orderId, customerId: "CUSTOMER-123", amount });

beforeAll(async () => {
  await conn.db.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: "orderId", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "orderId", KeyType: "HASH" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
});
afterAll(async () => {
  await conn.db.send(new DeleteTableCommand({ TableName: table }));
  conn.close();
});

/** Runs the lease guard once for one copy and records what it said and whether it charged. */
async function attempt(input: ReturnType<typeof order>, options: { chargeFails?: boolean } = {}) {
  const said: string[] = [];
  let charges = 0;
  const outcome = await lease({
    order: input,
    invocation: { messageId: randomUUID(), requestId: randomUUID(), attempt: 1 },
    config,
    claims,
    context: {} as Context,
    log: (type) => said.push(type),
    charge: async () => {
      if (options.chargeFails) throw new Error("declined");
      charges++;
    },
  }).catch((err: Error) => `threw: ${err.message}`);
  return { outcome, said, charges };
}

const claimOf = async (orderId: string) =>
  (await conn.db.send(new GetCommand({ TableName: table, Key: { orderId }, ConsistentRead: true })))
    .Item as LeaseClaim | undefined;

const seed = (claim: Partial<LeaseClaim> & { orderId: string }) =>
  conn.db.send(
    new PutCommand({
      TableName: table,
      Item: {
        status: "CLAIMED",
        messageId: "other-copy",
        requestId: "r0",
        owner: "someone-else",
        ...claim,
      },
    }),
  );

describe("the lease guard", () => {
  test("won: a fresh order is claimed, charged once and COMPLETED", async () => {
    const result = await attempt(order("L-WON"));
    expect(result).toEqual({ outcome: "charged", said: ["claim_won"], charges: 1 });
    expect(await claimOf("L-WON")).toMatchObject({ status: "COMPLETED" });
    expect((await claimOf("L-WON"))?.leaseUntil).toBeUndefined();
  });

  test("lost to a completed claim: skipped, not charged", async () => {
    await attempt(order("L-DONE"));
    expect(await attempt(order("L-DONE"))).toEqual({
      outcome: "skipped",
      said: ["claim_lost", "skip_duplicate"],
      charges: 0,
    });
  });

  test("lost to a live claim: the record fails, so SQS brings it back later", async () => {
    await seed({
      orderId: "L-BUSY",
      leaseUntil: Date.now() + 60_000,
      payloadHash: fingerprint(order("L-BUSY")),
    });
    expect(await attempt(order("L-BUSY"))).toEqual({
      outcome: "failed",
      said: ["claim_busy"],
      charges: 0,
    });
    expect(await claimOf("L-BUSY")).toMatchObject({ status: "CLAIMED", owner: "someone-else" });
  });

  test("takeover: an expired claim (its holder died) is taken over and charged", async () => {
    await seed({
      orderId: "L-EXPIRED",
      leaseUntil: Date.now() - 1,
      payloadHash: fingerprint(order("L-EXPIRED")),
    });
    expect(await attempt(order("L-EXPIRED"))).toEqual({
      outcome: "charged",
      said: ["claim_won"],
      charges: 1,
    });
    const claim = await claimOf("L-EXPIRED");
    expect(claim?.status).toBe("COMPLETED");
    expect(claim?.owner).not.toBe("someone-else");
  });

  test("release: a failed charge gives the claim back, and the retry charges", async () => {
    const failed = await attempt(order("L-RELEASE"), { chargeFails: true });
    expect(failed).toEqual({
      outcome: "threw: declined",
      said: ["claim_won", "claim_released"],
      charges: 0,
    });
    expect(await claimOf("L-RELEASE")).toBeUndefined();
    expect(await attempt(order("L-RELEASE"))).toMatchObject({ outcome: "charged", charges: 1 });
  });

  test("payload mismatch: same orderId, other amount, refused and never charged", async () => {
    await attempt(order("L-MISMATCH", 150));
    expect(await attempt(order("L-MISMATCH", 999))).toEqual({
      outcome: "failed",
      said: ["payload_mismatch"],
      charges: 0,
    });
  });

  test("a claim written by the claim guard (no fingerprint) is a duplicate, not a mismatch", async () => {
    await conn.db.send(
      new PutCommand({
        TableName: table,
        Item: { orderId: "L-FROM-CLAIM", status: "COMPLETED", messageId: "m0", requestId: "r0" },
      }),
    );
    expect(await attempt(order("L-FROM-CLAIM"))).toMatchObject({ outcome: "skipped", charges: 0 });
  });

  test("payload mismatch beats takeover: an expired claim for another amount is not taken", async () => {
    await seed({
      orderId: "L-MISMATCH-EXPIRED",
      leaseUntil: Date.now() - 1,
      payloadHash: fingerprint(order("X", 1)),
    });
    expect(await attempt(order("L-MISMATCH-EXPIRED"))).toMatchObject({
      outcome: "failed",
      said: ["payload_mismatch"],
    });
  });
});
