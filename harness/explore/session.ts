// An explorer session: three tables of its own on the emulator (claims, the charges ledger,
// Powertools'), the gated client, and the copies' clock in Date.now. Every schedule runs on a
// fresh orderId, so the tables are never reset between schedules; close() deletes them.
import { randomBytes } from "node:crypto";
import {
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { BatchGetCommand, DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { ClaimRecord } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import { readConfig, type WorkerConfig } from "../../contract/settings.js";
import type { Dynamo } from "../../worker/dynamo.js";
import { EMULATOR_CREDENTIALS } from "../aws/connection.js";
import { WAIT } from "../aws/timings.js";
import { type ExploreTables, gatedClient, KEY_ATTRIBUTES } from "./client.js";
import { patchTime } from "./clock.js";
import type { Explored } from "./guards.js";
import { enterLambdaWorld } from "./lambda-world.js";
import { RetriesPerCopy, type RetrySettings, workerRetrySettings } from "./sdk-retries.js";

export interface Session {
  endpoint: string;
  tables: ExploreTables;
  /** The gated client every copy uses. */
  dynamo: Dynamo;
  /** Its retry settings: the worker's. */
  retries: RetrySettings;
  functionName: string;
  /** The worker's config for this guard setting, on the session's tables. */
  configFor(explored: Explored): WorkerConfig;
  /** A fresh orderId: EXPLORE-<guard>-<n>. */
  nextOrderId(explored: Explored): string;
  /** What the tables hold for these keys (read outside any copy: no gates). */
  read(keys: { orderId: string; chargeIds: string[]; powertoolsIds: string[] }): Promise<{
    claim: ClaimRecord | undefined;
    ledger: LedgerItem[];
    powertools: Record<string, unknown>[];
  }>;
  close(): Promise<void>;
}

let opened = false;

/**
 * One session per process: worker/guards/powertools.ts keeps the first client and table it is
 * given for as long as the process lives.
 */
export async function openSession(
  endpoint: string,
  options: { prefix: string; region: string },
): Promise<Session> {
  if (opened)
    throw new Error("one explorer session per process (Powertools keeps its first table)");
  opened = true;
  // The SDK warns on Node 20 that its 2027 releases need Node 22; the lab pins its version.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const tag = randomBytes(3).toString("hex");
  const base = `${options.prefix}-explore-${tag}`;
  const tables: ExploreTables = {
    claims: base,
    ledger: `${base}-charges`,
    powertools: `${base}-powertools`,
  };
  const admin = new DynamoDBClient({
    endpoint,
    region: options.region,
    credentials: EMULATOR_CREDENTIALS,
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
  });
  const doc = DynamoDBDocumentClient.from(admin);
  const made: string[] = [];
  const dropTables = async () => {
    for (const name of made.splice(0)) {
      await admin.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
    }
  };
  let restoreTime: (() => void) | undefined;
  let leaveLambdaWorld: (() => void) | undefined;
  try {
    for (const key of Object.keys(tables) as (keyof ExploreTables)[]) {
      const name = tables[key];
      await admin.send(
        new CreateTableCommand({
          TableName: name,
          AttributeDefinitions: [{ AttributeName: KEY_ATTRIBUTES[key], AttributeType: "S" }],
          KeySchema: [{ AttributeName: KEY_ATTRIBUTES[key], KeyType: "HASH" }],
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
      made.push(name);
      await waitUntilTableExists({ client: admin, ...WAIT }, { TableName: name });
    }
    restoreTime = patchTime();
    leaveLambdaWorld = enterLambdaWorld(endpoint, options.region, tables);
  } catch (err) {
    restoreTime?.();
    await dropTables();
    admin.destroy();
    opened = false;
    throw err;
  }
  const retries = new RetriesPerCopy(await workerRetrySettings());
  const dynamo = gatedClient(endpoint, options.region, tables, retries);
  const counters = new Map<string, number>();
  const functionName = `${options.prefix}-worker`;
  return {
    endpoint,
    tables,
    dynamo,
    retries: retries.settings,
    functionName,
    configFor: (explored) =>
      readConfig({
        GUARD: explored.guard,
        ...(explored.leaseMs === undefined ? {} : { LEASE_MS: String(explored.leaseMs) }),
        ...(explored.leaseDefences ? { LEASE_DEFENCES: explored.leaseDefences } : {}),
        CLAIMS_TABLE: tables.claims,
        LEDGER_TABLE: tables.ledger,
        POWERTOOLS_TABLE: tables.powertools,
      }),
    nextOrderId(explored) {
      const n = (counters.get(explored.name) ?? 0) + 1;
      counters.set(explored.name, n);
      return `EXPLORE-${explored.name.replace("/", "-")}-${n}`;
    },
    async read({ orderId, chargeIds, powertoolsIds }) {
      const wanted = {
        [tables.claims]: [{ orderId }],
        [tables.ledger]: [...new Set(chargeIds)].map((chargeId) => ({ chargeId })),
        [tables.powertools]: [...new Set(powertoolsIds)].map((id) => ({ id })),
      };
      const found: Record<string, Record<string, unknown>[]> = {};
      let requests = Object.fromEntries(
        Object.entries(wanted)
          .filter(([, keys]) => keys.length > 0)
          .map(([table, Keys]) => [table, { Keys, ConsistentRead: true }]),
      );
      while (Object.keys(requests).length > 0) {
        const answer = await doc.send(new BatchGetCommand({ RequestItems: requests }));
        for (const [table, items] of Object.entries(answer.Responses ?? {})) {
          found[table] = [...(found[table] ?? []), ...items];
        }
        requests = (answer.UnprocessedKeys ?? {}) as typeof requests;
      }
      return {
        claim: claimRecord(found[tables.claims]?.[0]),
        ledger: (found[tables.ledger] ?? []) as unknown as LedgerItem[],
        powertools: found[tables.powertools] ?? [],
      };
    },
    async close() {
      restoreTime?.();
      leaveLambdaWorld?.();
      dynamo.client.destroy();
      await dropTables();
      admin.destroy();
      // opened stays true: Powertools would still write to this session's (deleted) table.
    },
  };
}

/**
 * The order's item in the claims table, with the fields every lab guard writes: a guard of its
 * own may write fewer, and the reports read them (missing ones read as empty).
 */
function claimRecord(item: Record<string, unknown> | undefined): ClaimRecord | undefined {
  if (!item) return undefined;
  const text = (key: string) => (typeof item[key] === "string" ? (item[key] as string) : "");
  const fields = ["orderId", "status", "messageId", "requestId", "claimedAt"] as const;
  return {
    ...item,
    ...Object.fromEntries(fields.map((k) => [k, text(k)])),
  } as unknown as ClaimRecord;
}
