// `npx lab send`: copies of one order onto the queue, printed as they go, then the wait for the
// worker.
import type { Command } from "commander";
import { LabError } from "../../common/errors.js";
import { say } from "../../common/say.js";
import {
  messageToSend,
  parseAmount,
  parseCopies,
  parseOrderId,
  type SendOptions,
} from "../options.js";
import { withLab, workshop } from "../with-lab.js";

export function sendCommand(program: Command): Command {
  return program
    .command("send")
    .description("send N copies of one order, printing each body and MessageId, like send.ps1")
    .option("--order-id <id>", "the order", parseOrderId, "ORDER-003")
    .option("--copies <n>", "how many copies", parseCopies, 1)
    .option("--customer-id <id>", "the customer", "CUSTOMER-123")
    .option("--amount <amount>", "the amount", parseAmount, 150)
    .option("--body-file <file>", "send this file's content as the body (the article's fix)")
    .option("--powershell-quoting", "send the body as inline PowerShell quoting mangles it")
    .option("--no-wait", "return without waiting for the worker")
    .action((options: SendOptions, command: Command) => {
      const message = messageToSend(options, command);
      return withLab(async (open) => {
        const [{ setMappingIfNeeded }, { sendCopies }, { rememberSend, waitForSend }] =
          await Promise.all([
            import("../../aws/switches.js"),
            import("../../drive/send.js"),
            workshop(),
          ]);
        const copies = options.copies === 1 ? "1 copy" : `${options.copies} copies`;
        console.log(`sending ${copies} to ${open.deployment.names.queue}`);
        // A test or a benchmark run on this lab turns its mapping off when it ends (idle mappings
        // poll); the workshop's delivers, one record at a time.
        await setMappingIfNeeded(open.conn, open.deployment.mappingId, {
          enabled: true,
          batchSize: 1,
        });
        const sendingAt = Date.now();
        const sent = await sendCopies(
          open.conn,
          open.deployment.queueUrl,
          message,
          options.copies,
          (m, i) =>
            console.log(`  [${i}/${options.copies}] MessageId ${m.messageId}  body ${m.body}`),
        );
        const record = rememberSend(open, sent, sendingAt);
        if (!options.wait) return;
        say("waiting for the worker (Ctrl-C stops waiting; the messages stay queued)");
        const waited = await waitForSend(open, record, say);
        if (waited.missing.length > 0) {
          throw new LabError(
            `${waited.missing.length} message(s) had not ended after ${Math.round(waited.waitedMs / 1000)} s: ` +
              waited.missing
                .map((m) => `${m.messageId.slice(0, 8)} (last: ${m.lastEvent})`)
                .join(", "),
          );
        }
        console.log(
          `all ${sent.length} ended in ${(waited.waitedMs / 1000).toFixed(1)} s: npx lab insights`,
        );
      });
    });
}
