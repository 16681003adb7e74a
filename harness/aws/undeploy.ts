// Removing what deploy (deploy.ts) made under one prefix: the mappings, the function, the four
// queues, the three tables and the log group. Used by a scenario run that deployed a lab of its
// own beside a workshop lab (scenario/open-lab.ts), so the emulator is left as it was found.
import { DeleteLogGroupCommand } from "@aws-sdk/client-cloudwatch-logs";
import { DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import {
  DeleteEventSourceMappingCommand,
  DeleteFunctionCommand,
  type EventSourceMappingConfiguration,
  ListEventSourceMappingsCommand,
} from "@aws-sdk/client-lambda";
import { DeleteQueueCommand, GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { errorText } from "../common/errors.js";
import type { Connection } from "./connection.js";
import type { LabNames } from "./names.js";
import { setMappingEnabled, waitForMappingState } from "./switches.js";

/** Error names that mean "already gone": removing twice is not a problem. */
const GONE = [
  "ResourceNotFoundException",
  "QueueDoesNotExist",
  "AWS.SimpleQueueService.NonExistentQueue",
];

/**
 * Deletes every resource deploy makes under these names; what is already gone is skipped.
 * Goes on past a failure, so one stuck piece does not leave the rest behind: each failure
 * comes back as a line saying what is left.
 */
export async function undeploy(conn: Connection, names: LabNames): Promise<string[]> {
  const problems: string[] = [];
  const remove = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (err) {
      if (GONE.includes((err as { name?: string }).name ?? "")) return;
      problems.push(`could not delete ${what}: ${errorText(err)}`);
    }
  };
  // The mappings first: a mapping left without its function keeps polling on some emulators.
  let listed: EventSourceMappingConfiguration[] = [];
  await remove(`the event source mappings of ${names.functionName}`, async () => {
    const page = await conn.lambda.send(
      new ListEventSourceMappingsCommand({ FunctionName: names.functionName }),
    );
    listed = page.EventSourceMappings ?? [];
  });
  for (const { UUID, State } of listed) {
    if (!UUID || State === "Deleting") continue;
    await remove(`event source mapping ${UUID}`, async () => {
      // LocalStack 4.14.0 never finishes deleting a disabled SQS mapping: it stays "Deleting"
      // and refuses a new mapping for the same function and queue. Seen in a test run.
      if (State === "Disabled" || State === "Disabling") {
        await waitForMappingState(conn, UUID, "Disabled");
        await setMappingEnabled(conn, UUID, true);
      }
      await conn.lambda.send(new DeleteEventSourceMappingCommand({ UUID }));
    });
  }
  await remove(`function ${names.functionName}`, () =>
    conn.lambda.send(new DeleteFunctionCommand({ FunctionName: names.functionName })),
  );
  for (const queue of [names.queue, names.dlq, names.fifoQueue, names.fifoDlq]) {
    await remove(`queue ${queue}`, async () => {
      const { QueueUrl } = await conn.sqs.send(new GetQueueUrlCommand({ QueueName: queue }));
      await conn.sqs.send(new DeleteQueueCommand({ QueueUrl }));
    });
  }
  const tables = [
    names.claimsTable,
    names.ledgerTable,
    names.powertoolsTable,
    names.failpointsTable,
  ];
  for (const table of tables) {
    await remove(`table ${table}`, () =>
      conn.db.send(new DeleteTableCommand({ TableName: table })),
    );
  }
  await remove(`log group ${names.logGroup}`, () =>
    conn.logs.send(new DeleteLogGroupCommand({ logGroupName: names.logGroup })),
  );
  return problems;
}
