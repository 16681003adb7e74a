// `npx lab doctor`: what this machine has for each backend, and what to do about what is missing.
import type { Command } from "commander";
import { waitingFor } from "../exit.js";

export function doctorCommand(program: Command): Command {
  return program
    .command("doctor")
    .description("what this machine has for each backend, and what to do about what is missing")
    .action(async () => {
      const [{ printDoctor }, { unansweredProbes }] = await Promise.all([
        import("../doctor-output.js"),
        import("../../workshop/doctor.js"),
      ]);
      waitingFor(unansweredProbes);
      await printDoctor();
    });
}
