// `npx lab grade <guard file | lab guard>`: one guard against the guard matrix's failure modes and
// the interleaving explorer, in one report. Exit codes: 0 every graded row held and the explorer
// found no failure, 1 not, 2 a usage error (a guard file that does not compile, or exports no
// function, included), 3 the lab could not run.
import type { Command } from "commander";
import { GRADE_BUDGET_NAMES } from "../../explore/budgets.js";
import { exitsWith } from "../exit.js";
import type { GradeOptions } from "../grade-run.js";
import { budgetOption, parseFileName, seedOption } from "../options.js";
import { speaksInOwnVoice } from "../voice.js";

export function gradeCommand(program: Command): Command {
  return speaksInOwnVoice(
    program
      .command("grade")
      .description(
        "grade a guard (a guard file, or off|naive|claim|lease|powertools) against every failure mode and the explorer",
      )
      .argument("[guard]", "a guard file (./my-guard.ts), or a guard of the lab")
      .argument("[more...]")
      .option(
        "--html <file>",
        "also write one page with the rows and each broken run",
        parseFileName("--html"),
      )
      .addOption(budgetOption(GRADE_BUDGET_NAMES, "default"))
      .option(
        "--row <failure mode>",
        "only this row (again for more)",
        (row: string, rows: string[] = []) => [...rows, row],
      )
      .addOption(seedOption())
      .action(
        exitsWith(async (guard: string | undefined, more: string[], options: GradeOptions) => {
          const { gradeRun } = await import("../grade-run.js");
          return gradeRun(guard, more, options);
        }),
      ),
  );
}
