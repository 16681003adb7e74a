// What `npx lab scenario` does once its flags are read (commands/scenario.ts): the catalogue, or
// one scenario (or --repeat N runs of it) on a lab of its own, stopped at the end or on Ctrl-C.
import { guardColumn } from "../../scenarios/guard-column.js";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";
import { packageWorker } from "../aws/build.js";
import { type GuardFile, guardFileAt } from "../aws/guard-file.js";
import { closest } from "../common/closest.js";
import { EXIT, UsageError } from "../common/errors.js";
import { cleanUpOnInterrupt } from "../common/interrupt.js";
import { say } from "../common/say.js";
import { renderHtml } from "../report/html/page.js";
import { textScenario } from "../report/text.js";
import { type OwnedLab, openLab } from "../scenario/open-lab.js";
import type { ScenarioResult } from "../scenario/result.js";
import { runScenario } from "../scenario/run.js";
import type { Scenario } from "../scenario/scenario.js";
import { lanesFor } from "./lanes.js";
import { repeatSummary, runLine, runToReport, textRepeatSummary } from "./repeat.js";
import { writeHtml } from "./write-html.js";

const USAGE =
  "usage: npx lab scenario <name> [--json] [--html <file>] [--repeat N] [--guard-file <file> (guard-matrix only)]   |   npx lab scenario --list";

/** The flags, as commands/scenario.ts reads them. */
export interface ScenarioOptions {
  json?: boolean;
  html?: string;
  repeat?: number;
  guardFile?: string;
  list?: boolean;
}

function listing(): string {
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  return SCENARIOS.map((s) => `  ${s.name.padEnd(width)}  ${s.title}`).join("\n");
}

export async function scenarioRun(
  name: string | undefined,
  more: string[],
  options: ScenarioOptions,
): Promise<number> {
  if (options.list) {
    if (options.json)
      console.log(
        JSON.stringify(
          SCENARIOS.map(({ name, title, story }) => ({ name, title, story })),
          null,
          2,
        ),
      );
    else console.log(listing());
    return EXIT.held;
  }
  if (!name) throw new UsageError(`name a scenario.\n${USAGE}\n\nScenarios:\n${listing()}`);
  if (more.length > 0)
    throw new UsageError(`one scenario at a time; got ${[name, ...more].join(", ")}\n${USAGE}`);
  const guardFile = guardFileFor(name, options.guardFile);
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
  // Before anything starts: an interrupt while MiniStack starts or the lab deploys stops it too.
  let opened: OwnedLab | undefined;
  cleanUpOnInterrupt(say, "stopping the backend", async () => opened?.close());
  opened = await openLab(
    say,
    (backend) => lanesFor(scenario, backend, guardFile !== undefined),
    guardFile ? { guardFile } : {},
  );
  try {
    if (options.repeat !== undefined)
      return await repeatRuns(scenario, opened, options.repeat, options);
    const result = await runScenario(scenario, opened.lanes, say);
    console.log(options.json ? JSON.stringify(result, null, 2) : textScenario(result));
    if (options.html !== undefined) writeHtml(options.html, renderHtml(result));
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
      `--guard-file grades a guard file with the guard matrix only: npx lab scenario guard-matrix --guard-file ${given} (or npx lab grade ${given})`,
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
  options: ScenarioOptions,
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
