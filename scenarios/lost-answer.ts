import { isEvent } from "../contract/events.js";
import { parseFailpoints } from "../contract/failpoints.js";
import { DYNAMO_RETRIES } from "../contract/retries.js";
import { RETRY_AFTER } from "../harness/aws/timings.js";
import type { TokenRetryAnswer } from "../harness/aws/transaction-token.js";
import type { WorkerEvent } from "../harness/observe/events.js";
import {
  claimsAre,
  equal,
  eventCount,
  oneOrderEnded,
  phase,
  scenario,
} from "../harness/scenario/scenario.js";

/** The guard's first write, applied by DynamoDB, its answer lost: on the first delivery only. */
const answerLost = (table: "claims" | "powertools") =>
  ({ failpoints: `dynamo:PutItem:${table}=lost-answer@copy1@attempt1`, workMs: 100 }) as const;
parseFailpoints(answerLost("claims").failpoints); // a typo fails at load, not in the worker

/** The SDK's own header on a call's first attempt, with the worker's retry settings. */
const FIRST_ATTEMPT = `attempt=1; max=${DYNAMO_RETRIES.maxAttempts}`;

/** What the first delivery's calls cost: the calls the guard made, and the SDK's attempts. */
function firstDeliveryCost(events: WorkerEvent[]) {
  const first = events.find((e) => e.type === "process_start" && Number(e.attempt) === 1);
  const ofFirst = (e: WorkerEvent) =>
    e.requestId === first?.requestId && e.messageId === first?.messageId;
  const mine = events.filter(isEvent("process_end")).find(ofFirst);
  const fault = events.filter(isEvent("fault")).find(ofFirst);
  return {
    calls: mine?.dynamoCalls,
    attempts: mine?.dynamoAttempts,
    outcome: mine?.outcome,
    faultAt: fault?.point === "dynamo" ? fault.sdkAttempt : undefined,
  };
}

const ORDER = "ORDER-701";

/** What the emulator answered the probe, for the phase whose lesson depends on it. */
let emulatorAnswer: TokenRetryAnswer | undefined;

export default scenario({
  name: "lost-answer",
  title: "DynamoDB's answer is lost and the SDK retries: the claim skips an order nobody charged",
  story:
    `One copy of ${ORDER}. The guard's first write reaches DynamoDB and is applied, but its ` +
    "answer is lost on the way back (a failpoint, dynamo:PutItem=lost-answer, first delivery " +
    `only). The AWS SDK retries on its own (${DYNAMO_RETRIES.retryMode} mode, ` +
    `${DYNAMO_RETRIES.maxAttempts} attempts): the retry meets the claim the first attempt wrote ` +
    "and DynamoDB refuses it with ConditionalCheckFailedException. The claim guard takes that " +
    "for another copy's claim and skips: the order is never charged, and CLAIMED stays. The " +
    "lease guard reads the owner in the item the refusal returns, sees its own, and charges. " +
    `Powertools' own record refuses its retry in the same way; SQS tries again (${RETRY_AFTER}).`,
  phases: [
    phase("claim, its claim's answer lost", {
      setup: { guard: "claim", ...answerLost("claims") },
      workload: (lab) => lab.send({ orderId: ORDER }),
      checks: ({ observed, events }) => [
        equal(
          "the first delivery: 1 call, 2 SDK attempts, the fault on the first, skipped",
          firstDeliveryCost(events),
          {
            calls: 1,
            attempts: 2,
            outcome: "skipped",
            faultAt: FIRST_ATTEMPT,
          },
        ),
        equal(
          "claim_lost (its own claim, taken for another copy's)",
          eventCount({ observed }, "claim_lost"),
          1,
        ),
        ...oneOrderEnded(observed, ORDER, "lost", 0),
        claimsAre("claims table: CLAIMED, never charged", observed, [`${ORDER}/CLAIMED`]),
      ],
    }),
    phase("lease, its claim's answer lost", {
      setup: { guard: "lease", ...answerLost("claims") },
      workload: (lab) => lab.send({ orderId: ORDER }),
      checks: ({ observed, events }) => [
        equal("the first delivery: 2 calls, 3 SDK attempts, charged", firstDeliveryCost(events), {
          calls: 2,
          attempts: 3,
          outcome: "charged",
          faultAt: FIRST_ATTEMPT,
        }),
        equal(
          "claim_won on its own claim (ownClaim)",
          events.filter((e) => e.type === "claim_won" && e.ownClaim === true).length,
          1,
        ),
        ...oneOrderEnded(observed, ORDER, "exactly once", 1),
        claimsAre("claims table", observed, [`${ORDER}/COMPLETED`]),
      ],
    }),
    phase("lease, its fenced charge's answer lost", {
      setup: {
        guard: "lease",
        failpoints: "dynamo:TransactWriteItems:claims=lost-answer@copy1@attempt1",
        workMs: 100,
      },
      workload: async (lab) => {
        emulatorAnswer = await lab.transactionTokenRetry();
        await lab.send({ orderId: ORDER });
      },
      checks: ({ observed, events }) => [
        // The SDK's retry carries the transaction's token: AWS answers it with the same success.
        equal(
          "the emulator answers a transaction retried with its ClientRequestToken as AWS does",
          emulatorAnswer,
          { kind: "as AWS" },
        ),
        equal("the first delivery: 2 calls, 3 SDK attempts, charged", firstDeliveryCost(events), {
          calls: 2,
          attempts: 3,
          outcome: "charged",
          faultAt: FIRST_ATTEMPT,
        }),
        ...oneOrderEnded(observed, ORDER, "exactly once", 1),
        claimsAre("claims table", observed, [`${ORDER}/COMPLETED`]),
      ],
    }),
    phase("powertools, its record's answer lost", {
      setup: { guard: "powertools", ...answerLost("powertools") },
      workload: (lab) => lab.send({ orderId: ORDER }),
      checks: ({ observed, events }) => [
        equal(
          "the first delivery: its own record refused the retry, busy (4 calls, 5 attempts), failed",
          firstDeliveryCost(events),
          { calls: 4, attempts: 5, outcome: "failed", faultAt: FIRST_ATTEMPT },
        ),
        equal("claim_busy (against its own record)", eventCount({ observed }, "claim_busy"), 1),
        equal("SQS's retry charged it", eventCount({ observed }, "claim_won"), 1),
        ...oneOrderEnded(observed, ORDER, "exactly once", 1),
      ],
    }),
  ],
});
