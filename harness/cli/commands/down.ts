// `npx lab down`: stop the MiniStack `up` started; forget an emulator the user runs.
import type { Command } from "commander";
import { workshop } from "../with-lab.js";

export function downCommand(program: Command): Command {
  return program
    .command("down")
    .description("stop the emulator `up` started (one you run yourself keeps running)")
    .action(async () => console.log(await (await workshop()).labDown()));
}
