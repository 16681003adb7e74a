// `npx lab up`: start an emulator (or find one), deploy the lab with the guard off, remember it.
import type { Command } from "commander";
import { cleanUpOnInterrupt } from "../../common/interrupt.js";
import { labRegion } from "../../common/region.js";
import { say, step } from "../../common/say.js";
import { awsCliLines } from "../aws-cli-lines.js";
import { workshop } from "../with-lab.js";

export function upCommand(program: Command): Command {
  return program
    .command("up")
    .description("start an emulator (or use the one running), deploy the lab, remember it in .lab/")
    .action(async () => {
      // Before anything starts: Ctrl-C before the lab is remembered stops the emulator it started.
      cleanUpOnInterrupt(say, "stopping the emulator it started", async () => {});
      const { labUp, UP_SETTINGS } = await workshop();
      const { state, fresh } = await step(say, "starting the lab", () => labUp(say));
      const { endpoint, name, version } = state.backend;
      console.log(
        `${fresh ? "lab is up" : "lab was already up"}: ${name} ${version} at ${endpoint}`,
      );
      console.log(
        `  guard: ${UP_SETTINGS.guard} (the article's IDEMPOTENCY=0), WORK_MS ${UP_SETTINGS.workMs}`,
      );
      console.log(awsCliLines(endpoint, labRegion()));
      console.log("  next: npx lab send --order-id ORDER-001 --copies 4");
    });
}
