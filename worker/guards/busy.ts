import { sleep } from "../time.js";

/**
 * A copy that finds another copy still charging looks again a few times, a moment apart, before
 * it hands the message back to SQS: a quick charge is usually done by then, and the copy is
 * skipped now instead of after a whole visibility timeout. A slow one is still busy: the copy
 * fails, and SQS brings it back later, as before.
 */
export const BUSY_WAIT = { tries: 3, ms: 50 } as const;

export async function retryWhileBusy<T>(
  attempt: () => Promise<T>,
  busy: (result: T) => boolean,
): Promise<T> {
  let result = await attempt();
  for (let i = 0; i < BUSY_WAIT.tries && busy(result); i++) {
    await sleep(BUSY_WAIT.ms);
    result = await attempt();
  }
  return result;
}
