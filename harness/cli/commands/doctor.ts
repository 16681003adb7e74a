// `npx lab doctor`: what this machine has for each backend, and what to do about what is missing.
import type { Command } from "commander";
import { waitingFor } from "../exit.js";

export function doctorCommand(program: Command): Command {
  return program
    .command("doctor")
    .description("what this machine has for each backend, and what to do about what is missing")
    .option(
      "--ready",
      "the week before the workshop, in the kit's lab folder after npm ci: one verdict, ready or not",
    )
    .action(async (options: { ready?: boolean }) => {
      const [{ printDoctor, printReadiness }, { unansweredProbes }] = await Promise.all([
        import("../doctor-output.js"),
        import("../../workshop/doctor.js"),
      ]);
      if (options.ready) return printReadiness();
      waitingFor(unansweredProbes);
      await printDoctor();
    });
}
