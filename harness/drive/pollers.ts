// Poller mode: P concurrent loops of ReceiveMessage(1) → Invoke → DeleteMessage, standing in
// for the several pollers real AWS runs per event source mapping. The lab turns the mapping
// off meanwhile, so these loops are the only consumers of the queue.
import { InvokeCommand } from "@aws-sdk/client-lambda";
import { DeleteMessageCommand, type Message, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import type { Connection } from "../aws/connection.js";
import type { Deployment } from "../aws/deploy.js";
import { sleep } from "../common/sleep.js";

export interface PollerStats {
  received: number;
  invocations: number;
  /** Invocations whose handler returned (no FunctionError): each logged its start and its end. */
  answered: number;
  deleted: number;
  failed: number;
  /** Deletes refused because the message had already been handed out again. */
  lateDeletes: number;
}

export interface Pollers {
  stop(): Promise<PollerStats>;
  /** The counts so far, while they run. */
  stats(): PollerStats;
}

/** Receive errors in a row after which a poller decides the emulator is gone. */
const GIVE_UP_AFTER = 5;

export function startPollers(conn: Connection, deployment: Deployment, count: number): Pollers {
  let stopping = false;
  let failure: unknown;
  // stop() cuts a waiting receive short: everything sent has ended by then.
  const stopped = new AbortController();
  const stats: PollerStats = {
    received: 0,
    invocations: 0,
    answered: 0,
    deleted: 0,
    failed: 0,
    lateDeletes: 0,
  };

  const receive = () =>
    conn.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: deployment.queueUrl,
        MaxNumberOfMessages: 1,
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ["All"],
        MessageAttributeNames: ["All"],
      }),
      { abortSignal: stopped.signal },
    );

  const loop = async () => {
    let errorsInARow = 0;
    while (!stopping) {
      let received: Message[];
      try {
        received = (await receive()).Messages ?? [];
        errorsInARow = 0;
      } catch (err) {
        if (stopping) break;
        if (++errorsInARow >= GIVE_UP_AFTER) throw err;
        await sleep(500);
        continue;
      }
      for (const message of received) {
        stats.received++;
        // A throttled or failed Invoke is a failed delivery, as on AWS: the message comes back.
        const answer = await invoke(conn, deployment, message).catch(() => "failed" as const);
        if (answer !== "failed") stats.answered++;
        const succeeded = answer === "acknowledged";
        stats.invocations++;
        if (succeeded && message.ReceiptHandle) {
          // Too late if the visibility timeout ran out meanwhile: SQS has handed the message to
          // another poller and will count it again, as it would on AWS.
          const deleted = await conn.sqs
            .send(
              new DeleteMessageCommand({
                QueueUrl: deployment.queueUrl,
                ReceiptHandle: message.ReceiptHandle,
              }),
            )
            .then(
              () => true,
              () => false,
            );
          if (deleted) stats.deleted++;
          else stats.lateDeletes++;
        } else {
          stats.failed++; // left alone: it comes back after the visibility timeout, as with a real poller
        }
      }
    }
  };
  // One loop failing (say, the emulator died) stops them all; stop() reports why.
  const loops = Array.from({ length: count }, () =>
    loop().catch((err: unknown) => {
      stopping = true;
      failure ??= err;
    }),
  );
  return {
    stats: () => ({ ...stats }),
    async stop() {
      stopping = true;
      stopped.abort();
      await Promise.all(loops);
      if (failure) throw failure;
      return stats;
    },
  };
}

/** failed: the invocation threw or timed out; returned: the handler answered, with this record failed or not. */
async function invoke(
  conn: Connection,
  deployment: Deployment,
  message: Message,
): Promise<"failed" | "record failed" | "acknowledged"> {
  const event: SQSEvent = { Records: [sqsRecord(message, deployment.queueArn, conn.region)] };
  const response = await conn.lambda.send(
    new InvokeCommand({
      FunctionName: deployment.names.functionName,
      InvocationType: "RequestResponse",
      Payload: new TextEncoder().encode(JSON.stringify(event)),
    }),
  );
  if (response.FunctionError) return "failed";
  const payload = response.Payload
    ? (JSON.parse(new TextDecoder().decode(response.Payload)) as SQSBatchResponse | null)
    : null;
  const failed = payload?.batchItemFailures?.some((f) => f.itemIdentifier === message.MessageId);
  return failed ? "record failed" : "acknowledged";
}

/** The record shape Lambda's SQS poller hands a function. */
export function sqsRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? "",
    receiptHandle: message.ReceiptHandle ?? "",
    body: message.Body ?? "",
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? "1",
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? "000000000000",
      ApproximateFirstReceiveTimestamp:
        attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          dataType: value.DataType ?? "String",
          ...(value.StringValue === undefined ? {} : { stringValue: value.StringValue }),
          stringListValues: [],
          binaryListValues: [],
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? "",
    eventSource: "aws:sqs",
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}
