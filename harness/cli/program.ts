// `npx lab`: every command a user runs, in one program. Each command's flags are defined in its
// own module under commands/, which imports what talks to the emulator only when the command runs.
import { Command } from "commander";
import { benchCommand } from "./commands/bench.js";
import { deployCommand } from "./commands/deploy.js";
import { doctorCommand } from "./commands/doctor.js";
import { downCommand } from "./commands/down.js";
import { exploreCommand } from "./commands/explore.js";
import { gradeCommand } from "./commands/grade.js";
import { guardCommand } from "./commands/guard.js";
import { guideCommand } from "./commands/guide.js";
import { insightsCommand } from "./commands/insights.js";
import { kitCommand } from "./commands/kit.js";
import { logsCommand } from "./commands/logs.js";
import { offlinePrepareCommand } from "./commands/offline-prepare.js";
import { reportCommand } from "./commands/report.js";
import { resetCommand } from "./commands/reset.js";
import { scenarioCommand } from "./commands/scenario.js";
import { sendCommand } from "./commands/send.js";
import { statusCommand } from "./commands/status.js";
import { upCommand } from "./commands/up.js";
import { speaksInOwnVoice } from "./voice.js";

/** The command line, its commands in the order --help lists them. */
export function labProgram(): Command {
  const program = speaksInOwnVoice(
    new Command("lab")
      .description("The SQS idempotency lab, step by step.")
      .showSuggestionAfterError(true)
      .exitOverride(),
  );
  for (const add of [
    upCommand,
    downCommand,
    resetCommand,
    deployCommand,
    sendCommand,
    guardCommand,
    statusCommand,
    insightsCommand,
    logsCommand,
    reportCommand,
    doctorCommand,
    kitCommand,
    offlinePrepareCommand,
    scenarioCommand,
    gradeCommand,
    exploreCommand,
    benchCommand,
    guideCommand,
  ])
    add(program);
  return program;
}
