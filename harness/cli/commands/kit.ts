// `npx lab kit <dir>`: a folder for an offline room, or a check of one made before.
import path from "node:path";
import type { Command } from "commander";
import { say, step } from "../../common/say.js";

export function kitCommand(program: Command): Command {
  return program
    .command("kit <dir>")
    .description(
      "write a folder for an offline room: the lab, its npm packages, MiniStack wheels for 5 platforms x 4 Pythons",
    )
    .option("--check", "only check a kit made before (no network needed)")
    .action(async (dir: string, options: { check?: boolean }) => {
      const where = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
      const [{ buildKit, checkKit }, { printKit, printKitCheck }] = await Promise.all([
        import("../../workshop/kit.js"),
        import("../kit-output.js"),
      ]);
      if (!options.check) printKit(await buildKit(where, say), where);
      const checked = await step(say, "checking the kit offline", () => checkKit(where, say));
      printKitCheck(checked);
    });
}
