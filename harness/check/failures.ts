// The one vocabulary of what can go wrong with an order, shared by the matrix's cells, the
// scenario checks, the grader and the interleaving explorer (as Jepsen's checkers report lost and
// duplicated writes apart). report/ says them in words; nothing here is meant to be read back.

export const FAILURE_KINDS = [
  "doubled", // charged more than once
  "lost", // never charged, and nothing says so
  "stuck", // left CLAIMED / INPROGRESS with no copy left to finish it
  "wrong key", // charged under another orderId ("unparseable")
  "dead-lettered", // never charged, with its message in the dead-letter queue for a person
  "mismatch skipped silently", // a copy with another payload skipped as if it were the same order
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** What went wrong, by kind, with how many; empty when every order was charged exactly once. */
export type Failures = Partial<Record<FailureKind, number>>;

/** The kinds present, in FAILURE_KINDS' order. */
export const kindsOf = (failures: Failures): FailureKind[] =>
  FAILURE_KINDS.filter((kind) => (failures[kind] ?? 0) > 0);
