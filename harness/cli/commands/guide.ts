// `npx lab guide`: runs the workshop guide's commands on a fresh lab and compares every printed
// sample of both guides with what the run printed. The check itself is a script of test/guide/
// (it reads the guides, not the lab); this command starts it with tsx's loader, so it reads the
// same in bash, PowerShell and cmd as every other command, without npm run's `--`.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Command } from "commander";
import { LabError } from "../../common/errors.js";
import { PROJECT_ROOT } from "../../common/paths.js";
import { exitsWith } from "../exit.js";
import { speaksInOwnVoice } from "../voice.js";

const RUNNER = path.join(PROJECT_ROOT, "test", "guide", "run-guide.ts");

interface GuideFlags {
  update?: boolean;
  replay?: boolean;
  untilPart?: string;
}

export function guideCommand(program: Command): Command {
  return speaksInOwnVoice(
    program
      .command("guide")
      .description(
        "run the workshop guide's commands on a fresh lab and compare every printed sample of both guides (for the guides' authors)",
      )
      .option("--update", "write the run's output into both guides instead of comparing")
      .option(
        "--replay",
        "compare (or --update) from the last run's outputs, without running again",
      )
      .option("--until-part <n>", "stop after this part of the guide")
      .action(exitsWith((flags: GuideFlags) => runGuide(flags))),
  );
}

function runGuide(flags: GuideFlags): Promise<number> {
  if (!existsSync(RUNNER)) {
    throw new LabError(
      `the guide check (${path.relative(PROJECT_ROOT, RUNNER)}) is not in this copy of the lab; it comes with a clone of the repository`,
    );
  }
  const tsx = pathToFileURL(
    createRequire(path.join(PROJECT_ROOT, "package.json")).resolve("tsx"),
  ).href;
  const args = [
    ...(flags.update ? ["--update"] : []),
    ...(flags.replay ? ["--replay"] : []),
    ...(flags.untilPart === undefined ? [] : ["--until-part", flags.untilPart]),
  ];
  const runner = spawn(process.execPath, ["--import", tsx, RUNNER, ...args], {
    cwd: PROJECT_ROOT,
    stdio: "inherit",
  });
  // Ctrl-C reaches the runner with the rest of the terminal's process group: this process waits
  // for it to clean up instead of ending first. A SIGTERM sent to this process alone is passed on.
  const waitForRunner = () => {};
  const passOn = () => runner.kill("SIGTERM");
  process.on("SIGINT", waitForRunner);
  process.on("SIGTERM", passOn);
  return new Promise<number>((resolve, reject) => {
    runner.on("error", reject);
    runner.on("exit", (code, signal) => resolve(code ?? (signal ? 130 : 1)));
  }).finally(() => {
    process.off("SIGINT", waitForRunner);
    process.off("SIGTERM", passOn);
  });
}
