// Invoking the worker with an empty SQS batch: it logs nothing, charges nothing, and leaves a
// warm execution environment behind. Used to start environments before a phase (so the first
// copies are not slowed by cold starts past the visibility timeout) and to ship MiniStack's
// late log lines (see observe/late-logs.ts).
import { InvokeCommand } from "@aws-sdk/client-lambda";
import type { Connection } from "../aws/connection.js";

const EMPTY_BATCH = new TextEncoder().encode(JSON.stringify({ Records: [] }));

/** `count` empty invocations at once, so each lands in an environment of its own. */
export async function invokeEmptyBatches(
  conn: Connection,
  functionName: string,
  count: number,
): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, () =>
      conn.lambda
        .send(new InvokeCommand({ FunctionName: functionName, Payload: EMPTY_BATCH }))
        .catch(() => undefined),
    ),
  );
}

/**
 * Keeps as many warm environments as copies may run at once, up to `most` (what the mapping
 * runs at once): when a send raises that number, the missing environments start before the
 * copies go, so no copy waits on a cold start. Starting them all when the settings change
 * instead would start environments most phases never use (one or two copies at a time).
 */
export function warmAhead(
  conn: Connection,
  functionName: string,
  most: number,
  alreadyWarm: number,
): (atOnce: number) => Promise<void> {
  let warm = alreadyWarm;
  return async (atOnce) => {
    const wanted = Math.min(atOnce, most);
    if (wanted <= warm) return;
    // Idle environments take the first invocations; only the missing ones start.
    await invokeEmptyBatches(conn, functionName, wanted);
    warm = wanted;
  };
}
