// npx lab guide [--update] [--replay] [--until-part N] (npm run guide is its alias)
//
// Runs the workshop guide's commands in order, as an attendee types them, against a fresh lab
// (`npx lab up` starts MiniStack), and compares every printed sample in both guides (English and
// pt-BR, which share their commands) with what the run printed. --update writes the run's output
// into both guides instead, shaped like the samples were (see guide-text.ts). Prints the time
// each part took, and ends with "N passed, N failed" (one per sample and guide). The run's
// outputs are kept in .lab/guide-run.json; --replay compares (or, with --update, rewrites) from
// them without running again. Before any of that, the prose: a name in backticks the repository
// does not have, or an id or a copy number no sample shows, stops it with exit 2 and no lab started
// (prose-names.ts).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { probeHealth } from "../../harness/backends/health.js";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import {
  type GuideStep,
  guideSteps,
  refreshedSample,
  unmatchedLines,
  withSamples,
} from "./guide-text.js";
import { missingNames, proseNames, quotesNotInSamples, readRepository } from "./prose-names.js";

const GUIDES = ["docs/workshop.md", "docs/workshop.pt-BR.md"].map((g) =>
  path.join(PROJECT_ROOT, g),
);
/** Installed before the run (CI's npm ci, or yours): running it again would change nothing. */
const SKIPPED = /^npm ci\b/;

interface Ran {
  part: string;
  commands: string[];
  output: string[];
  seconds: number;
  failed?: string;
}

/** Where a run's outputs are kept, so `--replay` can compare or update without running again. */
const RECORD = path.join(PROJECT_ROOT, ".lab", "guide-run.json");

interface GuideOptions {
  update?: boolean;
  replay?: boolean;
  untilPart?: string;
}

const program = new Command("guide")
  .description("run the workshop guide's commands on a fresh lab and compare its printed samples")
  .option("--update", "write the run's output into both guides instead of comparing")
  .option("--replay", "compare (or --update) from the last run's outputs, without running again")
  .option("--until-part <n>", "stop after this part of the guide")
  // Commander has said what was wrong; a usage error exits 2, as the lab's commands do.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

async function main(): Promise<number> {
  const values = program.parse().opts<GuideOptions>();
  const steps = guideSteps(readFileSync(GUIDES[0] as string, "utf8"));
  const same = sameCommands(steps, guideSteps(readFileSync(GUIDES[1] as string, "utf8")));
  if (same) {
    console.error(`guide: ${same}`);
    return 2;
  }
  const drift = proseDrift();
  if (drift.length > 0) {
    for (const line of drift) console.error(`guide: ${line}`);
    return 2;
  }
  let runs: Ran[];
  if (values.replay) {
    if (!existsSync(RECORD)) {
      console.error("guide: no run to replay yet: run `npx lab guide` once without --replay");
      return 2;
    }
    runs = JSON.parse(readFileSync(RECORD, "utf8")) as Ran[];
  } else {
    const refusal = await precondition();
    if (refusal) {
      console.error(`guide: ${refusal}`);
      return 2;
    }
    runs = runGuide(steps, values.untilPart);
    writeFileSync(RECORD, JSON.stringify(runs, null, 1));
  }
  printTimes(runs);

  let passed = 0;
  let failed = 0;
  for (const file of GUIDES) {
    // Read again: the guide may have been edited while the run went on (an hour of prose).
    const markdown = readFileSync(file, "utf8");
    const refreshed = new Map<number, string[]>();
    const here = guideSteps(markdown);
    const paired = pairWithRuns(here, runs);
    here.forEach((step, i) => {
      if (!step.sample || step.notChecked) return;
      const ran = paired[i];
      const where = `${path.relative(PROJECT_ROOT, file)}:${step.sample.open}`;
      if (!ran) {
        if (values.untilPart === undefined) {
          failed++;
          console.log(`✗ ${where}: "${step.commands.join(" && ")}" was not run`);
        }
        return;
      }
      if (values.update) {
        const { lines, dropped } = refreshedSample(step.sample.lines, ran.output);
        refreshed.set(step.sample.open, lines);
        for (const line of dropped)
          console.log(`  ${where}: dropped, nothing like it was printed: ${line}`);
        return;
      }
      const missing = unmatchedLines(step.sample, ran.output, step.countsVary !== undefined);
      if (ran.failed || missing.length > 0) {
        failed++;
        console.log(`✗ ${where} (${step.commands.join(" && ")})`);
        if (ran.failed) console.log(`    ${ran.failed}`);
        for (const m of missing.slice(0, 8))
          console.log(`    line ${m.line} not printed: ${m.text}`);
        if (missing.length > 8) console.log(`    and ${missing.length - 8} more lines`);
      } else passed++;
    });
    if (values.update) {
      writeFileSync(file, withSamples(markdown, refreshed));
      console.log(`updated ${refreshed.size} samples in ${path.relative(PROJECT_ROOT, file)}`);
    }
  }
  const commandFailures = runs.filter((r) => r.failed).length;
  if (values.update) return commandFailures > 0 || failed > 0 ? 1 : 0;
  console.log(`guide: ${passed} passed, ${failed} failed`);
  return failed > 0 || commandFailures > 0 ? 1 : 0;
}

/**
 * Each step of the guide with the run of the same commands: in order, a step the run skipped (a
 * block added after a --replay's run) left without one.
 */
function pairWithRuns(steps: GuideStep[], runs: Ran[]): (Ran | undefined)[] {
  let next = 0;
  return steps.map((step) => {
    const commands = step.commands.join("\n");
    const at = runs.findIndex((ran, j) => j >= next && ran.commands.join("\n") === commands);
    if (at < 0) return undefined;
    next = at + 1;
    return runs[at];
  });
}

/** Every command block in order (up to a part, if asked), as an attendee types them. */
function runGuide(steps: GuideStep[], untilPart: string | undefined): Ran[] {
  mkdirSync(path.join(PROJECT_ROOT, ".lab"), { recursive: true }); // where the guide writes body.json
  const runs: Ran[] = [];
  for (const step of steps) {
    if (untilPart !== undefined && partAfter(step.part, untilPart)) break;
    console.error(`guide: part ${step.part}, line ${step.line}: ${step.commands.join(" && ")}`);
    const ran = runStep(step);
    runs.push(ran);
    if (ran.failed) console.error(`guide:   ${ran.failed}`);
  }
  if (existsSync(path.join(labHome, "state.json"))) {
    // The run stopped before the guide's own `npx lab down`: stop the MiniStack it started.
    spawnSync("bash", ["-c", "npx lab down"], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, LAB_HOME: labHome },
    });
  }
  return runs;
}

/** The two guides must ask attendees to type the same commands, in the same order. */
/** What the prose names that the code does not have, or ids no sample shows (prose-names.ts). */
function proseDrift(): string[] {
  const repository = readRepository(PROJECT_ROOT);
  return GUIDES.flatMap((file) => {
    const markdown = readFileSync(file, "utf8");
    const where = (line: number) => `${path.relative(PROJECT_ROOT, file)}:${line}`;
    const names = missingNames(proseNames(markdown), repository).map(
      (m) =>
        `${where(m.line)}: the prose names \`${m.span}\`, but the repository has no ${m.kind} ${m.name}`,
    );
    const quotes = quotesNotInSamples(markdown).map(
      (m) =>
        `${where(m.line)}: the prose quotes ${m.kind === "id" ? `the id ${m.name}` : `"${m.span}"`}, which no sample of this guide shows`,
    );
    return [...names, ...quotes];
  });
}

function sameCommands(en: GuideStep[], pt: GuideStep[]): string | undefined {
  for (let i = 0; i < Math.max(en.length, pt.length); i++) {
    const a = en[i]?.commands.join("\n");
    const b = pt[i]?.commands.join("\n");
    if (a !== b) {
      return `command block ${i + 1} differs between the guides: "${a}" (line ${en[i]?.line}) and "${b}" (line ${pt[i]?.line})`;
    }
  }
  return undefined;
}

/** No emulator on :4566: `npx lab up` would use it, and the samples come from MiniStack. */
async function precondition(): Promise<string | undefined> {
  if (await probeHealth("http://localhost:4566")) {
    return "an emulator answers on localhost:4566, and the guide's samples come from MiniStack: stop it first";
  }
  return undefined;
}

/**
 * The lab's own folder for this run: a fresh one, as on an attendee's first day (no lab up, no
 * MiniStack installed), and apart from yours. Printed paths say `.lab`, as they would there.
 */
const labHome = mkdtempSync(path.join(tmpdir(), "lab-guide-"));
const asAttendeeSees = (line: string) =>
  line.replace(new RegExp(`[^\\s(]*${path.basename(labHome)}`, "g"), ".lab");

function runStep(step: GuideStep): Ran {
  const started = Date.now();
  const output: string[] = [];
  for (const [i, command] of step.commands.entries()) {
    if (SKIPPED.test(command)) continue;
    // Only the block's last command may end otherwise, and only as the guide says it does.
    const expected = i === step.commands.length - 1 ? (step.exits ?? 0) : 0;
    const result = spawnSync("bash", ["-c", `${command} 2>&1`], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, LAB_HOME: labHome, NO_COLOR: "1", FORCE_COLOR: "0" },
      encoding: "utf8",
      timeout: 20 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    output.push(...result.stdout.replace(/\n$/, "").split("\n").map(asAttendeeSees));
    if (result.status !== expected) {
      return {
        part: step.part,
        commands: step.commands,
        output,
        seconds: (Date.now() - started) / 1000,
        failed: `"${command}" exited ${result.status ?? result.signal}${expected ? ` (the guide says ${expected})` : ""}: ${output.slice(-3).join(" / ")}`,
      };
    }
  }
  return {
    part: step.part,
    commands: step.commands,
    output,
    seconds: (Date.now() - started) / 1000,
  };
}

function partAfter(part: string, until: string): boolean {
  const first = Number.parseInt(part, 10);
  return Number.isFinite(first) && first > Number(until);
}

function printTimes(runs: Ran[]): void {
  const byPart = new Map<string, number>();
  for (const ran of runs) byPart.set(ran.part, (byPart.get(ran.part) ?? 0) + ran.seconds);
  console.log("time the commands took, by part:");
  for (const [part, seconds] of byPart) console.log(`  part ${part}: ${seconds.toFixed(0)} s`);
  const total = [...byPart.values()].reduce((a, b) => a + b, 0);
  console.log(`  all: ${(total / 60).toFixed(1)} min`);
}

main().then(
  (code) => {
    rmSync(labHome, { recursive: true, force: true });
    process.exit(code);
  },
  (err: Error) => {
    console.error(`guide: ${err.message}`);
    process.exit(2);
  },
);
