// How many labs of one emulator a run spreads its phases over (scenario-cli, grade-cli).
import { isLocalStack } from "../backends/emulators.js";
import type { Scenario } from "../scenario/scenario.js";

/**
 * A scenario of many independent phases (the guard matrix's 48) runs them side by side on
 * several labs of one emulator: 4 on MiniStack, 2 on LocalStack, whose execution environments
 * are containers; any other scenario on one. A guard's column (8 phases, graded) runs as the
 * matrix does: its racing rows hold a copy for seconds, and a guard of someone's own may time out.
 */
export function lanesFor(
  scenario: Scenario,
  backend: { name: string; version: string },
  graded = false,
): number {
  if (scenario.phases.length < 24 && !graded) return 1;
  return isLocalStack(backend) ? 2 : 4;
}
