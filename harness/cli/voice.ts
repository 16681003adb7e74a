// Whose name a command's one-line answers start with: the workshop's commands answer as "lab: …";
// scenario, grade, explore and bench in their own names ("grade: …"), as they did when each was a
// program of its own, so a message says which tool it comes from.
import type { Command } from "commander";

const OWN_VOICE = new Set(["scenario", "grade", "explore", "bench"]);

/** The name `command` (or the command above it) answers in. */
export function voiceOf(command: Command): string {
  let top = command;
  while (top.parent?.parent) top = top.parent;
  return top.parent && OWN_VOICE.has(top.name()) ? top.name() : "lab";
}

/** Commander's own messages (an unknown option, a bad value) in the command's voice. */
export function speaksInOwnVoice(command: Command): Command {
  return command.configureOutput({
    outputError: (text, write) => write(`${voiceOf(command)}: ${text.replace(/^error: /, "")}`),
  });
}
