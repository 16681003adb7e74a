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

/** A throw: the guard's own, or a fault the lab injected (FAULT, a failpoint). */
export function thrown(err: unknown): GuardFailure {
  const error = err instanceof Error ? err.message : String(err);
  return { errorKind: isInjected(err) ? "injected" : "threw", error };
}

/** A value as a guard returned it, in one line: JSON, so a string shows its quotes ("ok"). */
export function shownValue(value: unknown): string {
  const shown = String(JSON.stringify(value) ?? value);
  return shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
}
