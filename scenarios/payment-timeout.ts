import { parseFailpoints } from "../contract/failpoints.js";
import { RETRY_AFTER } from "../harness/aws/timings.js";
import type { WorkerEvent } from "../harness/observe/events.js";
import {
  claimsAre,
  equal,
  eventCount,
  oneOrderEnded,
  type PhaseFacts,
  phase,
  scenario,
} from "../harness/scenario/scenario.js";

/** The payment goes through, its answer is lost: on the first delivery only. */
const TIMES_OUT = { failpoints: "payment=lost-answer@copy1@attempt1", workMs: 100 } as const;
parseFailpoints(TIMES_OUT.failpoints); // a typo fails at load, not in the worker

const ORDER = "ORDER-702";

/** The first delivery: its charge recorded, then the timeout it got instead of the answer. */
function firstDeliveryTimedOut(events: WorkerEvent[]) {
  const first = events.find((e) => e.type === "process_start" && Number(e.attempt) === 1);
  const said = events
    .filter((e) => e.requestId === first?.requestId && e.messageId === first?.messageId)
    .map((e) => e.type)
    .filter((t) => t === "charge_applied" || t === "fault" || t === "charge_failed");
  return equal("the first delivery: charged, then a timeout instead of the answer", said, [
    "charge_applied",
    "fault",
    "charge_failed",
  ]);
}

/** How many deliveries the message took: 1, or 2 when the worker failed it and SQS retried. */
const deliveries = (events: WorkerEvent[]) =>
  events.filter((e) => e.type === "process_start").length;

/** What the provider holds: one item per charge, named by its key when there is one. */
const ledgerIds = ({ ledgerItems }: PhaseFacts) => ledgerItems.map((i) => i.chargeId).sort();

/**
 * The same lost answer with the orderId as the provider's key: the retry's charge carries the
 * same key, and the provider answers with the charge it already made.
 */
function savedByTheProviderKey(title: string, guard: "off" | "powertools") {
  return phase(`${title}, the orderId as the provider key, the same lost answer`, {
    setup: { guard, providerKey: "orderId", ...TIMES_OUT },
    workload: (lab) => lab.send({ orderId: ORDER }),
    checks: (facts) => [
      firstDeliveryTimedOut(facts.events),
      equal(
        "charge_replayed (the retry got the charge back)",
        eventCount(facts, "charge_replayed"),
        1,
      ),
      equal("the provider's one charge, under the key", ledgerIds(facts), [`orderId=${ORDER}`]),
      ...oneOrderEnded(facts.observed, ORDER, "exactly once", 1),
    ],
  });
}

export default scenario({
  name: "payment-timeout",
  title: "The payment went through, its answer was lost: only the provider's key saves every guard",
  story:
    `One copy of ${ORDER}. The payment provider charges it, and the answer never comes back: ` +
    "the worker gets a timeout (a failpoint, payment=lost-answer, first delivery only). To the " +
    `worker that is a failed charge, so the record fails and SQS delivers it again (${RETRY_AFTER}). ` +
    "With no guard, and with Powertools (it deletes its INPROGRESS record when the function " +
    "throws), the retry charges a second time. The claim guard's CLAIMED item makes the retry " +
    "skip: charged once, but its record never says so. The lease guard's fence wrote the charge " +
    "and COMPLETED together, so it finds its own COMPLETED and counts the order charged. What " +
    "saves any guard, and no guard at all: the provider's idempotency key (PROVIDER_KEY=orderId): " +
    "the retry's charge carries the same key, and the provider answers with the charge it made " +
    `(charge_replayed, one ledger item named orderId=${ORDER}), with no guard and with Powertools.`,
  phases: [
    phase("guard off, the payment's answer lost", {
      setup: { guard: "off", ...TIMES_OUT },
      workload: (lab) => lab.send({ orderId: ORDER }),
      checks: ({ observed, events }) => [
        firstDeliveryTimedOut(events),
        equal("deliveries (SQS's retry charged again)", deliveries(events), 2),
        ...oneOrderEnded(observed, ORDER, "duplicated", 2),
      ],
    }),
    savedByTheProviderKey("guard off", "off"),
    phase("claim, the payment's answer lost", {
      setup: { guard: "claim", ...TIMES_OUT },
      workload: (lab) => lab.send({ orderId: ORDER }),
      checks: ({ observed, events }) => [
        firstDeliveryTimedOut(events),
        equal("the retry skipped it", eventCount({ observed }, "skip_duplicate"), 1),
        ...oneOrderEnded(observed, ORDER, "exactly once", 1),
        claimsAre("claims table: charged, yet CLAIMED for ever", observed, [`${ORDER}/CLAIMED`]),
      ],
    }),
    phase("lease, the payment's answer lost", {
      setup: { guard: "lease", ...TIMES_OUT },
      workload: (lab) => lab.send({ orderId: ORDER }),
      checks: ({ observed, events }) => [
        firstDeliveryTimedOut(events),
        equal(
          "one delivery, ended charged (its fence wrote COMPLETED with the charge)",
          [deliveries(events), events.find((e) => e.type === "process_end")?.outcome],
          [1, "charged"],
        ),
        ...oneOrderEnded(observed, ORDER, "exactly once", 1),
        claimsAre("claims table", observed, [`${ORDER}/COMPLETED`]),
      ],
    }),
    phase("powertools, the payment's answer lost", {
      setup: { guard: "powertools", ...TIMES_OUT },
      workload: (lab) => lab.send({ orderId: ORDER }),
      checks: ({ observed, events }) => [
        firstDeliveryTimedOut(events),
        equal("deliveries (SQS's retry ran the charge again)", deliveries(events), 2),
        ...oneOrderEnded(observed, ORDER, "duplicated", 2),
      ],
    }),
    savedByTheProviderKey("powertools", "powertools"),
  ],
});
