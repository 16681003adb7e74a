// What a phase's workload can do (the Workload of scenario.ts), bound to one lab: every send
// goes to the phase's queue and is remembered, so the phase can wait for it and check it.
import type { Connection } from "../aws/connection.js";
import type { Deployment } from "../aws/deploy.js";
import { setMappingEnabled } from "../aws/switches.js";
import type { PhaseClocks } from "../aws/timings.js";
import { transactionTokenRetry } from "../aws/transaction-token.js";
import { sleep } from "../common/sleep.js";
import { holdAt } from "../drive/failpoints.js";
import { mangleLikePowerShell, orderBody, readBodyFile } from "../drive/order-body.js";
import type { PollerStats } from "../drive/pollers.js";
import { type FifoSend, type SentMessage, sendCopies } from "../drive/send.js";
import { readEvents, waitUntilEnded } from "../observe/observe.js";
import type { PhaseResult } from "./result.js";
import type { Workload } from "./scenario.js";

export interface BoundWorkload {
  workload: Workload;
  /** Each message SQS accepted as new, once. */
  sent: SentMessage[];
  /** SendMessage calls SQS accepted, duplicates it dropped included. */
  sends: () => number;
}

export function bindWorkload(
  conn: Connection,
  deployment: Deployment,
  setup: PhaseResult["setup"],
  clocks: PhaseClocks,
  waitOptions: Parameters<typeof waitUntilEnded>[3],
  warmFor: (atOnce: number) => Promise<void>,
  pollerStats?: () => PollerStats,
): BoundWorkload {
  const sent: SentMessage[] = [];
  const known = new Set<string>();
  let sends = 0;
  // Copies sent since the last settle (or the start): they may all run at once.
  let unsettled = 0;
  const fifo = setup.queue === "fifo";
  const sendAndRemember = async (
    message: { body: string; intendedOrderId: string },
    copies: number,
    deduplicationId?: string,
  ) => {
    const group: FifoSend | undefined = fifo
      ? { groupId: message.intendedOrderId, deduplicationId }
      : undefined;
    unsettled += copies;
    await warmFor(Math.ceil(unsettled / (setup.batchSize ?? 1)));
    const firstCopy = sends + 1;
    const batch = await sendCopies(
      conn,
      deployment.queueUrl,
      message,
      copies,
      () => {},
      group,
      firstCopy,
    );
    sends += batch.length;
    // A FIFO queue answers a copy it dropped with the first copy's MessageId.
    for (const one of batch) {
      if (known.has(one.messageId)) continue;
      known.add(one.messageId);
      sent.push(one);
    }
    return batch;
  };
  const workload: Workload = {
    functionTimeoutMs: clocks.functionTimeoutSeconds * 1000,
    send: ({ copies = 1, mangled = false, deduplicationId, ...order }) => {
      const body = orderBody(order);
      return sendAndRemember(
        { body: mangled ? mangleLikePowerShell(body) : body, intendedOrderId: order.orderId },
        copies,
        deduplicationId,
      );
    },
    sendBodyFile: (file, copies = 1) => sendAndRemember(readBodyFile(file), copies),
    sendBody: (body, intendedOrderId) => sendAndRemember({ body, intendedOrderId }, 1),
    settle: async () => {
      await waitUntilEnded(conn, deployment, sent, waitOptions);
      unsettled = 0;
    },
    pause: (ms) => sleep(ms),
    at: (point, copy, attempt = 1) =>
      holdAt(conn, deployment.names.failpointsTable, point, { copy, attempt }, async () => [
        ...(await copiesSoFar(conn, deployment, sent, waitOptions.sinceMs)),
        ...(pollerStats ? [`pollers: ${JSON.stringify(pollerStats())}`] : []),
      ]),
    transactionTokenRetry: () => transactionTokenRetry(conn),
    sendTogether: async (sendAll) => {
      const viaMapping = setup.pollers === 0;
      if (viaMapping) await setMappingEnabled(conn, deployment.mappingId, false);
      try {
        await sendAll();
      } finally {
        if (viaMapping) await setMappingEnabled(conn, deployment.mappingId, true);
      }
    },
  };
  return { workload, sent, sends: () => sends };
}

/**
 * Each copy sent so far and what the log says of it, for a hold that never saw its copy arrive.
 * The log may lag (MiniStack writes an invocation's lines when it returns): "nothing logged yet"
 * can mean still running.
 */
async function copiesSoFar(
  conn: Connection,
  deployment: Deployment,
  sent: SentMessage[],
  sinceMs: number,
): Promise<string[]> {
  const ids = new Set(sent.map((m) => m.messageId));
  const events = await readEvents(conn, deployment.names.logGroup, sinceMs, ids);
  return sent.map((m) => {
    const mine = events.filter((e) => e.messageId === m.messageId);
    const said = mine.map(
      (e) =>
        e.type +
        (e.type === "process_start" ? ` attempt ${e.attempt}` : "") +
        (e.type === "failpoint" || e.type === "failpoint_released" ? ` at ${e.point}` : ""),
    );
    const what = said.length ? said.join(", ") : "nothing logged yet";
    return `copy ${m.copy ?? "?"} (${m.messageId}): ${what}`;
  });
}
