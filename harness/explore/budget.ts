// The fault budget of a schedule: how many deaths, failed charges, clock jumps and lost answers
// it may still use, each kind on its own and all of them together.
import type { FailpointName } from "../../contract/failpoints.js";

/** Faults a schedule may use, each at most this many times. */
export interface Budget {
  /** Copies that die: killed where they stand, or timed out by Lambda past their deadline. */
  deaths: number;
  /** Failpoint fails: a failed charge is a fail at before-charge. */
  fails: number;
  jumps: number;
  /**
   * Answers or requests the network loses: a DynamoDB call's answer lost after it was applied, or
   * its request lost before it arrived (the SDK retries both), or the payment's answer lost after
   * the charge went through (a timeout thrown to the guard).
   */
  losses: number;
  /** At most this many faults of any kind together (unset: no cap beyond the three above). */
  total?: number;
}

export type FaultKind = "deaths" | "fails" | "jumps" | "losses";

export const DEFAULT_BUDGET: Readonly<Budget> = { deaths: 1, fails: 1, jumps: 1, losses: 1 };

/** Where a failpoint may throw: before the charge, the payment provider declining. */
export const FAIL_AT: readonly FailpointName[] = ["before-charge"];

const KINDS: readonly FaultKind[] = ["deaths", "fails", "jumps", "losses"];

export class FaultBudget {
  private readonly spent: Record<FaultKind, number> = {
    deaths: 0,
    fails: 0,
    jumps: 0,
    losses: 0,
  };

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

  /** How many more faults of this kind fit, the total cap included. */
  remaining(kind: FaultKind): number {
    const { total } = this.limit;
    const own = this.limit[kind] - this.spent[kind];
    return total === undefined ? own : Math.min(own, total - this.used());
  }

  /** Faults used so far, of every kind. */
  used(): number {
    return KINDS.reduce((n, kind) => n + this.spent[kind], 0);
  }
}
