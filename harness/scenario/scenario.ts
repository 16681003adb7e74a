// The shape of a scenario (docs/design.md §6), in Jepsen's terms: the workload is the generator,
// the setup (guard, fault, pollers) the nemesis, the checks the checker. Kept apart so a
// scenario file reads as a story: what happens, and what must be true afterwards.
import type { FailpointName } from "../../contract/failpoints.js";
import type { GuardChoice, WorkerSettings } from "../../contract/settings.js";
import type { TokenRetryAnswer } from "../aws/transaction-token.js";
import type { Cell, Check, PhaseFacts } from "../check/facts.js";
import type { Hold } from "../drive/failpoints.js";
import type { OrderInput } from "../drive/order-body.js";
import type { Delivery } from "../drive/prepare.js";
import type { SentMessage } from "../drive/send.js";

/**
 * A phase's settings: a guard (of the lab, or a guard file's name when the lab was deployed
 * with that file), whatever it changes from the defaults, and how it is delivered.
 */
export type PhaseSetup = Partial<WorkerSettings> &
  Partial<Delivery> & {
    guard: GuardChoice;
  };

/** What a workload can do: send copies, and wait for what it sent to finish. */
export interface Workload {
  /** How long each of this phase's invocations may run: its own clock, scaled to the backend. */
  functionTimeoutMs: number;
  /**
   * Copies of an order. On a FIFO phase each is sent in the order's message group, with
   * deduplicationId if given (else the queue deduplicates by content); a copy SQS dropped as a
   * duplicate comes back with the first copy's MessageId, and is remembered once.
   */
  send(
    order: OrderInput & { copies?: number; mangled?: boolean; deduplicationId?: string },
  ): Promise<SentMessage[]>;
  sendBodyFile(file: string, copies?: number): Promise<SentMessage[]>;
  /** One message with exactly this body (any text SQS accepts), meant as this order. */
  sendBody(body: string, intendedOrderId: string): Promise<SentMessage[]>;
  /** Waits until every message sent so far has ended: for workloads that happen in steps. */
  settle(): Promise<void>;
  /**
   * Waits this long: only for a lesson's own clock (a lease or a record running out), never
   * for an ordering of copies (use `at`).
   */
  pause(ms: number): Promise<void>;
  /**
   * Runs these sends with the mapping paused, so it finds them all in the queue and hands them
   * over as one batch (MiniStack's poller would wake at the first message and split them).
   */
  sendTogether(sends: () => Promise<unknown>): Promise<void>;
  /**
   * Copy N (the Nth message this phase sent) at a failpoint, on its first delivery unless
   * `attempt` says: wait until it got there, and release it if the phase's FAILPOINTS pause it.
   */
  at(point: FailpointName, copy: number, attempt?: number): Hold;
  /**
   * What the emulator answers a TransactWriteItems sent again with its ClientRequestToken, as
   * the SDK's retry after a lost answer sends it (asked once per run): for a lesson that needs it.
   */
  transactionTokenRetry(): Promise<TokenRetryAnswer>;
}

export interface Phase {
  name: string;
  setup: PhaseSetup;
  workload: (lab: Workload) => Promise<unknown>;
  checks: (facts: PhaseFacts) => Check[];
  /** For matrix scenarios: where this phase sits, and how to judge what it measured. */
  cell?: {
    row: string;
    column: string;
    judge: (facts: PhaseFacts) => Omit<Cell, "row" | "column">;
  };
  /** How long to wait for every message to end before reporting what is missing. */
  timeoutMs?: number;
  /**
   * The guard is someone's own (a guard file, graded): it may never return. An invocation that
   * started longer ago than the function timeout and logged no end was killed by Lambda, and the
   * wait stops waiting for its end (a lab guard always ends, so no other phase sets this).
   */
  guardMayHang?: boolean;
}

export interface Scenario {
  name: string;
  title: string;
  /** What to look at and why, in a few sentences an instructor can read aloud. */
  story: string;
  phases: Phase[];
}

export const scenario = (definition: Scenario): Scenario => definition;
export const phase = (name: string, definition: Omit<Phase, "name">): Phase => ({
  name,
  ...definition,
});

// Scenario files import everything from here: the DSL above and the checker's vocabulary.
export {
  atLeast,
  claimsAre,
  equal,
  eventCount,
  greaterThan,
  oneOf,
  oneOrderEnded,
} from "../check/checks.js";
export type { Cell, Check, Observed, PhaseFacts } from "../check/facts.js";
