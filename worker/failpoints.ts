// The worker's side of failpoints (contract/failpoints.ts): at(point) does nothing unless a rule
// in FAILPOINTS names this point for this copy. A paused copy writes where it is to the
// failpoints table and waits there until the harness marks that item released.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Context, SQSRecord } from "aws-lambda";
import {
  COPY_ATTRIBUTE,
  type FailpointName,
  formatRule,
  HOLD_STATE,
  holdId,
  holdPolling,
  type Passer,
  type PointRule,
  parseFailpoints,
  ruleFor,
} from "../contract/failpoints.js";
import type { WorkerConfig } from "../contract/settings.js";
import { InjectedFault } from "./injected.js";
import type { Log } from "./log.js";
import { sleep } from "./time.js";

/** A failpoint: `await at("after-claim")`. */
export type At = (point: FailpointName) => Promise<void>;

/** No rules: every point is a no-op, and no call is made. */
export const noFailpoints: At = async () => {};

/** A paused copy gives up this long before its timeout. */
const GIVE_UP_BEFORE_TIMEOUT_MS = 500;

// Its own client, not the counted one: process_end's dynamoCalls stays the guard's cost.
let control: DynamoDBDocumentClient | undefined;

export function failpoints(
  config: Pick<WorkerConfig, "failpoints" | "failpointsTable">,
  who: Passer,
  log: Log,
  context: Pick<Context, "getRemainingTimeInMillis">,
): At {
  const rules = parseFailpoints(config.failpoints);
  if (rules.length === 0) return noFailpoints;
  const remainingMs = () => context.getRemainingTimeInMillis();
  return async (point) => {
    const rule = ruleFor(rules, point, who);
    if (rule) await act(rule, config.failpointsTable, who, log, remainingMs);
  };
}

/** The copy's number, from the attribute the harness sends with every message (none from others). */
export function copyOf(record: Pick<SQSRecord, "messageAttributes">): number | undefined {
  return Number(record.messageAttributes?.[COPY_ATTRIBUTE]?.stringValue) || undefined;
}

async function act(
  rule: PointRule,
  table: string,
  who: Passer,
  log: Log,
  remainingMs: () => number,
): Promise<void> {
  control ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const id = holdId(rule.point, who);
  // The line first: its time is then before anyone can know the copy is here, so a check that
  // orders it against another copy's lines reads the order the copies really went in.
  log("failpoint", {
    point: rule.point,
    rule: formatRule(rule),
    action: rule.action.kind,
    holdId: id,
  });
  const state = await reach(control, table, id, who);
  const { action } = rule;
  if (action.kind === "crash") process.exit(1); // killed: no catch, no finally, no process_end
  if (action.kind === "fail") throw new InjectedFault(`failpoint ${rule.point}: fail`);
  if (action.kind === "delay") await sleep(action.ms);
  if (action.kind !== "pause") return;
  const started = Date.now();
  let released = state === HOLD_STATE.released; // the harness may release before the copy arrives
  const pause = holdPolling();
  while (!released && remainingMs() > GIVE_UP_BEFORE_TIMEOUT_MS) {
    await sleep(pause());
    released = (await stateOf(control, table, id)) === HOLD_STATE.released;
  }
  if (!released) throw new InjectedFault(`failpoint ${rule.point}: never released (${id})`);
  log("failpoint_released", { point: rule.point, heldMs: Date.now() - started });
}

/** Says this copy is here; a release written earlier stays a release. */
async function reach(db: DynamoDBDocumentClient, table: string, id: string, who: Passer) {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { id },
      UpdateExpression:
        "SET #state = if_not_exists(#state, :reached), messageId = :messageId, reachedAt = :now",
      ExpressionAttributeNames: { "#state": "state" },
      ExpressionAttributeValues: {
        ":reached": HOLD_STATE.reached,
        ":messageId": who.messageId,
        ":now": new Date().toISOString(),
      },
      ReturnValues: "ALL_NEW",
    }),
  );
  return Attributes?.state as string | undefined;
}

async function stateOf(db: DynamoDBDocumentClient, table: string, id: string) {
  const { Item } = await db.send(
    new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }),
  );
  return Item?.state as string | undefined;
}
