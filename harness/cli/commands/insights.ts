// `npx lab insights`: the article's Logs Insights views over a window of the log group.
import type { Command } from "commander";
import { textInsights } from "../../report/text.js";
import {
  checkWindowOptions,
  insightsEvents,
  parseDuration,
  parseSendNumber,
  parseSends,
  parseTime,
  type WindowOptions,
} from "../insights-window.js";
import { withLab } from "../with-lab.js";

export function insightsCommand(program: Command): Command {
  return program
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
}
