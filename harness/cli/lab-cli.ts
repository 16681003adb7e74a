// npx lab <command>: the workshop step by step on an emulator that stays up between commands, and
// the scenarios, the grader, the explorer and the bench. Exit codes: the table in
// common/errors.ts (0 done, 1 a check failed, 2 a usage error, 3 the lab could not run).
import { commandExitCode, runCommand } from "./exit.js";
import { labProgram } from "./program.js";
import { voiceOf } from "./voice.js";

const program = labProgram();
/** The name the running command answers in: "lab" until a command of its own starts. */
let voice = "lab";
program.hook("preSubcommand", (_program, command) => {
  voice = voiceOf(command);
});

runCommand(
  () => voice,
  () => program.parseAsync(process.argv).then(commandExitCode),
);
