// Finding what deploy made, for a command that runs after `lab up`: without changing anything,
// and with a LabError saying what to run when a piece is missing.
import { ListEventSourceMappingsCommand } from "@aws-sdk/client-lambda";
import { GetQueueAttributesCommand, GetQueueUrlCommand } from "@aws-sdk/client-sqs";
import { LabError } from "../common/errors.js";
import type { Connection } from "./connection.js";
import { type Deployment, deploymentOf, queueSet } from "./deploy.js";
import type { LabNames } from "./names.js";

/** The call's result, or undefined when what it names does not exist. */
async function unlessMissing<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    const name = (err as { name?: string }).name ?? "";
    if (
      [
        "ResourceNotFoundException",
        "QueueDoesNotExist",
        "AWS.SimpleQueueService.NonExistentQueue",
      ].includes(name)
    ) {
      return undefined;
    }
    throw err;
  }
}

/** Finds what deploy made, without changing anything; a LabError says how to fix a gap. */
export async function locateDeployment(conn: Connection, names: LabNames): Promise<Deployment> {
  const notDeployed = () =>
    new LabError(`the lab is not deployed at ${conn.endpoint}: run "npx lab deploy"`);
  const url = async (name: string) => {
    const found = await unlessMissing(conn.sqs.send(new GetQueueUrlCommand({ QueueName: name })));
    if (!found?.QueueUrl) throw notDeployed();
    const { Attributes } = await conn.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: found.QueueUrl, AttributeNames: ["QueueArn"] }),
    );
    return { url: found.QueueUrl, arn: Attributes?.QueueArn ?? "" };
  };
  const mappingOf = async (queueArn: string) => {
    const listed = await unlessMissing(
      conn.lambda.send(
        new ListEventSourceMappingsCommand({
          FunctionName: names.functionName,
          EventSourceArn: queueArn,
        }),
      ),
    );
    const mappingId = listed?.EventSourceMappings?.[0]?.UUID;
    if (!mappingId) throw notDeployed();
    return mappingId;
  };
  const [queue, dlq] = [await url(names.queue), await url(names.dlq)];
  const [fifoQueue, fifoDlq] = [await url(names.fifoQueue), await url(names.fifoDlq)];
  const fifo = queueSet(fifoQueue, fifoDlq, await mappingOf(fifoQueue.arn));
  return deploymentOf(names, queue, dlq, await mappingOf(queue.arn), fifo);
}
