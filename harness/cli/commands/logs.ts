// `npx lab logs`: a timeline of the last send, or of one order.
import type { Command } from "commander";
import { LabError } from "../../common/errors.js";
import { textTimeline } from "../../report/text.js";
import { parseOrderId } from "../options.js";
import { labEvents, withLab } from "../with-lab.js";

export function logsCommand(program: Command): Command {
  return program
    .command("logs")
    .description(
      "a timeline of the last send, or of one order since `up` or `reset` (every message of it in the log group, whoever sent it)",
    )
    .option(
      "--order-id <id>",
      'the orderId as the worker saw it ("unparseable" for mangled bodies)',
      parseOrderId,
    )
    .action((options: { orderId?: string }) =>
      withLab(async (open) => {
        const { orderEvents, sendEvents } = await labEvents();
        const events = options.orderId
          ? await orderEvents(open, options.orderId)
          : await sendEvents(open, false);
        if (events.length === 0)
          throw new LabError(`no events for ${options.orderId ?? "the last send"} yet`);
        console.log(textTimeline(events));
      }),
    );
}
