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
