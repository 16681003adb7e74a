// The harness's side of failpoints (contract/failpoints.ts): see that a copy reached a point,
// and release a copy paused there, through the failpoints table the worker waits on.
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type FailpointName, HOLD_STATE, holdId, type Passer } from "../../contract/failpoints.js";
import type { Connection } from "../aws/connection.js";
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
const POLL_MS = 20;

export function holdAt(
  conn: Connection,
  table: string,
  point: FailpointName,
  who: Omit<Passer, "messageId"> & { messageId?: string },
): Hold {
  const id = holdId(point, { messageId: "", ...who });
  return {
    async reached(timeoutMs = REACH_TIMEOUT_MS) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { Item } = await conn.db.send(
          new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }),
        );
        if (Item?.messageId) return;
        if (Date.now() > deadline)
          throw new LabError(
            `no copy reached failpoint ${id} within ${timeoutMs / 1000} s: is the function running with FAILPOINTS set? (npx lab doctor)`,
          );
        await sleep(POLL_MS);
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
