// npm run scenario <name> [-- --json] [--html <file>] [--repeat N]   |   npm run scenario -- --list
// npm run scenario guard-matrix -- --guard-file <file>: the matrix's column for a guard file.
// Exit codes: 0 every check passed, 1 a check failed, 2 usage error, 3 the lab could not run.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { guardColumn } from "../../scenarios/guard-matrix.js";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";
import { packageWorker } from "../aws/build.js";
import { type GuardFile, guardFileAt } from "../aws/guard-file.js";
import { EXIT, LabError, UsageError } from "../common/errors.js";
import { say } from "../common/say.js";
import { renderHtml } from "../report/html/page.js";
import { textScenario } from "../report/text.js";
import { closeOnSignal, type OwnedLab, openLab } from "../scenario/open-lab.js";
import type { ScenarioResult } from "../scenario/result.js";
import { runScenario } from "../scenario/run.js";
import type { Scenario } from "../scenario/scenario.js";
import { closest } from "./closest.js";
import { runCommand } from "./exit.js";
import { lanesFor } from "./lanes.js";
import { parseRepeat, repeatSummary, runLine, runToReport, textRepeatSummary } from "./repeat.js";

const USAGE =
  "usage: npm run scenario <name> [-- --json] [--html <file>] [--repeat N] [--guard-file <file> (guard-matrix only)]   |   npm run scenario -- --list";

function listing(): string {
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  return SCENARIOS.map((s) => `  ${s.name.padEnd(width)}  ${s.title}`).join("\n");
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        json: { type: "boolean" };
        html: { type: "string" };
        repeat: { type: "string" };
        "guard-file": { type: "string" };
        list: { type: "boolean" };
        help: { type: "boolean"; short: "h" };
      };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        html: { type: "string" },
        repeat: { type: "string" },
        "guard-file": { type: "string" },
        list: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(`${USAGE}\n\nScenarios:\n${listing()}`);
    return 0;
  }
  if (values.list) {
    if (values.json)
      console.log(
        JSON.stringify(
          SCENARIOS.map(({ name, title, story }) => ({ name, title, story })),
          null,
          2,
        ),
      );
    else console.log(listing());
    return 0;
  }
  if (values.html !== undefined && values.html.trim() === "")
    throw new UsageError(`--html needs a file name\n${USAGE}`);
  const runs = parseRepeat(values.repeat);
  const [name, ...extra] = positionals;
  if (!name) throw new UsageError(`name a scenario.\n${USAGE}\n\nScenarios:\n${listing()}`);
  if (extra.length > 0)
    throw new UsageError(`one scenario at a time; got ${positionals.join(", ")}\n${USAGE}`);
  const guardFile = guardFileFor(name, values["guard-file"]);
  const scenario = guardFile ? guardColumn(guardFile.name) : findScenario(name);
  if (!scenario) {
    const hint = closest(
      name,
      SCENARIOS.map((s) => s.name),
    );
    throw new UsageError(
      `unknown scenario "${name}"${hint.length ? ` (did you mean ${hint.join(" or ")}?)` : ""}\n\nScenarios:\n${listing()}`,
    );
  }

  // A guard file that does not compile is a usage error before any emulator starts.
  if (guardFile) await packageWorker(guardFile);
  const opened = await openLab(
    say,
    (backend) => lanesFor(scenario, backend, guardFile !== undefined),
    guardFile ? { guardFile } : {},
  );
  closeOnSignal(opened, say);
  try {
    if (runs !== undefined) return await repeatRuns(scenario, opened, runs, values);
    const result = await runScenario(scenario, opened.lanes, say);
    console.log(values.json ? JSON.stringify(result, null, 2) : textScenario(result));
    if (values.html !== undefined) writeHtml(values.html, renderHtml(result));
    return result.pass ? EXIT.held : EXIT.checkFailed;
  } finally {
    await opened.close();
  }
}

/** --guard-file: only with guard-matrix, whose column for that file it runs. */
function guardFileFor(scenario: string, given: string | undefined): GuardFile | undefined {
  if (given === undefined) return undefined;
  if (scenario !== "guard-matrix") {
    throw new UsageError(
      `--guard-file grades a guard file with the guard matrix only: npx lab scenario guard-matrix --guard-file ${given} (or npm run grade -- ${given})`,
    );
  }
  if (given.trim() === "") throw new UsageError(`--guard-file needs a file\n${USAGE}`);
  return guardFileAt(given);
}

/**
 * --repeat: the scenario `runs` times on the one lab, a line per run as it ends, then how many
 * passed and which checks failed in how many runs. --html shows the first failed run, else the last.
 */
async function repeatRuns(
  scenario: Scenario,
  lab: OwnedLab,
  runs: number,
  options: { json?: boolean | undefined; html?: string | undefined },
): Promise<number> {
  const results: ScenarioResult[] = [];
  for (let run = 1; run <= runs; run++) {
    const result = await runScenario(scenario, lab.lanes, say);
    results.push(result);
    // With --json, stdout holds only the summary; the lines are progress.
    (options.json ? say : console.log)(runLine(result, run, runs));
  }
  const summary = repeatSummary(scenario.name, results);
  console.log(
    options.json
      ? JSON.stringify(summary, null, 2)
      : textRepeatSummary(summary, scenario.phases.length > 1),
  );
  const shown = runToReport(results);
  if (options.html !== undefined && shown) writeHtml(options.html, renderHtml(shown));
  return summary.passed === summary.runs ? EXIT.held : EXIT.checkFailed;
}

/** The HTML report, beside whatever went to stdout; where it went is said on stderr. */
function writeHtml(file: string, html: string): void {
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

runCommand("scenario", () => main(process.argv.slice(2)));
