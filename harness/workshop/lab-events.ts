// What the lab's log group says about the workshop's experiments: the events of the last send
// (or every send), of a window, of one order, and the last send as a report.
import { readWorkerSettings } from "../aws/switches.js";
import { gatherPhaseFacts } from "../check/gather.js";
import { LabError } from "../common/errors.js";
import { unfinished } from "../observe/deliveries.js";
import type { WorkerEvent } from "../observe/events.js";
import { deadLetterIds, readEvents } from "../observe/observe.js";
import { observationView, type ReportView } from "../report/views.js";
import type { SendRecord } from "./lab-state.js";
import type { WorkshopLab } from "./workshop.js";

/** Events of the last send (default), or of every send since `up`. */
export async function sendEvents(open: WorkshopLab, all: boolean): Promise<WorkerEvent[]> {
  const sends = labSends(open, all ? "all" : "last");
  const ids = new Set(sends.flatMap((s) => s.messages.map((m) => m.messageId)));
  const since = Math.min(...sends.map((s) => s.at)) - 5_000;
  return readEvents(open.conn, open.deployment.names.logGroup, since, ids);
}

/** Which of the lab's own sends to keep: the last `lab send`, or every one since `up`. */
export type SendsFilter = "last" | "all";

/** A stretch of the log group, by the log's timestamps (epoch ms, both ends included). */
export interface EventWindow {
  sinceMs: number;
  untilMs: number;
  /** Only the messages of the lab's own sends; without it, every message, whoever sent it. */
  sends?: SendsFilter;
}

/**
 * The worker's events in a window of the whole log group, as Logs Insights reads it: messages
 * sent by anyone (the AWS CLI, boto3, `lab send`), unless `sends` keeps only the lab's own.
 */
export async function windowEvents(open: WorkshopLab, window: EventWindow): Promise<WorkerEvent[]> {
  const ids = window.sends ? sentIds(open, window.sends) : "all";
  return readEvents(open.conn, open.deployment.names.logGroup, window.sinceMs, ids, window.untilMs);
}

/** The MessageIds of the lab's own sends. */
function sentIds(open: WorkshopLab, which: SendsFilter): Set<string> {
  return new Set(labSends(open, which).flatMap((s) => s.messages.map((m) => m.messageId)));
}

/** The last `lab send`, or every one since `up`; none yet is one line saying what to send. */
function labSends(open: WorkshopLab, which: SendsFilter): SendRecord[] {
  const sends = which === "all" ? open.state.sends : open.state.sends.slice(-1);
  if (sends.length === 0)
    throw new LabError('nothing sent yet: try "npx lab send --order-id ORDER-003 --copies 10"');
  return sends;
}

/**
 * Every event for one orderId (as the worker saw it) since `up` or `reset`, from every message in
 * the log group: copies sent with the AWS CLI belong to the order as much as `lab send`'s.
 */
export async function orderEvents(open: WorkshopLab, orderId: string): Promise<WorkerEvent[]> {
  const sinceMs = open.state.resetAt ?? open.state.upAt; // as experimentStart (lab-state.ts)
  const events = await windowEvents(open, { sinceMs, untilMs: Date.now() });
  return events.filter((e) => e.orderId === orderId);
}

/**
 * The last send as a report view, for the same reports the scenarios write. One phase with no
 * verdict and no checks: nobody said what to expect of a send, so it neither passed nor failed.
 */
export async function lastSendReport(open: WorkshopLab): Promise<ReportView> {
  const record = open.state.sends.at(-1);
  if (!record)
    throw new LabError('nothing sent yet: try "npx lab send --order-id ORDER-003 --copies 10"');
  const { conn, deployment } = open;
  const events = await sendEvents(open, false);
  const deadLettered = await deadLetterIds(conn, deployment.dlqUrl);
  const facts = await gatherPhaseFacts(conn, deployment, record.messages, events, deadLettered);
  const env = await readWorkerSettings(conn, deployment.names);
  const send = observationView(
    {
      name: `send of ${new Date(record.at).toISOString()}`,
      // What the worker runs with now; a send from this command uses no pollers.
      setup: { ...env, pollers: 0 },
      sent: facts.sent,
      observed: facts.observed,
      missing: unfinished(record.messages, events, deadLettered),
      timeline: events,
    },
    1,
    1,
  );
  return {
    scenario: "lab",
    title: "The last send",
    story: "What the worker did with the messages of the last `npx lab send`.",
    backend: open.state.backend,
    phases: [send],
  };
}
