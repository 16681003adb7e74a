import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { UNPARSEABLE } from "../contract/order.js";
import { writtenByPowerShell51 } from "../harness/drive/body-file.js";
import { orderBody } from "../harness/drive/order-body.js";
import type { WorkerEvent } from "../harness/observe/events.js";
import { claimsAre, equal, phase, scenario, type Workload } from "../harness/scenario/scenario.js";

const everyEventSays = (events: WorkerEvent[], orderId: string) =>
  equal(
    `every event says orderId "${orderId}"`,
    [...new Set(events.map((e) => e.orderId))],
    [orderId],
  );

/**
 * The fix the article used: write the JSON to a file and send file://body.json. In UTF-8, or
 * as Windows PowerShell 5.1's `echo '...' > body.json` writes it (UTF-16 LE with a BOM). The
 * file's folder is removed once it was sent: a run leaves nothing in the temp folder.
 */
async function sendFromFile(
  lab: Workload,
  orderId: string,
  writtenBy: "utf8" | "powershell51" = "utf8",
): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), "lab-body-"));
  try {
    const file = path.join(folder, "body.json");
    const body = orderBody({ orderId });
    writeFileSync(file, writtenBy === "utf8" ? `${body}\n` : writtenByPowerShell51(body));
    await lab.sendBodyFile(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export default scenario({
  name: "malformed-body",
  title: "The shell ate the quotes: the guard locks the wrong key",
  story:
    "PowerShell strips the double quotes from JSON passed inline to --message-body, so the queue " +
    "receives {orderId:ORDER-001,customerId:CUSTOMER-123,amount:150.00}. JSON.parse fails and the " +
    'worker falls back to the key "unparseable". With the guard off every copy still charges. With ' +
    'the guard on, the claim locks "unparseable": a later, different order that is also mangled ' +
    "(ORDER-002) loses the claim and is silently skipped, never charged. Sent from a body file, both " +
    "orders charge under their real ids, even the file Windows PowerShell 5.1's > wrote in UTF-16.",
  phases: [
    phase("mangled body, guard off (the article's first surprise)", {
      setup: { guard: "off", workMs: 100 },
      workload: (lab) => lab.send({ orderId: "ORDER-001", copies: 4, mangled: true }),
      checks: ({ sent, observed, events }) => [
        equal("the body the queue received", sent.bodies, [
          "{orderId:ORDER-001,customerId:CUSTOMER-123,amount:150.00}",
        ]),
        everyEventSays(events, UNPARSEABLE),
        equal("parse_failed events", observed.eventCounts.parse_failed, 4),
        equal("charges by the key the worker saw", observed.chargesByOrder, { [UNPARSEABLE]: 4 }),
        equal(
          "ORDER-001, as the sender meant it",
          observed.intended["ORDER-001"]?.verdict,
          "duplicated",
        ),
      ],
    }),
    phase("two different orders, both mangled, guard on", {
      setup: { guard: "claim", workMs: 100 },
      workload: async (lab) => {
        await lab.send({ orderId: "ORDER-001", mangled: true });
        await lab.settle(); // ORDER-002 arrives later, after ORDER-001 was charged
        await lab.send({ orderId: "ORDER-002", mangled: true });
      },
      checks: ({ observed, events }) => [
        everyEventSays(events, UNPARSEABLE),
        claimsAre("claims table", observed, [`${UNPARSEABLE}/COMPLETED`]),
        equal("charges", observed.charges.charges, 1),
        equal(
          "ORDER-001 charged once, under the wrong key",
          observed.intended["ORDER-001"]?.verdict,
          "wrong key",
        ),
        equal("ORDER-002 never charged (lost)", observed.intended["ORDER-002"]?.verdict, "lost"),
        equal(
          "skip_duplicate (ORDER-002, skipped as a copy of another order)",
          observed.eventCounts.skip_duplicate,
          1,
        ),
      ],
    }),
    phase(
      "the same orders sent from a body file (ORDER-002's in UTF-16, as PowerShell 5.1's > writes it), guard on",
      {
        setup: { guard: "claim", workMs: 100 },
        workload: async (lab) => {
          await sendFromFile(lab, "ORDER-001");
          await sendFromFile(lab, "ORDER-002", "powershell51");
        },
        checks: ({ observed }) => [
          equal("parse_failed events", observed.eventCounts.parse_failed ?? 0, 0),
          claimsAre("claims table", observed, ["ORDER-001/COMPLETED", "ORDER-002/COMPLETED"]),
          equal("charges by orderId", observed.chargesByOrder, { "ORDER-001": 1, "ORDER-002": 1 }),
        ],
      },
    ),
  ],
});
