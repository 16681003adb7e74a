// The producer: N copies of one order, each a separate SendMessage, like the article's
// send.ps1 -OrderId ORDER-003 -Copies 10. Each copy gets its own MessageId from SQS.
import { SendMessageBatchCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { COPY_ATTRIBUTE } from "../../contract/failpoints.js";
import type { Connection } from "../aws/connection.js";
import { LabError, UsageError } from "../common/errors.js";
import { copiesProblem } from "./order-body.js";

export interface SentMessage {
  messageId: string;
  body: string;
  /** The order the sender meant, even when the body no longer says so. */
  intendedOrderId: string;
  /** Its number among the messages sent (the labCopy attribute failpoints are scoped by). */
  copy?: number;
}

/**
 * To a FIFO queue: the message group (one order's copies in order), and the sender's
 * deduplication id; without one, the queue's content-based deduplication applies.
 */
export interface FifoSend {
  groupId: string;
  deduplicationId?: string;
}

export async function sendCopies(
  conn: Connection,
  queueUrl: string,
  message: { body: string; intendedOrderId: string },
  copies: number,
  onSent: (sent: SentMessage, copy: number) => void = () => {},
  fifo?: FifoSend,
  /** The number the first copy carries (a run numbers every message it sends, 1, 2, …). */
  firstCopy = 1,
): Promise<SentMessage[]> {
  const problem = copiesProblem(copies);
  if (problem) throw new UsageError(problem);
  const sent: SentMessage[] = [];
  for (let copy = 1; copy <= copies; copy++) {
    const number = firstCopy + copy - 1;
    const { MessageId } = await conn.sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: message.body,
        MessageAttributes: {
          [COPY_ATTRIBUTE]: { DataType: "Number", StringValue: String(number) },
        },
        ...(fifo && {
          MessageGroupId: fifo.groupId,
          MessageDeduplicationId: fifo.deduplicationId,
        }),
      }),
    );
    if (!MessageId) throw new LabError("SendMessage returned no MessageId");
    const one = {
      messageId: MessageId,
      body: message.body,
      intendedOrderId: message.intendedOrderId,
      copy: number,
    };
    sent.push(one);
    onSent(one, copy);
  }
  return sent;
}

/**
 * Many messages, ten to a SendMessageBatch (SQS's limit), for the load bench; the lessons send
 * one at a time. Returns them in the order given.
 */
export async function sendBatches(
  conn: Connection,
  queueUrl: string,
  messages: { body: string; intendedOrderId: string }[],
): Promise<SentMessage[]> {
  const sent: SentMessage[] = [];
  for (let start = 0; start < messages.length; start += 10) {
    const chunk = messages.slice(start, start + 10);
    const { Successful = [], Failed = [] } = await conn.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((m, i) => ({ Id: String(i), MessageBody: m.body })),
      }),
    );
    if (Failed.length > 0)
      throw new LabError(
        `SendMessageBatch refused ${Failed.length} message(s): ${Failed[0]?.Code}`,
      );
    const ids = new Map(Successful.map((s) => [s.Id, s.MessageId]));
    chunk.forEach((m, i) => {
      const messageId = ids.get(String(i));
      if (!messageId) throw new LabError("SendMessageBatch returned no MessageId");
      sent.push({ messageId, ...m });
    });
  }
  return sent;
}
