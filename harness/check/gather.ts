// Gathering a phase's facts: the events it produced, the tables and the queues, and what
// they add up to. Everything a check looks at comes from here.
import type { Connection } from "../aws/connection.js";
import type { Deployment } from "../aws/deploy.js";
import type { SentMessage } from "../drive/send.js";
import type { WorkerEvent } from "../observe/events.js";
import { chargeSummary, chargesByOrder, countsByType } from "../observe/insights.js";
import { queueDepth, readClaims, readLedger } from "../observe/observe.js";
import { invocationIntervals, maxConcurrency } from "../observe/overlap.js";
import type { PhaseFacts } from "./facts.js";
import { intendedOutcomes } from "./outcomes.js";

/** Everything a phase's checks look at: the events, the tables, the queues, and what they add up to. */
export async function gatherPhaseFacts(
  conn: Connection,
  deployment: Deployment,
  sent: SentMessage[],
  events: WorkerEvent[],
  deadLettered: ReadonlySet<string>,
  sends: number = sent.length,
): Promise<PhaseFacts> {
  const [claims, ledgerItems, dlq] = await Promise.all([
    readClaims(conn, deployment.names.claimsTable),
    readLedger(conn, deployment.names.ledgerTable),
    queueDepth(conn, deployment.dlqUrl),
  ]);
  return {
    sent: {
      messages: sent.length,
      sends,
      messageIds: sent.map((m) => m.messageId),
      orderIds: [...new Set(sent.map((m) => m.intendedOrderId))],
      bodies: [...new Set(sent.map((m) => m.body))],
    },
    observed: {
      eventCounts: countsByType(events),
      charges: chargeSummary(events),
      chargesByOrder: chargesByOrder(events),
      intended: intendedOutcomes(sent, events, deadLettered),
      claims,
      ledger: ledgerItems.length,
      dlq: dlq.visible + dlq.inFlight,
      maxConcurrency: maxConcurrency(invocationIntervals(events)),
    },
    events,
    ledgerItems,
    deadLettered: [...deadLettered],
  };
}
