// What the producer sends, before anything is sent: the article's order body, the body inline
// PowerShell quoting leaves, a body from a file, and how many copies make sense. No AWS client
// here, so a command can check what it was given before it loads one.
import { readFileSync } from "node:fs";
import { UsageError } from "../common/errors.js";
import { decodeBodyFile } from "./body-file.js";

export interface OrderInput {
  orderId: string;
  customerId?: string;
  amount?: number;
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
