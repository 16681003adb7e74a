// `npx lab scenario <name>`: one scenario end to end on a lab of its own; --list the catalogue.
// Exit codes: 0 every check passed, 1 a check failed, 2 usage error, 3 the lab could not run.
import type { Command } from "commander";
import { exitsWith } from "../exit.js";
import { parseFileName, wholeNumber } from "../options.js";
import { MAX_REPEAT } from "../repeat.js";
import type { ScenarioOptions } from "../scenario-run.js";
import { speaksInOwnVoice } from "../voice.js";

export function scenarioCommand(program: Command): Command {
  return speaksInOwnVoice(
    program
      .command("scenario")
      .description("run one scenario end to end on a lab of its own (--list: the catalogue)")
      .argument("[name]", "the scenario (npx lab scenario --list names them)")
      .argument("[more...]")
      .option("--json", "print the result as JSON")
      .option("--html <file>", "also write the HTML report", parseFileName("--html"))
      .option(
        "--repeat <n>",
        `run it N times on one lab, and say which checks failed in how many runs (at most ${MAX_REPEAT})`,
        wholeNumber("--repeat", 1, MAX_REPEAT),
      )
      .option("--guard-file <file>", "guard-matrix only: the matrix's column for a guard file")
      .option("--list", "the catalogue: each scenario's name and title")
      .action(
        exitsWith(async (name: string | undefined, more: string[], options: ScenarioOptions) => {
          const { scenarioRun } = await import("../scenario-run.js");
          return scenarioRun(name, more, options);
        }),
      ),
  );
}
