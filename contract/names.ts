// The lab's resource names (docs/design.md §3): the original lab's, under one stem that
// LAB_PREFIX may replace so two labs can share one emulator.

export const DEFAULT_PREFIX = "aws-lab-sqs-idempotency";

/** What a prefix may be: it ends up in queue, table and function names. */
export const PREFIX_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

export interface LabNames {
  queue: string;
  dlq: string;
  /** The FIFO queue and its dead-letter queue (fifo-dedup); SQS wants the .fifo suffix. */
  fifoQueue: string;
  fifoDlq: string;
  functionName: string;
  claimsTable: string;
  ledgerTable: string;
  powertoolsTable: string;
  /** Failpoints' control items: where a paused copy waits to be released. */
  failpointsTable: string;
  logGroup: string;
  role: string;
}

/** The names under one prefix; the prefix is checked by whoever read it (see harness/aws/names.ts). */
export function namesFor(prefix: string = DEFAULT_PREFIX): LabNames {
  const functionName = `${prefix}-worker`;
  return {
    queue: prefix,
    dlq: `${prefix}-dlq`,
    fifoQueue: `${prefix}.fifo`,
    fifoDlq: `${prefix}-dlq.fifo`,
    functionName,
    claimsTable: prefix,
    ledgerTable: `${prefix}-charges`,
    powertoolsTable: `${prefix}-powertools`,
    failpointsTable: `${prefix}-failpoints`,
    logGroup: `/aws/lambda/${functionName}`,
    role: `${prefix}-worker-role`,
  };
}
