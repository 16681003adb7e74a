// The checker: once every copy and every retry has ended, was the order charged exactly once, and
// is nothing left holding it? Read from the tables, not from what the copies said; the log lines
// must agree with the ledger (every charge_applied has its item, every item its line), or the
// explorer itself is wrong.
import { CLAIM_STATUS, type ClaimRecord } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import type { WorkerEvent } from "../observe/events.js";
import type { FailureKind } from "./guards.js";

/** Powertools' in-progress status (its record's `status`). */
const INPROGRESS = "INPROGRESS";

/** What the tables hold for one order once its schedule is over. */
export interface EndState {
  /** The ledger items of the order: one per charge. */
  ledger: LedgerItem[];
  claim: ClaimRecord | undefined;
  /** Powertools' records of the order (its key is a hash of the orderId). */
  powertools: { status?: string }[];
  /** Messages that ended in the dead-letter queue. */
  deadLettered: number;
}

export interface Verdict {
  /** Empty: exactly once, and nothing left behind. */
  kinds: FailureKind[];
  charges: number;
  /** What happened to the order, in a few words. */
  said: string;
}

/** `unlogged`: charges whose answer the explorer lost, so no charge_applied line says them. */
export function judge(end: EndState, events: WorkerEvent[], unlogged: string[] = []): Verdict {
  agreeWithLog(end.ledger, events, unlogged);
  const charges = end.ledger.length;
  const kinds: FailureKind[] = [];
  const said: string[] = [];
  if (charges > 1) {
    kinds.push("duplicated");
    said.push(`charged ${charges} times`);
  } else if (charges === 0) {
    // Never charged: silently, or with a message waiting in the dead-letter queue for a person.
    kinds.push(end.deadLettered > 0 ? "dead-lettered" : "lost");
    said.push("never charged");
  } else said.push("charged once");
  // Left claimed with no copy left to finish it: every later copy is skipped (claim) or waits.
  if (end.claim?.status === CLAIM_STATUS.claimed) {
    kinds.push("stuck");
    said.push(`CLAIMED left by ${end.claim.messageId}`);
  }
  if (end.powertools.some((r) => r.status === INPROGRESS)) {
    kinds.push("stuck");
    said.push("INPROGRESS left");
  }
  if (end.deadLettered > 0) said.push(`${end.deadLettered} dead-lettered`);
  return { kinds, charges, said: said.join(", ") };
}

/** Every charge the log says was applied is in the ledger, and nothing else is. */
function agreeWithLog(ledger: LedgerItem[], events: WorkerEvent[], unlogged: string[]): void {
  const logged = events
    .filter((e) => e.type === "charge_applied")
    .map((e) => String(e.chargeId))
    .sort();
  const stored = ledger
    .map((item) => item.chargeId)
    .filter((id) => !unlogged.includes(id))
    .sort();
  if (logged.join() !== stored.join()) {
    throw new Error(
      `the explorer lost track: charge_applied lines [${logged.join(", ")}] but ledger items [${stored.join(", ")}]`,
    );
  }
}
