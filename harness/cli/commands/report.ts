// `npx lab report --html <file>`: the last send as an HTML page.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { labEvents, withLab } from "../with-lab.js";

export function reportCommand(program: Command): Command {
  return program
    .command("report")
    .description("write the last send as an HTML page: tables and a timeline, one lane per message")
    .requiredOption("--html <file>", "where to write the page")
    .action((options: { html: string }) =>
      withLab(async (open) => {
        const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), options.html);
        const [{ htmlPage }, { lastSendReport }] = await Promise.all([
          import("../../report/html/page.js"),
          labEvents(),
        ]);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, htmlPage(await lastSendReport(open)));
        console.log(`wrote ${file}`);
      }),
    );
}
