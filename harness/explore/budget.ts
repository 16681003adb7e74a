// The fault budget of a schedule: how many deaths, failed charges and clock jumps it may still
// use, each kind on its own and all of them together.
import type { FailpointName } from "../../contract/failpoints.js";

/** Faults a schedule may use, each at most this many times. */
export interface Budget {
  /** Copies that die: killed where they stand, or timed out by Lambda past their deadline. */
  deaths: number;
  /** Failpoint fails: a failed charge is a fail at before-charge. */
  fails: number;
  jumps: number;
  /** At most this many faults of any kind together (unset: no cap beyond the three above). */
  total?: number;
}

export type FaultKind = "deaths" | "fails" | "jumps";

export const DEFAULT_BUDGET: Readonly<Budget> = { deaths: 1, fails: 1, jumps: 1 };

/** Where a failpoint may throw: before the charge, the payment provider declining. */
export const FAIL_AT: readonly FailpointName[] = ["before-charge"];

const KINDS: readonly FaultKind[] = ["deaths", "fails", "jumps"];

export class FaultBudget {
  private readonly spent: Record<FaultKind, number> = { deaths: 0, fails: 0, jumps: 0 };

  constructor(private readonly limit: Readonly<Budget>) {}

  /** Whether `n` more faults of this kind fit the budget, the total cap included. */
  left(kind: FaultKind | "total", n: number): boolean {
    const { total } = this.limit;
    const withinTotal = total === undefined || this.used() + n <= total;
    return withinTotal && (kind === "total" || this.spent[kind] + n <= this.limit[kind]);
  }

  spend(kind: FaultKind): void {
    this.spent[kind] += 1;
  }

  /** Faults used so far, of every kind. */
  used(): number {
    return KINDS.reduce((n, kind) => n + this.spent[kind], 0);
  }
}
