// An HTML report beside what went to stdout (scenario, grade): where it went is said on stderr.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { LabError } from "../common/errors.js";
import { say } from "../common/say.js";

export function writeHtml(file: string, html: string): void {
  // npm run changes to the package root; a relative name means where the user typed it.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, html);
  } catch (err) {
    throw new LabError(`could not write the HTML report to ${target}: ${(err as Error).message}`);
  }
  say(`HTML report written to ${target}`);
}
