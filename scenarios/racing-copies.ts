import type { WorkerEvent } from "../harness/observe/events.js";
import { atLeast, equal, greaterThan, phase, scenario } from "../harness/scenario/scenario.js";

const POLLERS = 5;
const COPIES = 10;

const copiesThat = (type: string, events: WorkerEvent[]) =>
  new Set(events.filter((e) => e.type === type).map((e) => e.messageId)).size;

export default scenario({
  name: "racing-copies",
  title: "Read-then-write races; the conditional write does not",
  story:
    `${POLLERS} pollers (as real AWS runs for one event source mapping) hand ${COPIES} copies of one ` +
    "order to the worker at the same time. The naive guard reads the claims table, sees nothing, " +
    "and charges: every copy that read before the first write charges too. The conditional claim " +
    "under the very same overlap charges once. maxConcurrency shows the copies really ran at once: " +
    "a race that never overlapped proves nothing, so the scenario fails if they did not.",
  phases: [
    phase("racing copies, naive read-then-write", {
      setup: { guard: "naive", workMs: 300, raceWindowMs: 300, pollers: POLLERS },
      workload: (lab) => lab.send({ orderId: "ORDER-004", copies: COPIES }),
      checks: ({ observed }) => [
        atLeast("copies really overlapped (maxConcurrency)", observed.maxConcurrency, 2),
        greaterThan("charges (more than one is the bug)", observed.charges.charges, 1),
        equal(
          "ORDER-004 charged more than once",
          observed.intended["ORDER-004"]?.verdict,
          "duplicated",
        ),
      ],
    }),
    phase("racing copies, conditional claim", {
      setup: { guard: "claim", workMs: 300, pollers: POLLERS },
      workload: (lab) => lab.send({ orderId: "ORDER-004", copies: COPIES }),
      checks: ({ observed, events }) => [
        atLeast("copies really overlapped (maxConcurrency)", observed.maxConcurrency, 2),
        equal("charges", observed.charges.charges, 1),
        equal("claim_won", observed.eventCounts.claim_won, 1),
        // Counted per copy: a copy SQS redelivers (at least once!) loses the claim again.
        equal("copies that lost the claim", copiesThat("claim_lost", events), COPIES - 1),
      ],
    }),
  ],
});
