// The harness's side of failpoints (contract/failpoints.ts): see that a copy reached a point,
// and release a copy paused there, through the failpoints table the worker waits on.
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  type FailpointName,
  HOLD_STATE,
  holdId,
  holdPolling,
  type Passer,
} from "../../contract/failpoints.js";
import type { Connection } from "../aws/connection.js";
import { scanAll } from "../aws/scan.js";
import { LabError } from "../common/errors.js";
import { sleep } from "../common/sleep.js";

/** One copy at one point: has it got there, and let it go on. */
export interface Hold {
  /** Resolves once the copy is at the point (paused there, if its rule pauses). */
  reached(timeoutMs?: number): Promise<void>;
  /** Lets a paused copy go on; released before it arrives, it will not stop there. */
  release(): Promise<void>;
}

/** Long enough for a loaded machine to hand a message over; a lab that takes longer is stuck. */
export const REACH_TIMEOUT_MS = 20_000;

/** What the run can say about its copies when one never reached its point (logs, pollers). */
export type Explain = () => Promise<string[]>;

export function holdAt(
  conn: Connection,
  table: string,
  point: FailpointName,
  who: Omit<Passer, "messageId"> & { messageId?: string },
  explain: Explain = async () => [],
): Hold {
  const id = holdId(point, { messageId: "", ...who });
  return {
    async reached(timeoutMs = REACH_TIMEOUT_MS) {
      const deadline = Date.now() + timeoutMs;
      const pause = holdPolling();
      for (;;) {
        const { Item } = await conn.db.send(
          new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }),
        );
        if (Item?.messageId) return;
        if (Date.now() > deadline) {
          const seen = await whatArrived(conn, table, explain);
          throw new LabError(
            `no copy reached failpoint ${id} within ${timeoutMs / 1000} s: is the function running with FAILPOINTS set? (npx lab doctor)\n${seen}`,
          );
        }
        await sleep(pause());
      }
    },
    async release() {
      await conn.db.send(
        new UpdateCommand({
          TableName: table,
          Key: { id },
          UpdateExpression: "SET #state = :released, releasedAt = :now",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: {
            ":released": HOLD_STATE.released,
            ":now": new Date().toISOString(),
          },
        }),
      );
    },
  };
}

/**
 * Why a wait for a point ran out, in the words of what did happen: the control items the copies
 * wrote (the table is emptied before each phase, so these are this phase's), and what the run
 * knows of each copy. Best effort: a failing read is said, not thrown.
 */
async function whatArrived(conn: Connection, table: string, explain: Explain): Promise<string> {
  const lines: string[] = [];
  try {
    const items = await scanAll<Record<string, unknown>>(conn, table);
    const described = items
      .map((i) => `${String(i.id)} ${String(i.state)} (${String(i.messageId ?? "no message")})`)
      .sort();
    lines.push(`  failpoints table: ${described.length ? described.join("; ") : "empty"}`);
  } catch (err) {
    lines.push(`  failpoints table: unreadable (${(err as Error).message})`);
  }
  try {
    lines.push(...(await explain()).map((line) => `  ${line}`));
  } catch (err) {
    lines.push(`  copies: unreadable (${(err as Error).message})`);
  }
  return lines.join("\n");
}
