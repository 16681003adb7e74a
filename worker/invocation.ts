/** Which copy of the message this is, and which invocation runs it. */
export interface Invocation {
  messageId: string;
  requestId: string;
  /** SQS's ApproximateReceiveCount: 1 on the first delivery, 2 on the first retry, … */
  attempt: number;
}

/** What happened to one SQS record. "failed" hands the record back to SQS for a retry. */
export type Outcome = "charged" | "skipped" | "failed";

const OUTCOMES: readonly string[] = ["charged", "skipped", "failed"] satisfies Outcome[];
export const isOutcome = (value: unknown): value is Outcome =>
  typeof value === "string" && OUTCOMES.includes(value);

/** What a guard returned instead of an outcome, said in one line (its first characters). */
export function notAnOutcome(value: unknown): string {
  // JSON, so a string shows its quotes: "ok" is not the outcome "charged".
  const shown = String(JSON.stringify(value) ?? value);
  return `the guard returned ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}, not an outcome`;
}
