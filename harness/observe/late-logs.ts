// A MiniStack quirk, worked around here and nowhere else. After an invocation MiniStack waits
// only 5 ms of quiet for the function's last log lines (core/lambda_runtime.py,
// _drain_stderr_bounded); on a busy machine its reader thread can be later than that, and the
// lines wait in that warm worker until its next invocation. Invoking the function with an
// empty batch on several workers at once ships them.
import type { Connection } from "../aws/connection.js";
import { invokeEmptyBatches } from "../drive/empty-batches.js";

export const shipLateLogs = (conn: Connection, functionName: string) =>
  invokeEmptyBatches(conn, functionName, 10);
