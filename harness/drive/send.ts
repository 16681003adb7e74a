// The producer: N copies of one order, each a separate SendMessage, like the article's
// send.ps1 -OrderId ORDER-003 -Copies 10. Each copy gets its own MessageId from SQS.
import { readFileSync } from "node:fs";
import { SendMessageBatchCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { COPY_ATTRIBUTE } from "../../contract/failpoints.js";
import type { Connection } from "../aws/connection.js";
import { LabError, UsageError } from "../common/errors.js";
import { decodeBodyFile } from "./body-file.js";

export interface OrderInput {
  orderId: string;
  customerId?: string;
  amount?: number;
}

export interface SentMessage {
  messageId: string;
  body: string;
  /** The order the sender meant, even when the body no longer says so. */
  intendedOrderId: string;
  /** Its number among the messages sent (the labCopy attribute failpoints are scoped by). */
  copy?: number;
}

/** The article's body, byte for byte: amount keeps its two decimals. */
export function orderBody({
  orderId,
  customerId = "CUSTOMER-123",
  amount = 150,
}: OrderInput): string {
  return `{"orderId":${JSON.stringify(orderId)},"customerId":${JSON.stringify(customerId)},"amount":${amount.toFixed(2)}}`;
}

/**
 * What PowerShell delivers when that JSON is passed inline to `aws sqs send-message
 * --message-body`: the double quotes are eaten on the way to the native command.
 */
export function mangleLikePowerShell(body: string): string {
  return body.replaceAll('"', "");
}

/**
 * The fix the article used: send the body from a file (file://body.json), in UTF-8 or in the
 * UTF-16 that Windows PowerShell 5.1's `>` writes (body-file.ts).
 */
export function readBodyFile(file: string): { body: string; intendedOrderId: string } {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new UsageError(
      `cannot read body file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const body = decodeBodyFile(bytes, file).trim();
  let intendedOrderId = "unknown";
  try {
    const parsed = JSON.parse(body) as { orderId?: unknown };
    if (typeof parsed.orderId === "string") intendedOrderId = parsed.orderId;
  } catch {
    // a broken body file is a legitimate thing to send; the worker will say what it saw
  }
  return { body, intendedOrderId };
}

/** Enough for any lesson, few enough that a typo cannot flood the emulator. */
export const MAX_COPIES = 1000;

/** Why a number of copies cannot be sent, or undefined when it can. */
export function copiesProblem(copies: number, typed: string = String(copies)): string | undefined {
  if (Number.isInteger(copies) && copies >= 1 && copies <= MAX_COPIES) return undefined;
  return `copies must be a whole number from 1 to ${MAX_COPIES}, got "${typed}"`;
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
