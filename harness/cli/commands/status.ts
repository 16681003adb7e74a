// `npx lab status`: the queues' depths, the claims table, the ledger, the last send's events.
import type { Command } from "commander";
import { table } from "../../report/table.js";
import { textClaims } from "../../report/text.js";
import { labEvents, withLab } from "../with-lab.js";

export function statusCommand(program: Command): Command {
  return program
    .command("status")
    .description(
      "the queues' depths (standard, FIFO, their DLQs), the claims table, the ledger, the last send's events",
    )
    .action(() =>
      withLab(async (open) => {
        const [{ queueDepth, readClaims, readLedger }, { sendEvents }] = await Promise.all([
          import("../../observe/observe.js"),
          labEvents(),
        ]);
        const { names, queueUrl, dlqUrl, fifo } = open.deployment;
        const [queue, dlq, fifoQueue, fifoDlq, claims, ledger] = await Promise.all([
          queueDepth(open.conn, queueUrl),
          queueDepth(open.conn, dlqUrl),
          queueDepth(open.conn, fifo.queueUrl),
          queueDepth(open.conn, fifo.dlqUrl),
          readClaims(open.conn, names.claimsTable),
          readLedger(open.conn, names.ledgerTable),
        ]);
        console.log(
          `emulator ${open.backend.name} ${open.backend.version} at ${open.backend.endpoint}`,
        );
        console.log(
          table(
            ["queue", "waiting", "in flight"],
            [
              [names.queue, queue.visible, queue.inFlight],
              [names.dlq, dlq.visible, dlq.inFlight],
              [names.fifoQueue, fifoQueue.visible, fifoQueue.inFlight],
              [names.fifoDlq, fifoDlq.visible, fifoDlq.inFlight],
            ],
          ),
        );
        console.log(`\nclaims table ${names.claimsTable} (scan)`);
        console.log(textClaims(claims));
        console.log(`\ncharges ledger ${names.ledgerTable}: ${ledger.length} charge(s)`);
        if (open.state.sends.length > 0) {
          const events = await sendEvents(open, false);
          const counts: Record<string, number> = {};
          for (const e of events) counts[e.type] = (counts[e.type] ?? 0) + 1;
          console.log("\nthe last send's events by type");
          console.log(table(["type", "events"], Object.entries(counts)));
        }
      }),
    );
}
