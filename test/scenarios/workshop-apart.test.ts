// A workshop lab is never touched by a scenario. An attendee keeps a lab up (`lab up`) and then
// runs `npx lab scenario` on the same emulator with the same prefix: the run must deploy a lab of
// its own beside it, leave the workshop's queues, claims and ledger as they were, and remove its
// own resources when it is done.
import { DescribeLogGroupsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { GetFunctionCommand, ListEventSourceMappingsCommand } from "@aws-sdk/client-lambda";
import { ListQueuesCommand } from "@aws-sdk/client-sqs";
import { describe, expect, inject, test } from "vitest";
import { connect } from "../../harness/aws/connection.js";
import { stopDelivering } from "../../harness/aws/switches.js";
import { labCommand, runCli, workshopEnv } from "./workshop-commands.js";

const PREFIX = "lab-apart-test";
const APART = `${PREFIX}-scenario`;
const env = workshopEnv(PREFIX);
const lab = labCommand(env);

describe("a scenario beside a workshop lab", () => {
  test("runs under a prefix of its own, leaves the workshop's counts as they were, removes what it made", async () => {
    lab("up");
    const sent = lab("send", "--order-id", "ORDER-ISO", "--copies", "3");
    expect(sent).toContain("all 3 ended");
    const before = lab("status");
    expect(before).toContain("3 charge(s)");

    // npx lab scenario guard-off, in the same room: same LAB_HOME, LAB_PREFIX and LAB_ENDPOINT.
    const run = runCli(env, ["scenario", "guard-off"], 150_000);
    expect(run.status, `scenario guard-off:\n${run.stderr}\n${run.stdout}`).toBe(0);
    expect(run.stdout).toContain("PASS guard-off");
    // Queues, claims, ledger and the last send's events: exactly as before the run.
    expect(lab("status")).toBe(before);
    expect(run.stderr).toContain(`this run uses ${APART} instead and removes it when done`);
    expect(run.stderr).not.toContain("could not delete");

    const { backend } = inject("lab");
    const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
    try {
      const { QueueUrls = [] } = await conn.sqs.send(new ListQueuesCommand({}));
      expect(QueueUrls.some((url) => url.endsWith(`/${PREFIX}`))).toBe(true); // the workshop's stays
      expect(QueueUrls.filter((url) => url.includes(APART))).toEqual([]);
      await expect(
        conn.lambda.send(new GetFunctionCommand({ FunctionName: `${APART}-worker` })),
      ).rejects.toMatchObject({ name: "ResourceNotFoundException" });
      // Gone, not listed as "Deleting": LocalStack keeps a disabled mapping it deletes that way,
      // and refuses the next run's mapping for the same function and queue.
      const { EventSourceMappings = [] } = await conn.lambda.send(
        new ListEventSourceMappingsCommand({ FunctionName: `${APART}-worker` }),
      );
      expect(EventSourceMappings.map((m) => m.State)).toEqual([]);
      const tables: string[] = [];
      let start: string | undefined;
      do {
        const page = await conn.db.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
        tables.push(...(page.TableNames ?? []));
        start = page.LastEvaluatedTableName;
      } while (start);
      expect(tables).toContain(PREFIX);
      expect(tables.filter((t) => t.startsWith(APART))).toEqual([]);
      const { logGroups = [] } = await conn.logs.send(
        new DescribeLogGroupsCommand({ logGroupNamePrefix: `/aws/lambda/${APART}` }),
      );
      expect(logGroups.map((g) => g.logGroupName)).toEqual([]);

      // A test or benchmark that runs scenarios on the workshop's own prefix leaves its mappings
      // off when it ends; the workshop's next send turns them on again and is delivered.
      const { EventSourceMappings: ours = [] } = await conn.lambda.send(
        new ListEventSourceMappingsCommand({ FunctionName: `${PREFIX}-worker` }),
      );
      await stopDelivering(
        conn,
        ours.flatMap((m) => (m.UUID ? [m.UUID] : [])),
      );
      expect(lab("send", "--order-id", "ORDER-ISO-2")).toContain("all 1 ended");
    } finally {
      conn.close();
    }
    expect(lab("down")).toContain("it is yours, so it keeps running");
  }, 240_000);
});
