// How many labs of one emulator a run spreads its phases over (scenario-cli, grade-cli).
import { type Emulator, profileOf } from "../backends/emulators.js";
import type { Scenario } from "../scenario/scenario.js";

/**
 * Phases are independent, so a scenario runs them side by side on several labs of one emulator,
 * at most 4 on MiniStack and 2 on LocalStack, whose execution environments are containers. Most
 * of a phase is waiting for SQS to redeliver (batch-retry: 97 s on one lane, its three phases
 * one after another), and an extra lane costs about a second to deploy. A guard's column (8
 * phases, graded) runs as the matrix does: its racing rows hold a copy for seconds, and a guard
 * of someone's own may time out.
 */
export function lanesFor(
  scenario: Scenario,
  backend: { emulator: Emulator },
  graded = false,
): number {
  const most = profileOf(backend).lanes;
  return graded ? most : Math.min(scenario.phases.length, most);
}
