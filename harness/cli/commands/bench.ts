// `npx lab bench`: the lab's numbers on this machine (backend start, deploy twice, each scenario's
// time, emulator memory); `npx lab bench load`: throughput and cost per guard under load.
import { type Command, Option } from "commander";
import {
  DEFAULT_LOAD_COPIES,
  DEFAULT_ORDERS,
  type LoadArgs,
  MAX_LOAD_COPIES,
  MAX_ORDERS,
} from "../../../bench/load-stats.js";
import { GUARDS } from "../../../contract/settings.js";
import { closest } from "../../common/closest.js";
import { UsageError } from "../../common/errors.js";
import { exitsWith } from "../exit.js";
import { parseGuardList, wholeNumber } from "../options.js";
import { speaksInOwnVoice } from "../voice.js";

const USAGE =
  "usage: npx lab bench   |   npx lab bench load [--orders N] [--copies C] [--guards off,naive,claim,lease,powertools] [--json]";

export function benchCommand(program: Command): Command {
  const bench = speaksInOwnVoice(
    program
      .command("bench")
      .description(
        "the lab's numbers on this machine: backend start, deploy twice, each scenario's time, emulator memory (for development)",
      )
      .argument("[what]")
      .action(
        exitsWith(async (what: string | undefined) => {
          if (what !== undefined) {
            const hint = closest(what, ["load"]);
            throw new UsageError(
              `unknown bench "${what}"${hint.length ? ` (did you mean ${hint[0]}?)` : ""}\n${USAGE}`,
            );
          }
          return (await import("../../../bench/bench.js")).benchScenarios();
        }),
      ),
  );
  bench
    .command("load")
    .description("many orders, several copies each, once per guard on one lab: throughput and cost")
    .option(
      "--orders <n>",
      "orders to send",
      wholeNumber("--orders", 1, MAX_ORDERS),
      DEFAULT_ORDERS,
    )
    .option(
      "--copies <n>",
      "copies of each order",
      wholeNumber("--copies", 1, MAX_LOAD_COPIES),
      DEFAULT_LOAD_COPIES,
    )
    .addOption(
      new Option("--guards <names>", "the guards, comma-separated, each in turn")
        .argParser(parseGuardList)
        .default([...GUARDS], GUARDS.join(",")),
    )
    .option("--json", "print the results as JSON", false)
    .action(
      exitsWith(async (options: LoadArgs) =>
        (await import("../../../bench/load.js")).benchLoad(options),
      ),
    );
  return bench;
}
