import { randomUUID } from "node:crypto";
import { orderBody } from "../harness/drive/order-body.js";
import {
  equal,
  eventCount,
  type PhaseFacts,
  type PhaseSetup,
  phase,
  scenario,
  type Workload,
} from "../harness/scenario/scenario.js";

const COPIES = 10;

/**
 * A fresh order id per run. SQS remembers a deduplication id for five minutes whatever happens
 * to the queue, and MiniStack's purge does not make it forget: a second run within five
 * minutes would see every copy dropped. The id names the lesson's order, with a run suffix.
 */
const freshOrderId = (order: string) => `${order}-${randomUUID().slice(0, 4)}`;

const FIFO: Omit<PhaseSetup, "guard"> = { queue: "fifo", workMs: 100 };

/** The producer retries with the same deduplication id: the orderId. */
const tenWithTheOrderAsDedupId = async (lab: Workload) => {
  const orderId = freshOrderId("ORDER-501");
  await lab.send({ orderId, copies: COPIES, deduplicationId: orderId });
};

/**
 * Content-based: the queue hashes the body. Nine retries send it byte for byte; one retry was
 * serialised again by other code and writes the amount as 150.0, not 150.00. Same order, new hash.
 */
const ninePlusOneReformatted = async (lab: Workload) => {
  const orderId = freshOrderId("ORDER-502");
  await lab.send({ orderId, copies: COPIES - 1 });
  await lab.sendBody(orderBody({ orderId }).replace("150.00", "150.0"), orderId);
};

const theOrder = ({ sent, observed }: PhaseFacts) => observed.intended[sent.orderIds[0] ?? ""];

export default scenario({
  name: "fifo-dedup",
  title: "A FIFO queue drops identical copies, not a retry that differs by one byte",
  story:
    `${COPIES} copies of one order go to a FIFO queue. With MessageDeduplicationId = orderId, ` +
    "SQS accepts all ten sends, answers each with the first copy's MessageId, and delivers one: " +
    "one charge, no guard needed. With content-based deduplication the id is the body's SHA-256: " +
    "nine identical copies are dropped, but one retry serialised the amount as 150.0 instead of " +
    "150.00, a new hash, and it is delivered and, with the guard off, charged again. The window " +
    "is five minutes (on AWS and in both emulators): a copy sent later is new too. FIFO " +
    "deduplication protects the send, not the order; the worker still needs its guard, as the " +
    "last phase shows.",
  phases: [
    phase("guard off, MessageDeduplicationId = orderId", {
      setup: { ...FIFO, guard: "off" },
      workload: tenWithTheOrderAsDedupId,
      checks: (facts) => [
        equal("sends SQS accepted", facts.sent.sends, COPIES),
        equal("messages (one MessageId for all ten)", facts.sent.messages, 1),
        equal("deliveries", eventCount(facts, "process_start"), 1),
        equal("charges", facts.observed.charges.charges, 1),
        equal("the order, exactly once", theOrder(facts)?.verdict, "exactly once"),
      ],
    }),
    phase("guard off, content-based, one retry written 150.0", {
      setup: { ...FIFO, guard: "off" },
      workload: ninePlusOneReformatted,
      checks: (facts) => [
        equal("sends SQS accepted", facts.sent.sends, COPIES),
        equal("messages (the identical nine are one)", facts.sent.messages, 2),
        equal("deliveries", eventCount(facts, "process_start"), 2),
        equal("charges", facts.observed.charges.charges, 2),
        equal("the order, charged twice", theOrder(facts)?.verdict, "duplicated"),
      ],
    }),
    phase("claim guard, content-based, the same retries", {
      setup: { ...FIFO, guard: "claim" },
      workload: ninePlusOneReformatted,
      checks: (facts) => [
        equal("messages", facts.sent.messages, 2),
        equal("the reformatted copy skipped", eventCount(facts, "skip_duplicate"), 1),
        equal("charges", facts.observed.charges.charges, 1),
        equal("the order, exactly once", theOrder(facts)?.verdict, "exactly once"),
      ],
    }),
  ],
});
