// `npx lab guard <mode>`: switch the guard without a redeploy, or bundle a guard file into the
// worker.
import path from "node:path";
import type { Command } from "commander";
import { GUARD_WORDS } from "../../../contract/settings.js";
import { say, step } from "../../common/say.js";
import { parseGuardOrFile, parseMs } from "../options.js";
import { withLab, workshop } from "../with-lab.js";

export function guardCommand(program: Command): Command {
  return program
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
        const switchNote =
          mode === "0" || mode === "1" ? ` (the article's IDEMPOTENCY=${mode})` : "";
        console.log(
          `guard is now ${choice}${switchNote}, WORK_MS ${workMs}; the update was applied in ${(ms / 1000).toFixed(1)} s`,
        );
      });
    });
}
