// Which orders the sender meant were charged once, twice, never, or under the wrong key: the
// question a payment team asks, answered from the charges the worker logged.

import type { SentMessage } from "../drive/send.js";
import type { WorkerEvent } from "../observe/events.js";
import type { IntendedOutcome } from "./facts.js";

export function intendedOutcomes(
  sent: SentMessage[],
  events: WorkerEvent[],
  deadLettered: ReadonlySet<string> = new Set(),
): Record<string, IntendedOutcome> {
  const intendedBy = new Map(sent.map((m) => [m.messageId, m.intendedOrderId]));
  const outcomes: Record<string, IntendedOutcome> = {};
  for (const { intendedOrderId } of sent) {
    outcomes[intendedOrderId] ??= {
      messages: 0,
      charges: 0,
      chargedUnderItsId: 0,
      deadLettered: 0,
      verdict: "lost",
    };
    outcomes[intendedOrderId].messages++;
  }
  for (const { messageId, intendedOrderId } of sent) {
    const outcome = outcomes[intendedOrderId];
    if (outcome && deadLettered.has(messageId)) outcome.deadLettered++;
  }
  for (const event of events) {
    const intended = event.type === "charge_applied" ? intendedBy.get(event.messageId) : undefined;
    const outcome = intended === undefined ? undefined : outcomes[intended];
    if (!outcome) continue;
    outcome.charges++;
    if (event.orderId === intended) outcome.chargedUnderItsId++;
  }
  for (const outcome of Object.values(outcomes)) outcome.verdict = verdictOf(outcome);
  return outcomes;
}

function verdictOf(outcome: IntendedOutcome): IntendedOutcome["verdict"] {
  const { charges, chargedUnderItsId, deadLettered } = outcome;
  // Not charged, but waiting in the dead-letter queue where a person can find it.
  if (charges === 0 && deadLettered > 0) return "dead-lettered";
  if (charges === 0) return "lost";
  if (charges > 1) return "duplicated";
  // Charged once, but under another key (say "unparseable", with no amount): nobody can match it.
  return chargedUnderItsId === 1 ? "exactly once" : "wrong key";
}
