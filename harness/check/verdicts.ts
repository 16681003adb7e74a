// Turning one phase's evidence into a matrix cell: ✓ exactly once, or what went wrong.
import type { Cell, PhaseFacts } from "./facts.js";

export type Verdict = Omit<Cell, "row" | "column">;

/** Every order the sender meant, charged exactly once under its own id? If not, how not. */
export function judgeOrders(facts: PhaseFacts): Verdict {
  const outcomes = Object.values(facts.observed.intended);
  const extra = outcomes
    .filter((o) => o.verdict === "duplicated")
    .reduce((n, o) => n + o.charges - 1, 0);
  const lost = outcomes.filter((o) => o.verdict === "lost").length;
  const wrongKey = outcomes.filter((o) => o.verdict === "wrong key").length;
  const parked = outcomes.filter((o) => o.verdict === "dead-lettered").length;
  const problems = [
    extra > 0 ? `doubled ${extra}` : "",
    lost > 0 ? `lost ${lost}` : "",
    wrongKey > 0 ? `wrong key ${wrongKey}` : "",
    parked > 0 ? `dead-lettered ${parked}` : "",
  ].filter(Boolean);
  return {
    ok: problems.length === 0,
    text: problems.length === 0 ? "✓ exactly once" : `✗ ${problems.join(", ")}`,
    charges: facts.observed.charges.charges,
    orders: outcomes.length,
  };
}

/**
 * A copy with the same orderId but another amount must be refused out loud (payload_mismatch,
 * dead-lettered), not skipped as if it were the same order.
 */
export function judgeMismatch(facts: PhaseFacts): Verdict {
  const verdict = judgeOrders(facts);
  const refused =
    (facts.observed.eventCounts.payload_mismatch ?? 0) > 0 && facts.deadLettered.length > 0;
  if (verdict.ok && !refused) return { ...verdict, ok: false, text: "✗ mismatch skipped silently" };
  return verdict;
}
