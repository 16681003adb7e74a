// FAULT injection (docs/design.md §4): what goes wrong, and when. "once" means on the first delivery
// of a message only, so the retry SQS makes afterwards runs clean.
import type { WorkerConfig } from "../contract/settings.js";
import { InjectedFault } from "./injected.js";
import type { Invocation } from "./invocation.js";

/** FAULT=crash-after-claim: the copy that was let through dies before it charges. */
export function crashIfInjected(config: WorkerConfig, invocation: Invocation): void {
  if (config.fault === "crash-after-claim" && invocation.attempt === 1) {
    // A killed process: no catch, no finally, no clean-up, no process_end line.
    process.exit(1);
  }
}

/** FAULT=fail-charge-once / fail-charge-always: the payment provider declines. */
export function chargeFailureIfInjected(
  config: WorkerConfig,
  invocation: Invocation,
): Error | undefined {
  const fails =
    config.fault === "fail-charge-always" ||
    (config.fault === "fail-charge-once" && invocation.attempt === 1);
  return fails
    ? new InjectedFault(`payment provider unavailable (FAULT=${config.fault})`)
    : undefined;
}
