import { UsageError } from "../common/errors.js";

// Resource names (design §3). LAB_PREFIX replaces the stem so two labs can share one emulator.

export const DEFAULT_PREFIX = "aws-lab-sqs-idempotency";

export interface LabNames {
  queue: string;
  dlq: string;
  functionName: string;
  claimsTable: string;
  ledgerTable: string;
  powertoolsTable: string;
  logGroup: string;
  role: string;
}

export function labNames(prefix: string = process.env.LAB_PREFIX || DEFAULT_PREFIX): LabNames {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(prefix)) {
    throw new UsageError(`LAB_PREFIX "${prefix}" must be 1 to 40 letters, digits, "-" or "_"`);
  }
  const functionName = `${prefix}-worker`;
  return {
    queue: prefix,
    dlq: `${prefix}-dlq`,
    functionName,
    claimsTable: prefix,
    ledgerTable: `${prefix}-charges`,
    powertoolsTable: `${prefix}-powertools`,
    logGroup: `/aws/lambda/${functionName}`,
    role: `${prefix}-worker-role`,
  };
}
