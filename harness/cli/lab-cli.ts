// npx lab <command>: the workshop, step by step, on an emulator that stays up between
// commands. Exit codes: the table in common/errors.ts (0 done, 2 a usage error, 3 the lab could not).

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import type { LabNames } from "../../contract/names.js";
import { GUARD_WORDS } from "../../contract/settings.js";
import { EXIT, LabError, talkingTo } from "../common/errors.js";
import { labRegion } from "../common/region.js";
import { say, step } from "../common/say.js";
import { table } from "../report/table.js";
import { textClaims, textInsights, textTimeline } from "../report/text.js";
import type { WorkshopLab } from "../workshop/workshop.js";
import { awsCliLines } from "./aws-cli-lines.js";
import { runCommand } from "./exit.js";
import {
  checkWindowOptions,
  insightsEvents,
  parseDuration,
  parseSendNumber,
  parseSends,
  parseTime,
  type WindowOptions,
} from "./insights-window.js";
import {
  messageToSend,
  parseAmount,
  parseCopies,
  parseGuardOrFile,
  parseMs,
  parseOrderId,
  type SendOptions,
} from "./options.js";

// What talks to the emulator (the AWS SDK is most of a start) loads when a command runs, not
// before its arguments are checked: a mistake or --help answers in 0.25 s instead of 0.5 s.
const workshop = () => import("../workshop/workshop.js");

/** Runs a command against the lab that `up` started, and lets go of the connection after. */
async function withLab(work: (open: WorkshopLab) => Promise<void>): Promise<void> {
  const open = await (await workshop()).openWorkshopLab();
  try {
    await talkingTo(open.backend.endpoint, "talking to the lab's emulator", () => work(open));
  } finally {
    open.conn.close();
  }
}

const program = new Command("lab")
  .description("The SQS idempotency lab, step by step.")
  .showSuggestionAfterError(true)
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(`lab: ${text.replace(/^error: /, "")}`) });

program
  .command("up")
  .description("start an emulator (or use the one running), deploy the lab, remember it in .lab/")
  .action(async () => {
    const { labUp, UP_SETTINGS } = await workshop();
    const { state, fresh } = await step(say, "starting the lab", () => labUp(say));
    const { endpoint, name, version } = state.backend;
    console.log(`${fresh ? "lab is up" : "lab was already up"}: ${name} ${version} at ${endpoint}`);
    console.log(
      `  guard: ${UP_SETTINGS.guard} (the article's IDEMPOTENCY=0), WORK_MS ${UP_SETTINGS.workMs}`,
    );
    console.log(awsCliLines(endpoint, labRegion()));
    console.log("  next: npx lab send --order-id ORDER-001 --copies 4");
  });

program
  .command("down")
  .description("stop the emulator `up` started (one you run yourself keeps running)")
  .action(async () => console.log(await (await workshop()).labDown()));

const queueNames = (n: LabNames) => [n.queue, n.dlq, n.fifoQueue, n.fifoDlq].join(", ");

program
  .command("reset")
  .description("empty the lab's tables and queues to start an experiment again (no down/up)")
  .action(() =>
    withLab(async (open) => {
      const emptied = await (await workshop()).resetLab(open);
      const items = Object.entries(emptied).map(([table, n]) => `${table} ${n}`);
      console.log(
        `reset: purged ${queueNames(open.deployment.names)}; items removed: ${items.join(", ")}`,
      );
    }),
  );

program
  .command("deploy")
  .description("deploy the lab again (idempotent; keeps the current guard)")
  .action(() =>
    withLab(async (open) => {
      const { redeploy } = await workshop();
      await step(say, "deploying", () => redeploy(open, say));
      console.log(`deployed to ${open.backend.endpoint}`);
    }),
  );

program
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
        await Promise.all([import("../aws/switches.js"), import("../drive/send.js"), workshop()]);
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

program
  .command("guard <mode>")
  .description(
    `switch the idempotency guard without a redeploy: ${GUARD_WORDS.join(" | ")}; or a guard file of your own (./my-guard.ts), bundled into the worker`,
  )
  .option("--work-ms <ms>", "also set WORK_MS, the simulated work before the charge", parseMs)
  .action((mode: string, options: { workMs?: number }) => {
    const choice = parseGuardOrFile(mode);
    return withLab(async (open) => {
      const { plugInGuardFile, switchGuard } = await workshop();
      if (typeof choice !== "string") {
        const { ms, workMs } = await step(say, `bundling ${choice.name} into the worker`, () =>
          plugInGuardFile(open, choice, say, options.workMs),
        );
        console.log(
          `guard is now ${choice.name} (${path.relative(process.cwd(), choice.path)}), WORK_MS ${workMs}; deployed in ${(ms / 1000).toFixed(1)} s`,
        );
        return;
      }
      const { ms, workMs } = await switchGuard(open, choice, options.workMs);
      const switchNote = mode === "0" || mode === "1" ? ` (the article's IDEMPOTENCY=${mode})` : "";
      console.log(
        `guard is now ${choice}${switchNote}, WORK_MS ${workMs}; the update was applied in ${(ms / 1000).toFixed(1)} s`,
      );
    });
  });

program
  .command("status")
  .description(
    "the queues' depths (standard, FIFO, their DLQs), the claims table, the ledger, the last send's events",
  )
  .action(() =>
    withLab(async (open) => {
      const [{ queueDepth, readClaims, readLedger }, { sendEvents }] = await Promise.all([
        import("../observe/observe.js"),
        workshop(),
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

program
  .command("insights")
  .description(
    "the article's Logs Insights views over the log group (every message, whoever sent it, since `up`), each with the query to paste into the console",
  )
  .option(
    "--since <time>",
    "from this time: ISO-8601, or HH:MM[:SS] today (local time); default: when `up` ran",
    (value: string) => parseTime(value),
  )
  .option("--until <time>", "up to this time (the same forms); default: now", (value: string) =>
    parseTime(value),
  )
  .option(
    "--last <duration>",
    "the last 90s, 5m, 1h … before --until, instead of --since",
    (value: string) => parseDuration(value),
  )
  .option(
    "--since-send <n>",
    "from when the lab's n-th `lab send` since `up` began (1 is the first), instead of --since",
    (value: string) => parseSendNumber(value),
  )
  .option(
    "--sends <which>",
    "only the lab's own sends: last (the last `lab send`) or all (every lab send since `up`)",
    parseSends,
  )
  .option("--all", "the same as --sends all (kept for older guides)")
  .option(
    "--tail <duration>",
    "then only the last 0.5s, 3s … before the newest line, by the time the worker wrote on each line (ts)",
    (value: string) => parseDuration(value),
  )
  .action((options: WindowOptions) => {
    checkWindowOptions(options); // contradictions are a usage error before the lab is touched
    return withLab(async (open) => {
      const { heading, events } = await insightsEvents(open, options);
      console.log(heading);
      console.log(textInsights(events));
    });
  });

program
  .command("logs")
  .description(
    "a timeline of the last send, or of one order since `up` (every message of it in the log group, whoever sent it)",
  )
  .option(
    "--order-id <id>",
    'the orderId as the worker saw it ("unparseable" for mangled bodies)',
    parseOrderId,
  )
  .action((options: { orderId?: string }) =>
    withLab(async (open) => {
      const { orderEvents, sendEvents } = await workshop();
      const events = options.orderId
        ? await orderEvents(open, options.orderId)
        : await sendEvents(open, false);
      if (events.length === 0)
        throw new LabError(`no events for ${options.orderId ?? "the last send"} yet`);
      console.log(textTimeline(events));
    }),
  );

program
  .command("report")
  .description("write the last send as an HTML page: tables and a timeline, one lane per message")
  .requiredOption("--html <file>", "where to write the page")
  .action((options: { html: string }) =>
    withLab(async (open) => {
      const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), options.html);
      const [{ htmlPage }, { lastSendReport }] = await Promise.all([
        import("../report/html/page.js"),
        workshop(),
      ]);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, htmlPage(await lastSendReport(open)));
      console.log(`wrote ${file}`);
    }),
  );

program
  .command("doctor")
  .description("what this machine has for each backend, and what to do about what is missing")
  .action(async () => {
    const [{ printDoctor }, { unansweredProbes }] = await Promise.all([
      import("./doctor-output.js"),
      import("../workshop/doctor.js"),
    ]);
    stillWaitingFor = unansweredProbes;
    await printDoctor();
  });

program
  .command("kit <dir>")
  .description(
    "write a folder for an offline room: the lab, its npm packages, MiniStack wheels for 5 platforms x 4 Pythons",
  )
  .option("--check", "only check a kit made before (no network needed)")
  .action(async (dir: string, options: { check?: boolean }) => {
    const where = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
    const [{ buildKit, checkKit }, { printKit, printKitCheck }] = await Promise.all([
      import("../workshop/kit.js"),
      import("./kit-output.js"),
    ]);
    if (!options.check) printKit(await buildKit(where, say), where);
    const checked = await step(say, "checking the kit offline", () => checkKit(where, say));
    printKitCheck(checked);
  });

program
  .command("offline-prepare")
  .description(
    "download what an offline workshop needs: LocalStack images (with Docker) and MiniStack wheels",
  )
  .action(async () => (await import("../workshop/offline.js")).offlinePrepare(say));

/** What the command was waiting for, should it stop before it finished: doctor's probes. */
let stillWaitingFor = (): string[] => [];

runCommand(
  "lab",
  () => program.parseAsync(process.argv).then(() => EXIT.held),
  () => stillWaitingFor(),
);
