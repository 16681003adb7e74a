// The checker: once every copy and every retry has ended, was the order charged exactly once, and
// is nothing left holding it? Read from the tables, not from what the copies said. Where the log
// lines and the ledger disagree (a charge_applied without its item, an item without its line),
// the ledger is what the provider holds: the verdict counts it, and the disagreement is kept as
// a finding of its own, since a guard may record its charge under a key it chose.
import { CLAIM_STATUS, type ClaimRecord } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import type { FailureKind } from "../check/failures.js";
import type { WorkerEvent } from "../observe/events.js";

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

/** chargeIds the log and the ledger do not agree on. */
export interface LogDisagreement {
  /** charge_applied lines whose chargeId no ledger item has. */
  loggedOnly: string[];
  /** Ledger items of the order that no charge_applied line names. */
  recordedOnly: string[];
}

export interface Verdict {
  /** Empty: exactly once, and nothing left behind. */
  kinds: FailureKind[];
  /** Set when what the copies logged is not what the ledger holds. */
  disagreement?: LogDisagreement;
  charges: number;
  /** What happened to the order, in a few words. */
  said: string;
}

/** `unlogged`: charges whose answer the explorer lost, so no charge_applied line says them. */
export function judge(end: EndState, events: WorkerEvent[], unlogged: string[] = []): Verdict {
  const disagreement = disagreeing(end.ledger, events, unlogged);
  const charges = end.ledger.length;
  const kinds: FailureKind[] = [];
  const said: string[] = [];
  if (charges > 1) {
    kinds.push("doubled");
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
  return { kinds, charges, said: said.join(", "), ...(disagreement ? { disagreement } : {}) };
}

/** Where the charge_applied lines and the ledger disagree; undefined where they agree. */
function disagreeing(
  ledger: LedgerItem[],
  events: WorkerEvent[],
  unlogged: string[],
): LogDisagreement | undefined {
  const logged = new Set(
    events.filter((e) => e.type === "charge_applied").map((e) => String(e.chargeId)),
  );
  const stored = new Set(ledger.map((item) => item.chargeId));
  const loggedOnly = [...logged].filter((id) => !stored.has(id)).sort();
  const recordedOnly = [...stored].filter((id) => !logged.has(id) && !unlogged.includes(id)).sort();
  if (loggedOnly.length === 0 && recordedOnly.length === 0) return undefined;
  return { loggedOnly, recordedOnly };
}
