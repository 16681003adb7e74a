// Poller mode: P concurrent loops of ReceiveMessage(1) → Invoke → DeleteMessage, standing in
// for the several pollers real AWS runs per event source mapping. The lab turns the mapping
// off meanwhile, so these loops are the only consumers of the queue.
import { InvokeCommand } from "@aws-sdk/client-lambda";
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
} from "@aws-sdk/client-sqs";
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
  /**
   * No new receive, no new delivery; resolves with the counts once no delivery is under way.
   * A receive still waiting is not cut short: see `drained`.
   */
  stop(): Promise<PollerStats>;
  /**
   * Resolves once every receive has come back. Until then a waiting receive (a long poll, up to
   * a second) can still take a message; one cut short by the client does too, since the emulator
   * keeps it open: MiniStack handed the next phase's copy to such a receive, and it came back
   * only a visibility timeout later, as a second attempt. Send nothing else to this queue before.
   */
  drained: Promise<void>;
  /** The counts so far, while they run. */
  stats(): PollerStats;
}

/** Receive errors in a row after which a poller decides the emulator is gone. */
const GIVE_UP_AFTER = 5;

export function startPollers(conn: Connection, deployment: Deployment, count: number): Pollers {
  let stopping = false;
  let failure: unknown;
  // Deliveries under way (invoke, then delete), and stop()'s wait for them to end.
  let delivering = 0;
  let idle: (() => void) | undefined;
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
        // Received after stop(): everything sent had ended, so this is a late redelivery; it is
        // put back at once for whoever empties the queue next, not delivered.
        if (stopping) {
          await handBack(conn, deployment.queueUrl, message);
          continue;
        }
        delivering++;
        try {
          await deliver(message);
        } finally {
          if (--delivering === 0) idle?.();
        }
      }
    }
  };

  const deliver = async (message: Message) => {
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
  };
  // One loop failing (say, the emulator died) stops them all; stop() reports why.
  const loops = Array.from({ length: count }, () =>
    loop().catch((err: unknown) => {
      stopping = true;
      failure ??= err;
    }),
  );
  const drained = Promise.all(loops).then(() => undefined);
  return {
    stats: () => ({ ...stats }),
    drained,
    async stop() {
      stopping = true;
      if (delivering > 0) await new Promise<void>((resolve) => (idle = resolve));
      if (failure) throw failure;
      return { ...stats };
    },
  };
}

/** Makes a received message visible again now, without delivering it. */
async function handBack(conn: Connection, queueUrl: string, message: Message): Promise<void> {
  if (!message.ReceiptHandle) return;
  await conn.sqs
    .send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: message.ReceiptHandle,
        VisibilityTimeout: 0,
      }),
    )
    .catch(() => undefined); // it comes back after its visibility timeout instead
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
