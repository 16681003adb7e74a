// A scripted phase, step by step: every event of every copy in time order, with where the
// harness held a copy at a failpoint and when it let it go (the timeline draws the same marks),
// and where a fault at the worker's boundary lost a request or an answer.
import { type DynamoFault, parseFailpoints } from "../../contract/failpoints.js";
import type { WorkerEvent } from "../observe/events.js";

const VERBS: Record<string, string> = {
  pause: "held at",
  mark: "reached",
  crash: "crashed at",
  fail: "failed at",
  delay: "delayed at",
};

const DYNAMO_FAULTS: Record<DynamoFault["kind"], string> = {
  "lost-request": "its request lost before DynamoDB",
  "lost-answer": "DynamoDB applied it, its answer lost",
  throttled: "throttled by DynamoDB",
  slow: "slowed",
};

/** A boundary fault's line: which call, what the network did to it, on which SDK attempt. */
function faultSaid(e: Extract<WorkerEvent, { type: "fault" }>): string {
  if (e.point === "payment") return "the payment went through, its answer lost";
  const [rule] = parseFailpoints(e.rule);
  const action = rule?.point === "dynamo" ? rule.action : undefined;
  const what = action
    ? `${DYNAMO_FAULTS[action.kind]}${action.kind === "slow" ? ` ${action.ms} ms` : ""}`
    : e.rule;
  const table = rule?.point === "dynamo" && rule.table ? ` ${rule.table}` : "";
  return `${e.operation}${table}: ${what} (SDK ${e.sdkAttempt})`;
}

/** What one event says, in a few words. */
function said(e: WorkerEvent): string {
  if (e.type === "failpoint") {
    return `${VERBS[e.action] ?? `${e.action} at`} ${e.point}`;
  }
  if (e.type === "failpoint_released") return `released from ${e.point} (held ${e.heldMs} ms)`;
  if (e.type === "fault") return faultSaid(e);
  if (e.type === "process_start") return `starts (attempt ${e.attempt ?? 1})`;
  if (e.type === "process_end") return `ends: ${e.outcome}`;
  return e.type;
}

/**
 * The phase's events as lines, "+412 ms  copy 2  claim_won", for a phase that used failpoints
 * or boundary faults; none for one that did not (its timeline says it all). Copies are numbered
 * as they were sent.
 */
export function stepsView(timeline: WorkerEvent[], messageIds: string[]): string[] {
  if (!timeline.some((e) => e.type === "failpoint" || e.type === "fault")) return [];
  const t0 = Math.min(...timeline.map((e) => Date.parse(e.ts)));
  const copyOf = (messageId: string) => {
    const n = messageIds.indexOf(messageId);
    return n === -1 ? messageId.slice(0, 8) : `copy ${n + 1}`;
  };
  const width = String(Math.max(...timeline.map((e) => Date.parse(e.ts) - t0))).length + 1;
  return timeline.map(
    (e) => `${`+${Date.parse(e.ts) - t0}`.padStart(width)} ms  ${copyOf(e.messageId)}  ${said(e)}`,
  );
}
