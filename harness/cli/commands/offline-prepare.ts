// `npx lab offline-prepare`: download what an offline workshop needs.
import type { Command } from "commander";
import { say } from "../../common/say.js";

export function offlinePrepareCommand(program: Command): Command {
  return program
    .command("offline-prepare")
    .description(
      "download what an offline workshop needs: LocalStack images (with Docker) and MiniStack wheels",
    )
    .action(async () => (await import("../../workshop/offline.js")).offlinePrepare(say));
}
