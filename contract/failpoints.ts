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

/** A rule at one of the named points a guard passes. */
export interface PointRule extends FailpointScope {
  point: FailpointName;
  action: FailpointAction;
}

/**
 * Faults at the worker's boundary, where production loses answers: a DynamoDB call (acted out
 * inside the SDK's retry loop, so the SDK's own retries decide what follows) and the payment.
 */
export const DYNAMO_OPERATIONS = [
  "GetItem",
  "PutItem",
  "UpdateItem",
  "DeleteItem",
  "TransactWriteItems",
  "TransactGetItems",
  "Query",
  "Scan",
  "BatchGetItem",
  "BatchWriteItem",
] as const;
export type DynamoOperation = (typeof DYNAMO_OPERATIONS)[number];

/** The worker's tables as a rule names them; the worker maps them to CLAIMS_TABLE and the rest. */
export const BOUNDARY_TABLES = ["claims", "ledger", "powertools"] as const;
export type BoundaryTable = (typeof BOUNDARY_TABLES)[number];

/**
 * lost-request: never reached DynamoDB, then a retryable network error; lost-answer: DynamoDB
 * applied it, then a retryable network error instead of its answer; throttled: DynamoDB's
 * ProvisionedThroughputExceededException, nothing applied; slow: the call takes this much longer.
 */
export type DynamoFault =
  | { kind: "lost-request" }
  | { kind: "lost-answer" }
  | { kind: "throttled" }
  | { kind: "slow"; ms: number };

/** `dynamo:PutItem:claims=lost-answer`: one SDK attempt of a call, by operation and table. */
export interface DynamoFaultRule extends FailpointScope {
  point: "dynamo";
  operation: DynamoOperation;
  /** Any table when absent. */
  table?: BoundaryTable;
  action: DynamoFault;
}

/** `payment=lost-answer`: the charge is recorded, then the worker gets a timeout, not the answer. */
export interface PaymentFaultRule extends FailpointScope {
  point: "payment";
  action: { kind: "lost-answer" };
}

export type FailpointRule = PointRule | DynamoFaultRule | PaymentFaultRule;

const isPointRule = (rule: FailpointRule): rule is PointRule =>
  rule.point !== "dynamo" && rule.point !== "payment";

/** The SQS message attribute that carries a copy's number. */
export const COPY_ATTRIBUTE = "labCopy";

/** Who is passing a point: one delivery of one message. */
export interface Passer {
  copy?: number;
  attempt: number;
  messageId: string;
}

/** Whether a rule's scope names this passer. */
export const appliesTo = (rule: FailpointScope, who: Passer) =>
  (rule.copy === undefined || rule.copy === who.copy) &&
  (rule.attempt === undefined || rule.attempt === who.attempt) &&
  (rule.messageId === undefined || rule.messageId === who.messageId);

/** The first rule for this point that applies to this passer. */
export function ruleFor(
  rules: readonly FailpointRule[],
  point: FailpointName,
  who: Passer,
): PointRule | undefined {
  return rules.filter(isPointRule).find((r) => r.point === point && appliesTo(r, who));
}

/** The boundary faults that apply to this passer, in the order they were written. */
export function boundaryRulesFor(
  rules: readonly FailpointRule[],
  who: Passer,
): (DynamoFaultRule | PaymentFaultRule)[] {
  return rules.filter(
    (r): r is DynamoFaultRule | PaymentFaultRule => !isPointRule(r) && appliesTo(r, who),
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
 * The boundary's points are `dynamo:OPERATION[:TABLE]` and `payment`, e.g.
 * "dynamo:PutItem:claims=lost-answer@copy1@attempt1;payment=lost-answer@copy1".
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
  const rule = parsePoint(point, action, text);
  for (const scope of scopes) Object.assign(rule, parseScope(scope, text));
  return rule;
}

function parsePoint(point: string, action: string, text: string): FailpointRule {
  if (point === "payment") {
    if (action === "lost-answer") return { point, action: { kind: action } };
    throw new Error(`FAILPOINTS: "${text}": the payment's action is lost-answer`);
  }
  if (point === "dynamo" || point.startsWith("dynamo:")) return parseDynamo(point, action, text);
  if ((FAILPOINT_NAMES as readonly string[]).includes(point))
    return { point: point as FailpointName, action: parseAction(action, text) };
  throw new Error(
    `FAILPOINTS: "${point}" is not a failpoint; the points are ${FAILPOINT_NAMES.join(", ")}, dynamo:OPERATION[:TABLE] and payment`,
  );
}

function parseDynamo(point: string, action: string, text: string): DynamoFaultRule {
  const [, operation = "", table, ...rest] = point.split(":");
  if (!(DYNAMO_OPERATIONS as readonly string[]).includes(operation) || rest.length > 0)
    throw new Error(
      `FAILPOINTS: "${text}": write dynamo:OPERATION or dynamo:OPERATION:TABLE, the operation one of ${DYNAMO_OPERATIONS.join(", ")}`,
    );
  if (table !== undefined && !(BOUNDARY_TABLES as readonly string[]).includes(table))
    throw new Error(
      `FAILPOINTS: "${text}": "${table}" is not a table; write ${BOUNDARY_TABLES.join(", ")}`,
    );
  return {
    point: "dynamo",
    operation: operation as DynamoOperation,
    ...(table === undefined ? {} : { table: table as BoundaryTable }),
    action: parseDynamoFault(action, text),
  };
}

function parseDynamoFault(text: string, rule: string): DynamoFault {
  if (text === "lost-request" || text === "lost-answer" || text === "throttled")
    return { kind: text };
  const slow = /^slow\((\d+)\)$/.exec(text);
  if (slow) return { kind: "slow", ms: Number(slow[1]) };
  throw new Error(
    `FAILPOINTS: "${rule}": a DynamoDB call's action is lost-request, lost-answer, throttled or slow(MS)`,
  );
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
  const { action: a } = rule;
  const action =
    a.kind === "delay" ? `delay(${a.ms})` : a.kind === "slow" ? `slow(${a.ms})` : a.kind;
  const point =
    rule.point === "dynamo"
      ? ["dynamo", rule.operation, ...(rule.table === undefined ? [] : [rule.table])].join(":")
      : rule.point;
  const scope = [
    rule.copy === undefined ? "" : `@copy${rule.copy}`,
    rule.attempt === undefined ? "" : `@attempt${rule.attempt}`,
    rule.messageId === undefined ? "" : `@message ${rule.messageId}`,
  ].join("");
  return `${point}=${action}${scope}`;
}
