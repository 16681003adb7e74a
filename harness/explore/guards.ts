// What the explorer runs: each guard of the lab (the lease once per LEASE_DEFENCES setting), the
// clock jumps that matter to it, and what the lab teaches it does under every interleaving.
import {
  type GuardChoice,
  type GuardName,
  isGuardFileName,
  type LeaseDefences,
} from "../../contract/settings.js";
import { claim } from "../../worker/guards/claim.js";
import type { Guard } from "../../worker/guards/guard.js";
import { lease } from "../../worker/guards/lease.js";
import { naive } from "../../worker/guards/naive.js";
import { off } from "../../worker/guards/off.js";
import { powertools } from "../../worker/guards/powertools.js";
import { TEST_TIMINGS } from "../aws/timings.js";
import type { FailureKind } from "../check/failures.js";
import { UsageError } from "../common/errors.js";

export interface Explored {
  /** "lease/fence" */
  name: string;
  /** GUARD, as the worker's config and log lines say it: a lab guard, or a guard file's name. */
  guard: GuardChoice;
  /** The code that runs: the worker's guard, or a test's own. */
  run: Guard;
  leaseDefences?: LeaseDefences;
  leaseMs?: number;
  /**
   * How far the clock may jump (ms), at most once a schedule by default: just past the lease,
   * or past an invocation's deadline (which times out every copy it passes, each a death).
   * off, naive and claim read no clock: a jump could only time copies out, as a crash does.
   */
  jumps: number[];
  /** What the lab teaches: it holds in every schedule, or some schedule fails in one of these ways. */
  expect: "holds" | FailureKind[];
  /**
   * Failures the explorer found that the lab's lessons do not show (yet): reported as findings,
   * not held against the guard, unless the run is strict.
   */
  beyond?: { kinds: FailureKind[]; finding: string };
  /** The lesson, in one line. */
  lesson: string;
  /**
   * How long (real time) a copy may run between two gates before the run stops as hung; unset,
   * a minute (a lab guard that hangs is a bug of the lab). A guard file's is shorter.
   */
  hangMs?: number;
}

/** The lab as the tests deploy it: the function timeout, the visibility timeout, maxReceiveCount. */
export const EXPLORE_TIMINGS = TEST_TIMINGS;
const timeoutMs = EXPLORE_TIMINGS.functionTimeoutSeconds * 1000;
/**
 * Half an invocation: a jump just past it leaves the holder alive, still within its invocation,
 * which is where only the lease's defences decide what happens.
 */
export const EXPLORE_LEASE_MS = timeoutMs / 2;

const leaseWith = (
  defences: LeaseDefences,
  expect: Explored["expect"],
  lesson: string,
  beyond?: Explored["beyond"],
): Explored => ({
  name: `lease/${defences}`,
  guard: "lease",
  run: lease,
  leaseDefences: defences,
  leaseMs: EXPLORE_LEASE_MS,
  jumps: [EXPLORE_LEASE_MS + 1],
  expect,
  lesson,
  ...(beyond ? { beyond } : {}),
});

export const EXPLORED: readonly Explored[] = [
  {
    name: "off",
    guard: "off",
    run: off,
    jumps: [],
    expect: ["doubled"],
    lesson: "no guard: every copy charges",
  },
  {
    name: "naive",
    guard: "naive",
    run: naive,
    jumps: [],
    expect: ["doubled"],
    lesson: "read, then write: both copies read before either writes",
  },
  {
    name: "claim",
    guard: "claim",
    run: claim,
    jumps: [],
    expect: ["lost", "stuck"],
    lesson: "the article's conditional write: a winner that dies or fails leaves CLAIMED for ever",
  },
  // Its expiry floor was read once, when the guard started; the explorer found a lease that
  // outlived its invocation by the time between (three faults, both messages dead-lettered).
  // Fixed in worker/guards/lease.ts: the floor is read at each try.
  leaseWith("both", "holds", "the lease with the expiry floor and the fence"),
  leaseWith("fence", "holds", "the lease with the fence alone: a late holder's charge is refused", {
    kinds: ["dead-lettered"],
    finding:
      "a lease shorter than the work lets the copies take it from each other in turn: the fence refuses every late charge, so the order is never charged twice, but each copy fails, and after maxReceiveCount receives both messages are in the dead-letter queue, never charged (the expiry floor of `both` prevents it)",
  }),
  leaseWith("none", ["doubled"], "the lease as first written: the work outlives the lease"),
  {
    name: "powertools",
    guard: "powertools",
    run: powertools,
    // Past half the invocation (the holder alive: INPROGRESS must hold), or past all of it.
    jumps: [EXPLORE_LEASE_MS + 1, timeoutMs],
    expect: "holds",
    lesson: "Powertools' idempotency utility: INPROGRESS expires with the invocation",
    beyond: {
      kinds: ["doubled"],
      finding:
        "a copy that dies after its charge and before Powertools writes COMPLETED (a crash, or Lambda's timeout) leaves INPROGRESS behind; it expires with that invocation, and the retry runs the charge again: the charge and the record are two writes, and nothing fences the second charge (the lease's fence writes both in one transaction). The same when a copy's payment goes through and its answer is lost: the charge throws a timeout, Powertools deletes its record on the error, and the next copy charges again (only the provider's idempotency key can save that order)",
    },
  },
];

/** --guard: names separated by commas; "lease" is the three lease settings. */
export function chooseExplored(names: string | undefined): Explored[] {
  if (names === undefined || names.trim() === "") return [...EXPLORED];
  const chosen = new Set<Explored>();
  for (const name of names.split(",").map((n) => n.trim())) {
    const found = EXPLORED.filter((e) => e.name === name || e.name.startsWith(`${name}/`));
    if (found.length === 0) {
      throw new UsageError(
        `--guard: "${name}" is not a guard; choose from ${EXPLORED.map((e) => e.name).join(", ")} (lease = all three)`,
      );
    }
    for (const e of found) chosen.add(e);
  }
  return EXPLORED.filter((e) => chosen.has(e));
}

/**
 * Real time a guard file's copy may run between two DynamoDB calls or failpoints: Lambda would
 * have ended it after the function timeout; a loaded machine gets five times that.
 */
export const GUARD_FILE_HANG_MS = 5 * timeoutMs;

/**
 * A guard graded (npx lab grade), or a guard file explored (npx lab explore --guard-file):
 * expected to hold, with the clock jumps that matter to a guard that keeps a lease or an
 * in-progress record, as Powertools': past half the invocation (the holder alive), or past all of
 * it; LEASE_MS as the lease's. A lab guard graded gets exactly what a guard file does, so a lab
 * guard and the same guard copied into a file grade alike.
 */
export function gradedExplored(guard: GuardChoice, run?: Guard): Explored {
  const code = run ?? (isGuardFileName(guard) ? undefined : LAB_GUARDS[guard as GuardName]);
  if (!code) throw new UsageError(`${guard}: a guard file needs its code loaded to be explored`);
  return {
    name: guard,
    guard,
    run: code,
    leaseMs: EXPLORE_LEASE_MS,
    jumps: [EXPLORE_LEASE_MS + 1, timeoutMs],
    expect: "holds",
    lesson: isGuardFileName(guard) ? `${guard}, the guard file` : `${guard}, the lab's guard`,
    hangMs: GUARD_FILE_HANG_MS,
  };
}

const LAB_GUARDS: Record<GuardName, Guard> = { off, naive, claim, lease, powertools };
