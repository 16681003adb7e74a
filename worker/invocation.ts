import { isInjected } from "./injected.js";

/** Which copy of the message this is, and which invocation runs it. */
export interface Invocation {
  messageId: string;
  requestId: string;
  /** SQS's ApproximateReceiveCount: 1 on the first delivery, 2 on the first retry, … */
  attempt: number;
}

import type { GuardFailure, Outcome } from "../contract/events.js";

/** What happened to one SQS record. "failed" hands the record back to SQS for a retry. */
export type { Outcome };

const OUTCOMES: readonly string[] = ["charged", "skipped", "failed"] satisfies Outcome[];
export const isOutcome = (value: unknown): value is Outcome =>
  typeof value === "string" && OUTCOMES.includes(value);

export function notAnOutcome(value: unknown): GuardFailure {
  const returned = shownValue(value);
  return {
    errorKind: "returned",
    returned,
    error: `the guard returned ${returned}, not an outcome`,
  };
}

/**
 * A throw: the guard's own, or a fault the lab injected (FAULT, a failpoint). A guard may throw
 * anything (a string, null, an object without a prototype): it is said, never thrown again here.
 */
export function thrown(err: unknown): GuardFailure {
  const error =
    err instanceof Error ? String(err.message) : typeof err === "string" ? err : shownValue(err);
  return { errorKind: isInjected(err) ? "injected" : "threw", error };
}

/**
 * A value as a guard returned or threw it, in one line: JSON, so a string shows its quotes
 * ("ok"); what JSON cannot say (a BigInt, a cycle, a Symbol) in the words it can.
 */
export function shownValue(value: unknown): string {
  const shown = safely(() => JSON.stringify(value)) ?? safely(() => String(value)) ?? typeof value;
  return shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
}

const safely = (say: () => string | undefined): string | undefined => {
  try {
    return say();
  } catch {
    return undefined;
  }
};
