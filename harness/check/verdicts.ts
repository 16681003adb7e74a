// Turning one phase's evidence into a matrix cell's figures: exactly once, or what went wrong,
// by kind and how many (failures.ts); report/ says it in words.
import type { Cell, PhaseFacts } from "./facts.js";
import { type Failures, kindsOf } from "./failures.js";

export type Verdict = Omit<Cell, "row" | "column">;

/** Every order the sender meant, charged exactly once under its own id? If not, how not. */
export function orderFailures(facts: PhaseFacts): Failures {
  const outcomes = Object.values(facts.observed.intended);
  const count = (verdict: string) => outcomes.filter((o) => o.verdict === verdict).length;
  const extra = outcomes
    .filter((o) => o.verdict === "duplicated")
    .reduce((n, o) => n + o.charges - 1, 0);
  const failures: Failures = {
    doubled: extra,
    lost: count("lost"),
    "wrong key": count("wrong key"),
    "dead-lettered": count("dead-lettered"),
  };
  return Object.fromEntries(Object.entries(failures).filter(([, n]) => n > 0));
}

/**
 * A copy with the same orderId but another amount must be refused out loud (payload_mismatch,
 * dead-lettered), not skipped as if it were the same order.
 */
export function mismatchFailures(facts: PhaseFacts): Failures {
  const failures = orderFailures(facts);
  const refused =
    (facts.observed.eventCounts.payload_mismatch ?? 0) > 0 && facts.deadLettered.length > 0;
  if (Object.keys(failures).length === 0 && !refused) return { "mismatch skipped silently": 1 };
  return failures;
}

/** The cell's figures: what failed, by kind, and the charges and orders they are out of. */
export function verdictOf(failures: Failures, facts: PhaseFacts): Verdict {
  return {
    ok: kindsOf(failures).length === 0,
    failures,
    charges: facts.observed.charges.charges,
    orders: Object.keys(facts.observed.intended).length,
  };
}

export const judgeOrders = (facts: PhaseFacts): Verdict => verdictOf(orderFailures(facts), facts);
export const judgeMismatch = (facts: PhaseFacts): Verdict =>
  verdictOf(mismatchFailures(facts), facts);
