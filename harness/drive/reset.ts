// Between phases: empty the queues and the tables, so each phase starts from nothing.
import {
  DeleteMessageCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
} from "@aws-sdk/client-sqs";
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Connection } from "../aws/connection.js";
import type { Deployment } from "../aws/deploy.js";
import { scanAll } from "../aws/scan.js";

/** Empties the queues (standard and FIFO, with their DLQs) and the tables; says how many items each table held. */
export async function resetState(
  conn: Connection,
  deployment: Deployment,
): Promise<Record<string, number>> {
  const { names } = deployment;
  const { fifo } = deployment;
  const queues = [deployment.queueUrl, deployment.dlqUrl, fifo.queueUrl, fifo.dlqUrl];
  await Promise.all(queues.map((url) => emptyQueue(conn, url)));
  const holds = await emptyTable(conn, names.failpointsTable, "id");
  return {
    [names.claimsTable]: await emptyTable(conn, names.claimsTable, "orderId"),
    [names.ledgerTable]: await emptyTable(conn, names.ledgerTable, "chargeId"),
    [names.powertoolsTable]: await emptyTable(conn, names.powertoolsTable, "id"),
    // Failpoints' control items matter only to whoever set a failpoint: named when there were any.
    ...(holds > 0 ? { [names.failpointsTable]: holds } : {}),
  };
}

async function emptyQueue(conn: Connection, queueUrl: string): Promise<void> {
  try {
    await conn.sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
  } catch (err) {
    // Real SQS (and LocalStack) allow one purge per 60 s; drain by hand when refused.
    if ((err as { name?: string }).name !== "PurgeQueueInProgress") throw err;
    for (;;) {
      const { Messages = [] } = await conn.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
        }),
      );
      if (Messages.length === 0) return;
      for (const { ReceiptHandle } of Messages) {
        await conn.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle }));
      }
    }
  }
}

async function emptyTable(conn: Connection, table: string, key: string): Promise<number> {
  const items = await scanAll<Record<string, unknown>>(conn, table);
  for (let i = 0; i < items.length; i += 25) {
    const batch = items
      .slice(i, i + 25)
      .map((item) => ({ DeleteRequest: { Key: { [key]: item[key] } } }));
    await conn.db.send(new BatchWriteCommand({ RequestItems: { [table]: batch } }));
  }
  return items.length;
}
