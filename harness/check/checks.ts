// The checker's vocabulary: each check names what it compares and keeps both sides.
import { isDeepStrictEqual } from "node:util";
import type { Check, Observed, PhaseFacts } from "./facts.js";

export function equal(name: string, actual: unknown, expected: unknown): Check {
  return { name, pass: isDeepStrictEqual(actual, expected), expected, actual };
}

/** The claims table as "orderId/status" pairs, sorted by orderId, against what it should hold. */
export function claimsAre(name: string, observed: Observed, expected: string[]): Check {
  return equal(
    name,
    observed.claims.map((c) => `${c.orderId}/${c.status}`),
    expected,
  );
}

export function atLeast(name: string, actual: number, minimum: number): Check {
  return { name, pass: actual >= minimum, expected: `≥ ${minimum}`, actual };
}

export function greaterThan(name: string, actual: number, bound: number): Check {
  return { name, pass: actual > bound, expected: `> ${bound}`, actual };
}

export function oneOf(name: string, actual: unknown, allowed: readonly unknown[]): Check {
  return {
    name,
    pass: allowed.some((value) => isDeepStrictEqual(value, actual)),
    expected: `one of ${allowed.length} sent`,
    actual,
  };
}

/** True in every phase of every scenario: what the lab's evidence rests on. */
export function invariantChecks(facts: PhaseFacts, missing: number): Check[] {
  const charged = facts.events
    .filter((e) => e.type === "charge_applied")
    .map((e) => String(e.chargeId))
    .sort();
  const ledger = facts.ledgerItems.map((item) => item.chargeId).sort();
  const sent = facts.sent.messages;
  return [
    {
      name: "sent messages that ended (acknowledged or dead-lettered)",
      pass: missing === 0,
      expected: sent,
      actual: sent - missing,
    },
    {
      name: "charge_applied lines with exactly one ledger item",
      pass: isDeepStrictEqual(charged, ledger),
      expected: charged.length,
      actual: ledger.length,
    },
  ];
}
