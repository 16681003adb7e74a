// `npx lab reset`: empty the lab's tables and queues, to start an experiment again.
import type { Command } from "commander";
import type { LabNames } from "../../../contract/names.js";
import { withLab, workshop } from "../with-lab.js";

const queueNames = (n: LabNames) => [n.queue, n.dlq, n.fifoQueue, n.fifoDlq].join(", ");

export function resetCommand(program: Command): Command {
  return program
    .command("reset")
    .description(
      "empty the lab's tables and queues to start an experiment again, which insights and logs then read from (no down/up)",
    )
    .action(() =>
      withLab(async (open) => {
        const emptied = await (await workshop()).resetLab(open);
        const items = Object.entries(emptied).map(([table, n]) => `${table} ${n}`);
        console.log(
          `reset: purged ${queueNames(open.deployment.names)}; items removed: ${items.join(", ")}`,
        );
      }),
    );
}
