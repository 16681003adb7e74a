// Holds for the interrupt test (test/scenarios/interrupt.test.ts): with LAB_HOLD_AT naming a
// moment of a run, the command stops there until it is interrupted, so the test's Ctrl-C lands
// in that moment by construction, not by timing. Unset (as for every user), a hold is nothing.
import { nextInterrupt } from "./interrupt.js";
import type { Say } from "./say.js";

/** Where a run can be held: MiniStack spawned but not ready, half-deployed, copies sent, closing. */
export const HOLD_MOMENTS = ["ministack-starting", "deploying", "phase", "stopping"] as const;
export type HoldMoment = (typeof HOLD_MOMENTS)[number];

/** What a command says when it holds: the test waits for this line before it interrupts. */
export const heldLine = (moment: HoldMoment): string =>
  `held at ${moment} (LAB_HOLD_AT): waiting for an interrupt`;

/**
 * With `LAB_HOLD_AT=<moment>[,<moment>…]`: says so, and waits for the next interrupt. Without a
 * handler for interrupts (cleanUpOnInterrupt), that never comes: the signal ends the process.
 */
export async function holdAt(moment: HoldMoment, say: Say): Promise<void> {
  if (!(process.env.LAB_HOLD_AT ?? "").split(",").includes(moment)) return;
  say(heldLine(moment));
  // A pending promise alone does not keep Node running.
  const alive = setInterval(() => {}, 60_000);
  try {
    await nextInterrupt();
  } finally {
    clearInterval(alive);
  }
}
