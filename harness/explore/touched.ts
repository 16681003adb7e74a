// The keys a schedule's copies named in their DynamoDB calls: the checker reads exactly those
// items afterwards (a fresh orderId per schedule, so the tables are never scanned), and the
// charges whose answer the explorer lost, which no charge_applied line can name; and the
// requests that went around the gates, which nobody chose.
import type { ExploreTables } from "./client.js";
import type { CallInfo } from "./gates.js";

export class TouchedKeys {
  readonly chargeIds: string[] = [];
  readonly powertoolsIds: string[] = [];
  /** Charges that went through without their charge_applied line: their answer was lost. */
  readonly unlogged: string[] = [];

  constructor(private readonly tables: ExploreTables) {}

  /** A call a copy is about to make. */
  note(call: CallInfo): void {
    for (const { table, key } of call.keys) {
      if (table === this.tables.ledger) this.chargeIds.push(key);
      if (table === this.tables.powertools) this.powertoolsIds.push(key);
    }
  }

  /** A payment whose answer was lost: its ledger keys will have no charge_applied line. */
  answerLost(call: CallInfo | undefined): void {
    for (const { table, key } of call?.keys ?? []) {
      if (table === this.tables.ledger) this.unlogged.push(key);
    }
  }
}

/** A DynamoDB request a copy made that no gate saw (lambda-world.ts hears it). */
export interface WentAround {
  /** "copy 1", "copy 2 (attempt 2)" */
  who: string;
  /** "PutItem", … */
  operation: string;
}
