// npm run lab -- <command>: the workshop's commands.
import { Command, CommanderError } from "commander";
import { diagnose, gatherFacts } from "../doctor.js";
import { LabError, UsageError } from "../errors.js";
import { offlinePrepare } from "../offline.js";
import { say } from "../say.js";
import { table } from "../table.js";

const program = new Command("lab")
  .description("The SQS idempotency lab, step by step.")
  .showSuggestionAfterError(true)
  .exitOverride();

program
  .command("doctor")
  .description("what this machine has for each backend, and what to do about what is missing")
  .action(async () => {
    const { rows, backends } = diagnose(await gatherFacts());
    const marks = rows.map((r) => [
      r.ok === null ? "·" : r.ok ? "✓" : "✗",
      r.check,
      r.found,
      r.next,
    ]);
    console.log(table(["", "check", "found", "next step"], marks, [3, 36, 44, 48]));
    const line = (name: string, ok: boolean, why: string) =>
      console.log(`${ok ? "✓" : "✗"} ${name.padEnd(15)} ${why}`);
    line(
      "endpoint",
      backends.endpoint,
      backends.endpoint
        ? "an emulator answers at localhost:4566"
        : "no emulator running (docker compose up -d)",
    );
    line(
      "testcontainers",
      backends.testcontainers,
      backends.testcontainers ? "Docker is reachable" : "needs a Docker engine",
    );
    line(
      "ministack",
      backends.ministack,
      backends.ministack ? "Python is there; no Docker needed" : "needs Python 3.10+",
    );
    if (!Object.values(backends).some(Boolean)) {
      throw new LabError("no backend can run on this machine: install Python 3.10+ or Docker");
    }
  });

program
  .command("offline-prepare")
  .description(
    "download what an offline workshop needs: LocalStack images (with Docker) and MiniStack wheels",
  )
  .action(() => offlinePrepare(say));

program.parseAsync(process.argv).then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    if (err instanceof UsageError) {
      console.error(`lab: ${err.message}`);
      process.exit(2);
    }
    if (err instanceof LabError) {
      console.error(`lab: ${err.message}`);
      process.exit(1);
    }
    console.error(`lab: unexpected error: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
