// `npx lab explore`: every interleaving of the real guards, checked (docs/design.md §5): for each
// guard, the schedules checked and "exactly once in all", or the shortest counterexample.
// `--guard-file ./my-guard.ts`: a guard of your own, expected to hold.
// Exit codes: 0 every guard did what the lab teaches (the broken ones fail, the fixed ones hold),
// 1 one did not, 2 a usage error, 3 the lab could not run.
import path from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { FAILPOINT_NAMES, type FailpointName } from "../../../contract/failpoints.js";
import { LAB_DIR } from "../../common/paths.js";
import { DEFAULT_BUDGET, FAIL_AT } from "../../explore/budget.js";
import { EXPLORE_BUDGET_NAMES } from "../../explore/budgets.js";
import { exitsWith } from "../exit.js";
import type { ExploreCliOptions } from "../explore-run.js";
import { budgetOption, commaList, seedOption, wholeNumber } from "../options.js";
import { speaksInOwnVoice } from "../voice.js";

/** Losses go higher than the rest: the SDK gives up only once every attempt of a call is lost. */
const MAX_FAULTS = { each: 3, losses: 6 };

function parseFaults(value: string) {
  try {
    const parts = value.split(",");
    if (parts.length < 3 || parts.length > 5) throw new InvalidArgumentError("3 to 5 numbers");
    const [deaths = 0, fails = 0, jumps = 0] = parts
      .slice(0, 3)
      .map(wholeNumber("--faults", 0, MAX_FAULTS.each));
    const losses =
      parts[3] === undefined ? 0 : wholeNumber("--faults", 0, MAX_FAULTS.losses)(parts[3]);
    // The fifth, a cap on all of them together, is what a replay line of the walk's prints.
    const total = parts[4] === undefined ? undefined : wholeNumber("--faults", 0, 9)(parts[4]);
    return { deaths, fails, jumps, losses, ...(total === undefined ? {} : { total }) };
  } catch {
    throw new InvalidArgumentError(
      `--faults is deaths,fails,jumps[,losses[,total]], each 0 to ${MAX_FAULTS.each}, losses 0 to ${MAX_FAULTS.losses}, total 0 to 9 (e.g. 1,1,1,1); got "${value}"`,
    );
  }
}

function parsePoints(value: string): FailpointName[] {
  const points = commaList(value);
  const unknown = points.filter((p) => !(FAILPOINT_NAMES as readonly string[]).includes(p));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `not a failpoint: ${unknown.join(", ")}; the points are ${FAILPOINT_NAMES.join(", ")}`,
    );
  }
  return points as FailpointName[];
}

function parsePicks(value: string): number[] {
  try {
    return commaList(value).map(wholeNumber("--replay", 0, Number.MAX_SAFE_INTEGER));
  } catch {
    throw new InvalidArgumentError(
      `--replay takes the picks a counterexample printed (0,2,1,…); got "${value}"`,
    );
  }
}

export function exploreCommand(program: Command): Command {
  return speaksInOwnVoice(
    program
      .command("explore")
      .description(
        "Every interleaving of the real guards, checked: copies of one order through worker/guards against the emulator's DynamoDB, every DynamoDB call and failpoint a scheduled step, crashes, failed charges, lost answers with the SDK's retries, clock jumps and SQS redeliveries included.",
      )
      .option(
        "--guard <names>",
        "guards, comma-separated: off, naive, claim, lease (all three), lease/both, lease/fence, lease/none, powertools (default: all)",
      )
      .option(
        "--guard-file <file>",
        "a guard of your own (export default defineGuard(…)): type-checked, loaded, expected to hold",
      )
      .addOption(
        new Option(
          "--copies <n>",
          "copies of the order in the random schedules (the exhaustive walk always runs two)",
        )
          .argParser(wholeNumber("--copies", 2, 3))
          .default(3),
      )
      .option(
        "--runs <n>",
        "random schedules per guard (default: by --budget)",
        wholeNumber("--runs", 0, 1_000_000),
      )
      .addOption(seedOption())
      .addOption(budgetOption(EXPLORE_BUDGET_NAMES, "full"))
      .option(
        "--walk-limit <n>",
        "most schedules of the exhaustive walk; 0: no walk (default: by --budget)",
        wholeNumber("--walk-limit", 0, 10_000_000),
      )
      .addOption(
        new Option(
          "--faults <d,f,j[,l[,t]]>",
          "at most, per schedule: deaths (crashes and timeouts), failed charges, clock jumps, losses (a DynamoDB request or answer, or the payment's answer, lost; 0 if not given), and all of them together (no cap if not given)",
        )
          .argParser(parseFaults)
          .default({ ...DEFAULT_BUDGET }, "1,1,1,1"),
      )
      .addOption(
        new Option("--fail-at <points>", "failpoints that may throw, comma-separated")
          .argParser(parsePoints)
          .default([...FAIL_AT], FAIL_AT.join(",")),
      )
      .option("--lanes <n>", "schedules run side by side", wholeNumber("--lanes", 1, 64), 4)
      .option(
        "--html-dir <dir>",
        "where each counterexample's HTML timeline goes",
        path.join(LAB_DIR, "explore"),
      )
      .option(
        "--replay <picks>",
        "run one schedule of one guard, following these picks, and print it",
        parsePicks,
      )
      .option(
        "--walk-faults <n>",
        "the walk's cap on faults of any kind together (default: by --budget)",
        wholeNumber("--walk-faults", 0, 9),
      )
      .option("--strict", "count the explorer's findings beyond the lab's lessons as failures too")
      .action(
        exitsWith(async (options: ExploreCliOptions) => {
          const { exploreRun } = await import("../explore-run.js");
          return exploreRun(options);
        }),
      ),
  );
}
