// What the lab can see after a run: the worker's events for the messages it sent (from
// CloudWatch Logs), the claims table, the charges ledger, and the queue and DLQ depth.
import { FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { GetQueueAttributesCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import type { ClaimRecord as Claim } from "../../contract/claims.js";
import type { LedgerItem } from "../../contract/ledger.js";
import { pollIntervals } from "../../contract/polling.js";
import type { Connection } from "../aws/connection.js";
import type { Deployment } from "../aws/deploy.js";
import { scanAll } from "../aws/scan.js";
import { sleep } from "../common/sleep.js";
import type { SentMessage } from "../drive/send.js";
import {
  invocationsIn,
  lastDeliveryLogged,
  stillRunning,
  type Unfinished,
  unfinished,
} from "./deliveries.js";
import { byTime, parseEvent, type WorkerEvent } from "./events.js";

/**
 * The worker's events logged from `sinceMs` (and up to `untilMs`, both included, by the log's
 * own timestamps as Logs Insights reads them), oldest first: for these message ids, or for
 * every message in the log group ("all"), whoever sent it.
 */
export async function readEvents(
  conn: Connection,
  logGroup: string,
  sinceMs: number,
  messageIds: ReadonlySet<string> | "all",
  untilMs?: number,
): Promise<WorkerEvent[]> {
  const events: WorkerEvent[] = [];
  const seen = new Set<string>();
  const wanted = (event: WorkerEvent) => messageIds === "all" || messageIds.has(event.messageId);
  // Checked here too: an emulator that ignored startTime or endTime must not widen the window.
  const inWindow = (timestamp: number) =>
    timestamp >= sinceMs && (untilMs === undefined || timestamp <= untilMs);
  let startTime = sinceMs;
  for (;;) {
    let nextToken: string | undefined;
    let returned = 0;
    let latest = startTime;
    do {
      const page = await conn.logs.send(
        new FilterLogEventsCommand({
          logGroupName: logGroup,
          startTime,
          ...(untilMs === undefined ? {} : { endTime: untilMs }),
          nextToken,
          limit: PAGE,
        }),
      );
      for (const { eventId, timestamp = 0, logStreamName, message } of page.events ?? []) {
        returned += 1;
        latest = Math.max(latest, timestamp);
        const key = eventId ?? `${logStreamName}/${timestamp}/${message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const event = message ? parseEvent(message) : undefined;
        if (event && wanted(event) && inWindow(timestamp)) events.push(event);
      }
      nextToken = page.nextToken;
    } while (nextToken);
    // MiniStack stops at `limit` lines without a nextToken: ask again from the last line's time.
    if (returned < PAGE || latest === startTime) break;
    startTime = latest;
  }
  return byTime(events);
}

const PAGE = 10_000;

export const readClaims = (conn: Connection, table: string) =>
  scanAll<Claim>(conn, table).then((claims) =>
    claims.sort((a, b) => a.orderId.localeCompare(b.orderId)),
  );

export const readLedger = (conn: Connection, table: string) => scanAll<LedgerItem>(conn, table);

export interface QueueDepth {
  visible: number;
  inFlight: number;
}

export async function queueDepth(conn: Connection, queueUrl: string): Promise<QueueDepth> {
  const { Attributes = {} } = await conn.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages ?? 0),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
  };
}

const queueIsEmpty = (conn: Connection, queueUrl: string) =>
  queueDepth(conn, queueUrl).then((depth) => depth.visible + depth.inFlight === 0);

/** The MessageIds waiting in the dead-letter queue, read without taking them out. */
export async function deadLetterIds(conn: Connection, dlqUrl: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let attempt = 0; attempt < 5; attempt++) {
    const { Messages = [] } = await conn.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlqUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 0,
        WaitTimeSeconds: 0,
      }),
    );
    const before = ids.size;
    for (const m of Messages) if (m.MessageId) ids.add(m.MessageId);
    if (Messages.length === 0 || ids.size === before) break;
  }
  return ids;
}

/** The ledger holds no charge of these messages whose charge_applied line has not been read yet. */
async function everyChargeLogged(
  conn: Connection,
  ledgerTable: string | undefined,
  ids: ReadonlySet<string>,
  events: WorkerEvent[],
): Promise<boolean> {
  if (!ledgerTable) return true;
  const charged = (await readLedger(conn, ledgerTable)).filter((item) => ids.has(item.messageId));
  const logged = events.filter((e) => e.type === "charge_applied").length;
  return charged.length <= logged;
}

export interface WaitResult {
  events: WorkerEvent[];
  deadLettered: Set<string>;
  missing: Unfinished[];
  waitedMs: number;
  /** How often late log lines had to be shipped by hand (MiniStack only). */
  nudges: number;
}

/** Polls until every sent message has ended, or the timeout passes; then says what is missing. */
export async function waitUntilEnded(
  conn: Connection,
  deployment: Deployment,
  sent: SentMessage[],
  options: {
    sinceMs: number;
    timeoutMs: number;
    /** Called when the queue is empty but log lines are still missing (see late-logs.ts). */
    shipLateLogs?: () => Promise<void>;
    /** Told how many of the sent messages have ended, each time that number changes. */
    onProgress?: (ended: number, total: number) => void;
    /**
     * Also wait until every invocation that started has ended. Not where copies crash: a killed
     * process never logs its end.
     */
    everyInvocationEnds?: boolean;
    /**
     * With everyInvocationEnds: an invocation whose process_start is older than this (the
     * function timeout, and a margin) and that logged no process_end timed out, and is not
     * waited for (a guard file that never returns).
     */
    timedOutAfterMs?: number;
    /** Also wait until the log shows this many invocations (the harness pollers made them). */
    invocations?: number;
    /**
     * Also wait until every charge in this ledger table for these messages has its
     * charge_applied line: an emulator may ship an invocation's lines after the message ended.
     */
    ledgerTable?: string;
    /**
     * The redrive policy's maxReceiveCount: a dead-lettered message was delivered this many
     * times, and has ended only when the log shows that last delivery (an emulator may move it
     * to the DLQ before it ships that invocation's lines).
     */
    deliveriesBeforeDlq?: number;
    /**
     * Also wait until the queue holds nothing, visible or in flight. Only an acknowledgement with the latest
     * receipt handle removes a message: one whose run (from receive to acknowledgement)
     * outlived the visibility timeout was delivered again meanwhile, and that delivery still
     * counts. Only where the queue is the run's alone (a phase, after its reset).
     */
    queueEmpties?: boolean;
  },
): Promise<WaitResult> {
  const started = Date.now();
  const ids = new Set(sent.map((m) => m.messageId));
  let seen = 0;
  let nudges = 0;
  let lastProgress = Date.now();
  // Five looks a second while lines come in; fewer while nothing happens (a retry's wait). Each
  // look reads the phase's lines again, here and in the emulator: at ten a second the MiniStack
  // suite used 210-213 s of CPU on 2 cores and took 124 s; at five, 191-198 s and 115-118 s.
  // Three a second saved no more CPU.
  const quickly = () => pollIntervals(200, 800);
  let pause = quickly();
  for (;;) {
    const events = await readEvents(conn, deployment.names.logGroup, options.sinceMs, ids);
    // Only a message the worker has not acknowledged can be in the dead-letter queue. One that
    // failed or crashed every time (a crash logs no process_end at all) may be there.
    const notAcknowledged = unfinished(sent, events, new Set());
    const deadLettered =
      notAcknowledged.length > 0 ? await deadLetterIds(conn, deployment.dlqUrl) : new Set<string>();
    const missing = unfinished(
      sent,
      events,
      lastDeliveryLogged(deadLettered, events, options.deliveriesBeforeDlq),
    );
    const waitedMs = Date.now() - started;
    const timedOut =
      options.timedOutAfterMs === undefined
        ? undefined
        : { afterMs: options.timedOutAfterMs, nowMs: Date.now() };
    const running = options.everyInvocationEnds ? stillRunning(events, timedOut) : 0;
    const unseen = (options.invocations ?? 0) - invocationsIn(events);
    const settled =
      missing.length === 0 &&
      running === 0 &&
      unseen <= 0 &&
      (await everyChargeLogged(conn, options.ledgerTable, ids, events)) &&
      (!options.queueEmpties || (await queueIsEmpty(conn, deployment.queueUrl)));
    if (settled || waitedMs >= options.timeoutMs) {
      return { events, deadLettered, missing, waitedMs, nudges };
    }
    if (events.length !== seen) {
      seen = events.length;
      options.onProgress?.(sent.length - missing.length, sent.length);
      lastProgress = Date.now();
      pause = quickly();
    } else if (options.shipLateLogs && Date.now() - lastProgress > 1_000) {
      // Nothing left to deliver, yet lines are missing: they are stuck in the emulator, not lost.
      if (await queueIsEmpty(conn, deployment.queueUrl)) {
        await options.shipLateLogs();
        nudges++;
      }
      lastProgress = Date.now();
    }
    await sleep(pause());
  }
}
