// The lease guard's state transitions, against the emulator's real DynamoDB: the guard is
// called directly, with a charge that only counts, on a table of its own.
import { randomUUID } from "node:crypto";
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { LeaseClaim } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import { type ProviderKey, readConfig } from "../../contract/settings.js";
import { connect, EMULATOR_CREDENTIALS } from "../../harness/aws/connection.js";
import { scanAll } from "../../harness/aws/scan.js";
import { labRegion } from "../../harness/common/region.js";
import { chargeOptions } from "../../worker/charge.js";
import { dynamoClient } from "../../worker/dynamo.js";
import { noFailpoints } from "../../worker/failpoints.js";
import { fingerprint, lease } from "../../worker/guards/lease.js";
import { Ledger } from "../../worker/ledger.js";
import type { Log } from "../../worker/log.js";
import { ClaimsTable } from "../../worker/store.js";
import "./provided.js";

const { backend } = inject("lab");
const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
const run = randomUUID().slice(0, 8);
const table = `lease-test-${run}`;
const ledgerTable = `lease-test-ledger-${run}`;
const config = {
  ...readConfig({ GUARD: "lease", LEASE_MS: "1000" }),
  claimsTable: table,
  ledgerTable,
};
// The worker's own client and store, pointed at the emulator: the requests the function makes,
// counted the way the function counts them.
const dynamo = dynamoClient(
  new DynamoDBClient({
    endpoint: backend.endpoint,
    region: labRegion(),
    credentials: EMULATOR_CREDENTIALS,
  }),
);
const claims = new ClaimsTable(dynamo.db, table);
const ledger = new Ledger(dynamo.db, ledgerTable);
const order = (orderId: string, amount = 150) => ({ orderId, customerId: "CUSTOMER-123", amount });

const keyedBy = (TableName: string, key: string) =>
  new CreateTableCommand({
    TableName,
    AttributeDefinitions: [{ AttributeName: key, AttributeType: "S" }],
    KeySchema: [{ AttributeName: key, KeyType: "HASH" }],
    BillingMode: "PAY_PER_REQUEST",
  });

beforeAll(async () => {
  await conn.db.send(keyedBy(table, "orderId"));
  await conn.db.send(keyedBy(ledgerTable, "chargeId"));
});
afterAll(async () => {
  await conn.db.send(new DeleteTableCommand({ TableName: table }));
  await conn.db.send(new DeleteTableCommand({ TableName: ledgerTable }));
  conn.close();
  dynamo.client.destroy();
});

interface AttemptOptions {
  chargeFails?: boolean;
  /** What the invocation has left, as Lambda's context reports it. */
  remainingMs?: number;
  leaseDefences?: "both" | "fence" | "none";
  providerKey?: ProviderKey;
  /** Runs while this copy "works", after its claim and before its charge is recorded. */
  whileWorking?: () => Promise<unknown>;
}

/** Runs the lease guard once for one copy: what it said, whether it charged, what it cost. */
async function attempt(input: ReturnType<typeof order>, options: AttemptOptions = {}) {
  const said: string[] = [];
  let charges = 0;
  const invocation = { messageId: randomUUID(), requestId: randomUUID(), attempt: 1 };
  const callsBefore = dynamo.calls();
  const outcome = await lease({
    order: input,
    invocation,
    config: {
      ...config,
      leaseDefences: options.leaseDefences ?? "both",
      providerKey: options.providerKey ?? "none",
    },
    claims,
    ledger,
    dynamoClient: dynamo.client,
    db: dynamo.db,
    context: { getRemainingTimeInMillis: () => options.remainingMs ?? 0 } as Context,
    // Types only: the details are the worker's concern, not this test's.
    log: ((type: string) => {
      said.push(type);
    }) as Log,
    at: noFailpoints,
    charge: async (how) => {
      const { record = (item: LedgerItem) => ledger.record(item) } = chargeOptions(how);
      await options.whileWorking?.();
      if (options.chargeFails) throw new Error("declined");
      const recorded =
        (await record(Ledger.item(input, invocation, options.providerKey))) !== "fenced";
      if (recorded) charges++;
      return recorded;
    },
  }).catch((err: Error) => `threw: ${err.message}`);
  return { outcome, said, charges, calls: dynamo.calls() - callsBefore, ...invocation };
}

const chargesOf = async (orderId: string) =>
  (await scanAll<LedgerItem>(conn, ledgerTable)).filter((item) => item.orderId === orderId);

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

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("the payment provider's idempotency key", () => {
  const by = (messageId: string) => ({ messageId, requestId: "r", attempt: 1 });

  test("one charge per key: the same charge again is replayed, another amount refused", async () => {
    const charge = (messageId: string, amount = 150) =>
      ledger.record(Ledger.item(order("P-ONE", amount), by(messageId), "orderId"));
    expect(await charge("m1")).toBe("charged");
    expect(await charge("m2")).toBe("replayed");
    expect(await charge("m3", 999)).toBe("refused");
    expect((await chargesOf("P-ONE")).map((c) => c.chargeId)).toEqual(["orderId=P-ONE"]);
  });

  test("a key per message is no key at all: every copy charges", async () => {
    for (const m of ["m1", "m2", "m3"])
      expect(await ledger.record(Ledger.item(order("P-MSG"), by(m), "messageId"))).toBe("charged");
    expect(await chargesOf("P-MSG")).toHaveLength(3);
  });
});

describe("the lease guard", () => {
  test("forgotten: a COMPLETED record past its expiresAt counts as absent, so the copy charges", async () => {
    const hash = fingerprint(order("L-OLD"));
    await seed({
      orderId: "L-OLD",
      status: "COMPLETED",
      expiresAt: nowSeconds() - 1,
      payloadHash: hash,
    });
    const late = await attempt(order("L-OLD"));
    expect(late).toMatchObject({ outcome: "charged", said: ["claim_won"], charges: 1 });
    expect(await claimOf("L-OLD")).toMatchObject({
      status: "COMPLETED",
      messageId: late.messageId,
    });
  });

  test("remembered: a COMPLETED record within its lifetime is a duplicate", async () => {
    const hash = fingerprint(order("L-KEPT"));
    await seed({
      orderId: "L-KEPT",
      status: "COMPLETED",
      expiresAt: nowSeconds() + 60,
      payloadHash: hash,
    });
    expect(await attempt(order("L-KEPT"))).toMatchObject({ outcome: "skipped", charges: 0 });
  });

  test("COMPLETED carries expiresAt, RECORD_TTL_SECONDS from now", async () => {
    const before = nowSeconds();
    await attempt(order("L-TTL"));
    const { expiresAt } = (await claimOf("L-TTL")) ?? {};
    expect(expiresAt).toBeGreaterThanOrEqual(before + config.recordTtlSeconds);
    expect(expiresAt).toBeLessThanOrEqual(nowSeconds() + config.recordTtlSeconds);
  });

  test("with a provider key already used: the provider's answer, and the lease still completes", async () => {
    const invocation = { messageId: "earlier", requestId: "r0", attempt: 1 };
    expect(await ledger.record(Ledger.item(order("L-KEY"), invocation, "orderId"))).toBe("charged");
    const copy = await attempt(order("L-KEY"), { providerKey: "orderId" });
    expect(copy).toMatchObject({ outcome: "charged", said: ["claim_won"] });
    expect(await chargesOf("L-KEY")).toHaveLength(1);
    expect(await claimOf("L-KEY")).toMatchObject({
      status: "COMPLETED",
      completedMessageId: copy.messageId,
    });
  });

  test("won: a fresh order is claimed, charged once and COMPLETED", async () => {
    const result = await attempt(order("L-WON"));
    expect(result).toMatchObject({ outcome: "charged", said: ["claim_won"], charges: 1 });
    expect(await claimOf("L-WON")).toMatchObject({ status: "COMPLETED" });
    expect((await claimOf("L-WON"))?.leaseUntil).toBeUndefined();
  });

  test("lost to a completed claim: skipped, not charged", async () => {
    await attempt(order("L-DONE"));
    expect(await attempt(order("L-DONE"))).toMatchObject({
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
    expect(await attempt(order("L-BUSY"))).toMatchObject({
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
    expect(await attempt(order("L-EXPIRED"))).toMatchObject({
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
    expect(failed).toMatchObject({
      outcome: "threw: declined",
      said: ["claim_won", "claim_released"],
      charges: 0,
    });
    expect(await claimOf("L-RELEASE")).toBeUndefined();
    expect(await attempt(order("L-RELEASE"))).toMatchObject({ outcome: "charged", charges: 1 });
  });

  test("payload mismatch: same orderId, other amount, refused and never charged", async () => {
    await attempt(order("L-MISMATCH", 150));
    expect(await attempt(order("L-MISMATCH", 999))).toMatchObject({
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

  test("cost: the winner makes two DynamoDB calls, a duplicate of a completed order one", async () => {
    const won = await attempt(order("L-COST"));
    const duplicate = await attempt(order("L-COST"));
    // The winner: take the lease, then ledger and COMPLETED in one transaction. The duplicate:
    // the failed write returns the holder (ReturnValuesOnConditionCheckFailure), no read.
    expect({ winner: won.calls, duplicate: duplicate.calls }).toEqual({ winner: 2, duplicate: 1 });
    expect(duplicate.outcome).toBe("skipped");
  });

  test("the lease lasts at least as long as the invocation may still run", async () => {
    const before = Date.now();
    await attempt(order("L-FLOOR"), {
      remainingMs: 60_000,
      whileWorking: async () => {
        const claim = await claimOf("L-FLOOR");
        expect(claim?.leaseUntil).toBeGreaterThanOrEqual(before + 60_000);
      },
    });
    const fenceOnly = await attempt(order("L-FLOOR-OFF"), {
      remainingMs: 60_000,
      leaseDefences: "fence",
      whileWorking: async () => {
        expect((await claimOf("L-FLOOR-OFF"))?.leaseUntil).toBeLessThan(Date.now() + 2_000);
      },
    });
    expect(fenceOnly.outcome).toBe("charged");
  });

  // A copy still charging when its lease (1 s) runs out, and a second copy that takes over:
  // either may record first. Unfenced, both charge; fenced, only the lease's owner does.
  const cases = [
    ["fence", "the taker records first", { charges: 1, slow: "failed", saidLast: "lease_lost" }],
    [
      "fence",
      "the slow holder records first",
      { charges: 1, slow: "failed", saidLast: "lease_lost" },
    ],
    ["none", "the taker records first", { charges: 2, slow: "threw", saidLast: "claim_won" }],
    ["none", "the slow holder records first", { charges: 2, slow: "threw", saidLast: "claim_won" }],
  ] as const;
  for (const [defences, order_, expected] of cases) {
    test(`defences=${defences}, ${order_}: ${expected.charges} charge(s)`, async () => {
      const orderId = `L-SLOW-${defences}-${order_.includes("taker") ? "taker" : "holder"}`;
      const takerFirst = order_.includes("taker");
      let takerClaimed: () => void = () => {};
      const claimedByTaker = new Promise<void>((resolve) => {
        takerClaimed = resolve;
      });
      let slowDone: () => void = () => {};
      const slowFinished = new Promise<void>((resolve) => {
        slowDone = resolve;
      });
      let taker: ReturnType<typeof attempt> | undefined;
      const slow = await attempt(order(orderId), {
        leaseDefences: defences,
        whileWorking: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_100)); // the lease runs out
          taker = attempt(order(orderId), {
            leaseDefences: defences,
            whileWorking: async () => {
              takerClaimed();
              if (!takerFirst) await slowFinished; // the taker is still working meanwhile
            },
          });
          if (takerFirst) await taker;
          else await claimedByTaker;
        },
      });
      slowDone();
      const took = await taker;
      expect(took).toMatchObject({ outcome: "charged", said: ["claim_won"], charges: 1 });
      expect(String(slow.outcome)).toMatch(new RegExp(`^${expected.slow}`));
      expect(slow.said.at(-1)).toBe(expected.saidLast);
      expect(await chargesOf(orderId)).toHaveLength(expected.charges);
      expect(await claimOf(orderId)).toMatchObject({
        status: "COMPLETED",
        completedMessageId: took?.messageId,
      });
    });
  }
});
