// `npx lab deploy`: deploy the lab again, keeping the current guard.
import type { Command } from "commander";
import { say, step } from "../../common/say.js";
import { withLab, workshop } from "../with-lab.js";

export function deployCommand(program: Command): Command {
  return program
    .command("deploy")
    .description("deploy the lab again (idempotent; keeps the current guard)")
    .action(() =>
      withLab(async (open) => {
        const { redeploy } = await workshop();
        await step(say, "deploying", () => redeploy(open, say));
        console.log(`deployed to ${open.backend.endpoint}`);
      }),
    );
}
