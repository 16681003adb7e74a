// Failpoints (docs/design.md §4.3), the idea of FreeBSD's fail(9), TiKV's fail-rs and etcd's
// gofail: named points in the worker where the harness can make a copy stop, die, fail or wait.
// Off unless FAILPOINTS names one; the worker then costs nothing more. The rules travel in the
// worker's environment; a paused copy waits on a DynamoDB item the harness flips to "released",
// so the same channel works on MiniStack, on LocalStack and on AWS.

import { pollIntervals } from "./polling.js";

/** Every point, in the order a copy passes them (a guard passes only those it has). */
export const FAILPOINT_NAMES = [
  "before-read", // naive: before it reads the claims table
  "after-read",
  "before-claim", // claim, lease, powertools: before the conditional write that reserves the order
  "after-claim",
  "before-charge", // every guard: the payment call (charge.ts), after the work
  "after-charge",
  "before-complete", // claim, naive, unfenced lease: before COMPLETED is written
  "after-complete",
  "before-end", // every copy, just before process_end
] as const;
export type FailpointName = (typeof FAILPOINT_NAMES)[number];

/**
 * pause: wait until the harness releases it (or the invocation is nearly out of time: it fails);
 * crash: the process dies there; fail: an error is thrown there; delay: wait this long;
 * mark: nothing, but the harness can see the copy got there.
 */
export type FailpointAction =
  | { kind: "pause" }
  | { kind: "crash" }
  | { kind: "fail" }
  | { kind: "mark" }
  | { kind: "delay"; ms: number };

/** Which copies a rule applies to; every given part must match. */
export interface FailpointScope {
  /** The harness numbers the messages it sends in a run 1, 2, … (the copy message attribute). */
  copy?: number;
  /** SQS's ApproximateReceiveCount: 1 on the first delivery. */
  attempt?: number;
  messageId?: string;
}

export interface FailpointRule extends FailpointScope {
  point: FailpointName;
  action: FailpointAction;
}

/** The SQS message attribute that carries a copy's number. */
export const COPY_ATTRIBUTE = "labCopy";

/** Who is passing a point: one delivery of one message. */
export interface Passer {
  copy?: number;
  attempt: number;
  messageId: string;
}

/** The first rule for this point that applies to this passer. */
export function ruleFor(
  rules: readonly FailpointRule[],
  point: FailpointName,
  who: Passer,
): FailpointRule | undefined {
  return rules.find(
    (r) =>
      r.point === point &&
      (r.copy === undefined || r.copy === who.copy) &&
      (r.attempt === undefined || r.attempt === who.attempt) &&
      (r.messageId === undefined || r.messageId === who.messageId),
  );
}

/**
 * The control item of one passer at one point: the worker writes "reached" (unless the harness
 * has already released it), the harness writes "released". By copy number where the harness
 * numbered the message, else by its messageId.
 */
export function holdId(point: FailpointName, who: Passer): string {
  const message = who.copy === undefined ? who.messageId : `copy${who.copy}`;
  return `${point}/${message}/attempt${who.attempt}`;
}

export const HOLD_STATE = { reached: "reached", released: "released" } as const;

/** How often a paused copy, and the harness waiting for one, read a hold's item: 20 ms up to 100 ms. */
export const holdPolling = () => pollIntervals(20, 100);

/**
 * FAILPOINTS, as people write it: rules separated by ";", each `point=action`, then any of
 * `@copy N`, `@attempt N`, `@message ID`, e.g. "after-claim=pause@copy1;before-charge=crash@attempt1".
 */
export function parseFailpoints(text: string | undefined): FailpointRule[] {
  if (text === undefined || text.trim() === "") return [];
  return text
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map(parseRule);
}

function parseRule(text: string): FailpointRule {
  const [head = "", ...scopes] = text.split("@").map((s) => s.trim());
  const [point = "", action = ""] = head.split("=").map((s) => s.trim());
  if (!(FAILPOINT_NAMES as readonly string[]).includes(point))
    throw new Error(
      `FAILPOINTS: "${point}" is not a failpoint; the points are ${FAILPOINT_NAMES.join(", ")}`,
    );
  const rule: FailpointRule = { point: point as FailpointName, action: parseAction(action, text) };
  for (const scope of scopes) Object.assign(rule, parseScope(scope, text));
  return rule;
}

function parseAction(text: string, rule: string): FailpointAction {
  if (text === "pause" || text === "crash" || text === "fail" || text === "mark")
    return { kind: text };
  const delay = /^delay\((\d+)\)$/.exec(text);
  if (delay) return { kind: "delay", ms: Number(delay[1]) };
  throw new Error(
    `FAILPOINTS: "${rule}" has no action; write point=pause, crash, fail, mark or delay(MS)`,
  );
}

function parseScope(text: string, rule: string): FailpointScope {
  const match = /^(copy|attempt|message)\s*(\S+)$/.exec(text);
  const number = Number(match?.[2]);
  if (match?.[1] === "message") return { messageId: match[2] as string };
  if (match && Number.isInteger(number) && number >= 1)
    return match[1] === "copy" ? { copy: number } : { attempt: number };
  throw new Error(
    `FAILPOINTS: "${rule}": "@${text}" is not a scope; write @copy N, @attempt N or @message ID`,
  );
}

/** The rules as FAILPOINTS holds them: parseFailpoints(formatFailpoints(r)) gives r back. */
export function formatFailpoints(rules: readonly FailpointRule[]): string {
  return rules.map(formatRule).join(";");
}

export function formatRule(rule: FailpointRule): string {
  const action = rule.action.kind === "delay" ? `delay(${rule.action.ms})` : rule.action.kind;
  const scope = [
    rule.copy === undefined ? "" : `@copy${rule.copy}`,
    rule.attempt === undefined ? "" : `@attempt${rule.attempt}`,
    rule.messageId === undefined ? "" : `@message ${rule.messageId}`,
  ].join("");
  return `${rule.point}=${action}${scope}`;
}
