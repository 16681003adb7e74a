// `lab insights` reads the log group the way Logs Insights does: every message the worker
// handled in a window of time, whoever sent it. Here some copies are sent as the article sent
// them, with the AWS CLI (a plain SQS client, not `lab send`), and must be counted; --sends
// keeps only the lab's own sends, and --until / --since cut the window between two sends.
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { describe, expect, inject, test } from "vitest";
import { connect } from "../../harness/aws/connection.js";
import { locateDeployment } from "../../harness/aws/locate.js";
import { labNames } from "../../harness/aws/names.js";
import { profileOf } from "../../harness/backends/emulators.js";
import { labRegion } from "../../harness/common/region.js";
import type { SentMessage } from "../../harness/drive/send.js";
import { shipLateLogs } from "../../harness/observe/late-logs.js";
import { waitUntilEnded } from "../../harness/observe/observe.js";
import { labCommand, runCli, workshopEnv } from "./workshop-commands.js";

const PREFIX = "lab-insights-test";
const env = workshopEnv(PREFIX);
const lab = labCommand(env);

/** The first line (what the views cover), and the counts the views print. */
const read = (output: string) => ({
  heading: output.split("\n")[0] ?? "",
  charges: /│ charge_applied\s+│ (\d+)\s+│/.exec(output)?.[1],
  chargesOrdersMessages: /│ charges │ orders │ messages │\n│ (\d+)\s+│ (\d+)\s+│ (\d+)\s+│/
    .exec(output)
    ?.slice(1, 4)
    .join("/"),
  timelines: [...output.matchAll(/^3\. Timeline of (\S+)$/gm)].map((m) => m[1]),
});

/** Sends copies as `aws sqs send-message` does: a client of its own, nothing of the harness. */
async function sendLikeTheAwsCli(orderId: string, copies: number): Promise<SentMessage[]> {
  const { backend } = inject("lab");
  const sqs = new SQSClient({
    endpoint: backend.endpoint,
    region: labRegion(),
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  try {
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: PREFIX }));
    const body = JSON.stringify({ orderId, customerId: "CUSTOMER-CLI", amount: 42 });
    const sent: SentMessage[] = [];
    for (let i = 0; i < copies; i++) {
      const { MessageId } = await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
      if (!MessageId) throw new Error("SendMessage returned no MessageId");
      sent.push({ messageId: MessageId, body, intendedOrderId: orderId });
    }
    return sent;
  } finally {
    sqs.destroy();
  }
}

/** Waits until the worker has ended these messages and their lines are in the log group. */
async function waitForTheWorker(sent: SentMessage[], sinceMs: number): Promise<void> {
  const { backend } = inject("lab");
  const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
  try {
    const deployment = await locateDeployment(conn, labNames(PREFIX));
    const waited = await waitUntilEnded(conn, deployment, sent, {
      sinceMs,
      timeoutMs: 60_000,
      everyInvocationEnds: true,
      ledgerTable: deployment.names.ledgerTable,
      ...(profileOf(backend).lateLogs
        ? { shipLateLogs: () => shipLateLogs(conn, deployment.names.functionName) }
        : {}),
    });
    expect(waited.missing).toEqual([]);
  } finally {
    conn.close();
  }
}

describe("lab insights over the log group", () => {
  test("counts what the AWS CLI sent; --sends last does not; --until and --since cut between two sends; reset starts anew", async () => {
    lab("up");
    expect(lab("send", "--order-id", "ORDER-LAB", "--copies", "2")).toContain("all 2 ended");
    // Every line of the lab's send is in the log group by now (send waited for it).
    const between = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const cli = await sendLikeTheAwsCli("ORDER-CLI", 3);
    await waitForTheWorker(cli, between);

    const every = read(lab("insights"));
    expect(every.heading).toMatch(
      new RegExp(
        `^log group /aws/lambda/${PREFIX}-worker: \\d\\d:\\d\\d:\\d\\d \\(up\\) to \\d\\d:\\d\\d:\\d\\d \\(now\\), every message \\(5 messages, \\d+ events\\)$`,
      ),
    );
    expect(every.charges).toBe("5");
    expect(every.chargesOrdersMessages).toBe("5/2/5");
    expect(every.timelines).toEqual(["ORDER-LAB", "ORDER-CLI"]);

    const lastSend = read(lab("insights", "--sends", "last"));
    expect(lastSend.heading).toContain(", the last lab send (2 messages,");
    expect(lastSend.charges).toBe("2");
    expect(lastSend.chargesOrdersMessages).toBe("2/1/2");
    expect(lastSend.timelines).toEqual(["ORDER-LAB"]);
    // The old flag still works, as --sends all.
    const oldFlag = read(lab("insights", "--all"));
    expect(oldFlag.heading).toContain(", every lab send since up (2 messages,");
    expect(oldFlag.chargesOrdersMessages).toBe("2/1/2");

    const first = read(lab("insights", "--until", new Date(between).toISOString()));
    expect(first.heading).toContain(", every message (2 messages,");
    expect(first.chargesOrdersMessages).toBe("2/1/2");
    expect(first.timelines).toEqual(["ORDER-LAB"]);
    const second = read(lab("insights", "--since", new Date(between).toISOString()));
    expect(second.heading).toContain(", every message (3 messages,");
    expect(second.chargesOrdersMessages).toBe("3/1/3");
    expect(second.timelines).toEqual(["ORDER-CLI"]);

    // One order's timeline since up sees the AWS CLI's copies too.
    const logs = lab("logs", "--order-id", "ORDER-CLI");
    expect(logs.match(/│ charge_applied /g)).toHaveLength(3);
    for (const { messageId } of cli) expect(logs).toContain(messageId.slice(0, 8));

    // lab reset starts a new experiment: insights and logs read from it on, the heading says so.
    lab("reset");
    expect(lab("send", "--order-id", "ORDER-AFTER", "--copies", "1")).toContain("all 1 ended");
    const afterReset = read(lab("insights"));
    expect(afterReset.heading).toMatch(
      / \d\d:\d\d:\d\d \(reset\) to \d\d:\d\d:\d\d \(now\), every message \(1 message, \d+ events\)$/,
    );
    expect(afterReset.chargesOrdersMessages).toBe("1/1/1");
    expect(afterReset.timelines).toEqual(["ORDER-AFTER"]);
    const before = runCli(env, ["logs", "--order-id", "ORDER-CLI"]);
    expect(before.status).toBe(3); // its copies came before the reset
    expect(before.stderr).toContain("no events for ORDER-CLI yet");

    expect(lab("down")).toContain("it is yours, so it keeps running");
  }, 180_000);
});
