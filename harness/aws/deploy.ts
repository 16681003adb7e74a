// Deploy the lab's resources (docs/design.md §3). Every step checks what exists first, so
// running deploy twice changes nothing the second time.
import {
  CreateLogGroupCommand,
  ResourceAlreadyExistsException,
} from "@aws-sdk/client-cloudwatch-logs";
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ResourceNotFoundException as TableNotFound,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import {
  CreateEventSourceMappingCommand,
  CreateFunctionCommand,
  ResourceNotFoundException as FunctionNotFound,
  GetFunctionConfigurationCommand,
  ListEventSourceMappingsCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
  waitUntilFunctionActiveV2,
  waitUntilFunctionUpdatedV2,
} from "@aws-sdk/client-lambda";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SetQueueAttributesCommand,
} from "@aws-sdk/client-sqs";
import type { WorkerSettings } from "../../contract/settings.js";
import { LabError, UsageError } from "../common/errors.js";
import { holdAt } from "../common/hold.js";
import type { Say } from "../common/say.js";
import { packageWorker } from "./build.js";
import type { Connection } from "./connection.js";
import type { GuardFile } from "./guard-file.js";
import type { LabNames } from "./names.js";
import { setMappingEnabled, waitForMappingState } from "./switches.js";
import { type Timings, timingsProblem, WAIT } from "./timings.js";
import { workerEnvironment } from "./worker-env.js";

export interface Deployment {
  names: LabNames;
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  dlqArn: string;
  mappingId: string;
  /** The FIFO queue beside the standard one, with its own dead-letter queue and mapping. */
  fifo: QueueSet;
}

/** A queue, its dead-letter queue and the mapping that feeds the worker from it. */
export interface QueueSet {
  queueUrl: string;
  queueArn: string;
  dlqUrl: string;
  dlqArn: string;
  mappingId: string;
}

/** Both mappings that feed the worker: the standard queue's and the FIFO queue's. */
export const mappingsOf = (deployment: Deployment): string[] => [
  deployment.mappingId,
  deployment.fifo.mappingId,
];

/** The deployment seen through its FIFO queue: what a FIFO phase sends to, waits on, drains. */
export const onFifoQueue = (deployment: Deployment): Deployment => ({
  ...deployment,
  ...deployment.fifo,
});

/** What the function starts with: its settings, and a guard file bundled in (guard-file.ts). */
export interface DeployOptions {
  env?: Partial<WorkerSettings>;
  guardFile?: GuardFile;
}

export async function deploy(
  conn: Connection,
  names: LabNames,
  say: Say,
  timings: Timings,
  { env = {}, guardFile }: DeployOptions = {},
): Promise<Deployment> {
  const problem = timingsProblem(timings);
  if (problem) throw new UsageError(problem);
  const clock = (dlq: QueueRef) => ({
    VisibilityTimeout: String(timings.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({
      deadLetterTargetArn: dlq.arn,
      maxReceiveCount: timings.maxReceiveCount,
    }),
  });
  const dlq = await ensureQueue(conn, names.dlq, {});
  const queue = await ensureQueue(conn, names.queue, clock(dlq));
  // A FIFO queue is one from birth; content-based deduplication is on, and a sender's own
  // MessageDeduplicationId overrides it, so one queue shows both ways of deduplicating.
  const fifo = { FifoQueue: "true", ContentBasedDeduplication: "true" };
  const fifoDlq = await ensureQueue(conn, names.fifoDlq, {}, { FifoQueue: "true" });
  const fifoQueue = await ensureQueue(conn, names.fifoQueue, clock(fifoDlq), fifo);
  await ensureTable(conn, names.claimsTable, "orderId");
  await ensureTable(conn, names.ledgerTable, "chargeId");
  await ensureTable(conn, names.powertoolsTable, "id");
  await ensureTable(conn, names.failpointsTable, "id");
  // The attributes that say when a record may be forgotten: the lease guard's and Powertools'.
  await ensureTimeToLive(conn, names.claimsTable, "expiresAt");
  await ensureTimeToLive(conn, names.powertoolsTable, "expiration");
  await ensureLogGroup(conn, names.logGroup);
  await ensureFunction(conn, names, timings, env, say, guardFile);
  await holdAt("deploying", say);
  const mappingId = await ensureEventSourceMapping(conn, names.functionName, queue.arn);
  const fifoMappingId = await ensureEventSourceMapping(conn, names.functionName, fifoQueue.arn);
  return deploymentOf(names, queue, dlq, mappingId, queueSet(fifoQueue, fifoDlq, fifoMappingId));
}

export const queueSet = (queue: QueueRef, dlq: QueueRef, mappingId: string): QueueSet => ({
  queueUrl: queue.url,
  queueArn: queue.arn,
  dlqUrl: dlq.url,
  dlqArn: dlq.arn,
  mappingId,
});

export type QueueRef = { url: string; arn: string };

/** A Deployment from the parts deploy made or found. */
export function deploymentOf(
  names: LabNames,
  queue: QueueRef,
  dlq: QueueRef,
  mappingId: string,
  fifo: QueueSet,
): Deployment {
  return { names, ...queueSet(queue, dlq, mappingId), fifo };
}

/** attributes are set on every deploy; atCreation only when the queue is made (FifoQueue). */
async function ensureQueue(
  conn: Connection,
  name: string,
  attributes: Record<string, string>,
  atCreation: Record<string, string> = {},
) {
  const { QueueUrl } = await conn.sqs.send(
    new CreateQueueCommand({ QueueName: name, Attributes: atCreation }),
  );
  if (!QueueUrl) throw new LabError(`CreateQueue returned no URL for ${name}`);
  if (Object.keys(attributes).length > 0) {
    await conn.sqs.send(new SetQueueAttributesCommand({ QueueUrl, Attributes: attributes }));
  }
  const { Attributes } = await conn.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["QueueArn"] }),
  );
  const arn = Attributes?.QueueArn;
  if (!arn) throw new LabError(`queue ${name} has no QueueArn`);
  return { url: QueueUrl, arn };
}

async function ensureTable(conn: Connection, name: string, key: string): Promise<void> {
  try {
    await conn.db.send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (err) {
    if (!(err instanceof TableNotFound)) throw err;
  }
  await conn.db.send(
    new CreateTableCommand({
      TableName: name,
      AttributeDefinitions: [{ AttributeName: key, AttributeType: "S" }],
      KeySchema: [{ AttributeName: key, KeyType: "HASH" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
  await waitUntilTableExists({ client: conn.db, ...WAIT }, { TableName: name });
}

async function ensureTimeToLive(conn: Connection, table: string, attribute: string) {
  const { TimeToLiveDescription } = await conn.db.send(
    new DescribeTimeToLiveCommand({ TableName: table }),
  );
  if (TimeToLiveDescription?.TimeToLiveStatus === "ENABLED") return;
  await conn.db.send(
    new UpdateTimeToLiveCommand({
      TableName: table,
      TimeToLiveSpecification: { AttributeName: attribute, Enabled: true },
    }),
  );
}

async function ensureLogGroup(conn: Connection, name: string): Promise<void> {
  try {
    await conn.logs.send(new CreateLogGroupCommand({ logGroupName: name }));
  } catch (err) {
    if (!(err instanceof ResourceAlreadyExistsException)) throw err;
  }
}

async function ensureFunction(
  conn: Connection,
  names: LabNames,
  timings: Timings,
  env: Partial<WorkerSettings>,
  say: Say,
  guardFile: GuardFile | undefined,
) {
  const code = await packageWorker(guardFile);
  const configuration = {
    FunctionName: names.functionName,
    Timeout: timings.functionTimeoutSeconds,
    MemorySize: 256,
    Environment: { Variables: workerEnvironment(names, env) },
  };
  const current = await conn.lambda
    .send(new GetFunctionConfigurationCommand({ FunctionName: names.functionName }))
    .catch((err) => {
      if (err instanceof FunctionNotFound) return undefined;
      throw err;
    });
  if (!current) {
    say(
      `creating function ${names.functionName} (${(code.zip.byteLength / 1024).toFixed(0)} KB zip)`,
    );
    await conn.lambda.send(
      new CreateFunctionCommand({
        ...configuration,
        Runtime: "nodejs22.x",
        Handler: "index.handler",
        // Emulators accept any role; on AWS this would need SQS, DynamoDB and Logs permissions.
        Role: `arn:aws:iam::000000000000:role/${names.role}`,
        Code: { ZipFile: code.zip },
      }),
    );
    // LocalStack pulls the Lambda runtime image before the function turns Active: allow minutes.
    await waitUntilFunctionActiveV2(
      { client: conn.lambda, ...WAIT, maxWaitTime: 600 },
      { FunctionName: names.functionName },
    );
    return;
  }
  if (current.CodeSha256 !== code.sha256) {
    say(`updating the code of ${names.functionName}`);
    await conn.lambda.send(
      new UpdateFunctionCodeCommand({ FunctionName: names.functionName, ZipFile: code.zip }),
    );
    await waitUntilFunctionUpdatedV2(
      { client: conn.lambda, ...WAIT },
      { FunctionName: names.functionName },
    );
  }
  await conn.lambda.send(new UpdateFunctionConfigurationCommand(configuration));
  await waitUntilFunctionUpdatedV2(
    { client: conn.lambda, ...WAIT },
    { FunctionName: names.functionName },
  );
}

async function ensureEventSourceMapping(
  conn: Connection,
  functionName: string,
  queueArn: string,
): Promise<string> {
  const { EventSourceMappings = [] } = await conn.lambda.send(
    new ListEventSourceMappingsCommand({ FunctionName: functionName, EventSourceArn: queueArn }),
  );
  // LocalStack lists a mapping it is deleting, for minutes, while reads of it say it does not
  // exist: that one is going, not ours to use.
  const existing = EventSourceMappings.find((m) => m.State !== "Deleting");
  if (existing?.UUID) {
    // A deployed lab delivers; a lab that scenarios ran on was left with its mappings off. One
    // on its way somewhere is let arrive first: an update while it moves is refused on AWS.
    if (existing.State !== "Enabled") {
      const off = existing.State === "Disabled" || existing.State === "Disabling";
      await waitForMappingState(conn, existing.UUID, off ? "Disabled" : "Enabled");
      if (off) await setMappingEnabled(conn, existing.UUID, true);
    }
    return existing.UUID;
  }
  const { UUID } = await conn.lambda.send(
    new CreateEventSourceMappingCommand({
      FunctionName: functionName,
      EventSourceArn: queueArn,
      BatchSize: 1, // one record per invocation, so copies can run in separate invocations
      FunctionResponseTypes: ["ReportBatchItemFailures"],
      Enabled: true,
    }),
  );
  if (!UUID) throw new LabError("CreateEventSourceMapping returned no UUID");
  await waitForMappingState(conn, UUID, "Enabled");
  return UUID;
}
