// npm run explore [-- --guard lease,powertools] [--copies 3] [--runs N] [--seed S] [--budget small]
// npm run explore -- --guard-file ./my-guard.ts: a guard of your own, expected to hold.
// Every interleaving of the real guards, checked (docs/design.md §5, issue 18): for each guard,
// the schedules checked and "exactly once in all", or the shortest counterexample.
// Exit codes: 0 every guard did what the lab teaches (the broken ones fail, the fixed ones hold),
// 1 one did not, 2 a usage error, 3 the lab could not run.
import path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { FAILPOINT_NAMES, type FailpointName } from "../../contract/failpoints.js";
import { guardFileAt } from "../aws/guard-file.js";
import { DEFAULT_PREFIX, labNames } from "../aws/names.js";
import type { RunningBackend } from "../backends/backend.js";
import { chooseBackend } from "../backends/choose.js";
import { EXIT, UsageError } from "../common/errors.js";
import { LAB_DIR } from "../common/paths.js";
import { labRegion } from "../common/region.js";
import { say } from "../common/say.js";
import { type ExploreOptions, exploreGuard, type GuardReport } from "../explore/explore.js";
import { CopyHung } from "../explore/gates.js";
import { loadGuardFile } from "../explore/guard-file.js";
import { chooseExplored, type Explored, gradedExplored } from "../explore/guards.js";
import {
  counterexampleText,
  faultsText,
  guardLine,
  hungLine,
  stepLines,
  writeCounterexampleHtml,
} from "../explore/output.js";
import { DEFAULT_BUDGET, FAIL_AT, following, runSchedule } from "../explore/schedule.js";
import { openSession, type Session } from "../explore/session.js";
import { exitWith } from "./exit.js";

/**
 * How much to run. full: every schedule of two copies with one fault, then 2,000 random ones of
 * three copies with up to three (about a minute on MiniStack); deep: two faults in the walk
 * (thousands of schedules per lease setting) and 5,000 random (several minutes); small: a quick look.
 */
const BUDGETS = {
  full: { runs: 2000, walkFaults: 1, walkLimit: 50_000 },
  deep: { runs: 5000, walkFaults: 2, walkLimit: 200_000 },
  small: { runs: 30, walkFaults: 1, walkLimit: 2_000 },
} as const;

const whole = (name: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(
      `${name} must be a whole number from ${min} to ${max}, got "${value}"`,
    );
  }
  return n;
};

/** Losses go higher than the rest: the SDK gives up only once every attempt of a call is lost. */
const MAX_FAULTS = { each: 3, losses: 6 };

function parseFaults(value: string) {
  const parts = value.split(",").map(Number);
  const [deaths = 0, fails = 0, jumps = 0, losses = 0] = parts;
  const within = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;
  if (
    parts.length < 3 ||
    parts.length > 4 ||
    ![deaths, fails, jumps].every((n) => within(n, MAX_FAULTS.each)) ||
    !within(losses, MAX_FAULTS.losses)
  ) {
    throw new InvalidArgumentError(
      `--faults is deaths,fails,jumps[,losses], each 0 to ${MAX_FAULTS.each}, losses 0 to ${MAX_FAULTS.losses} (e.g. 1,1,1,1); got "${value}"`,
    );
  }
  return { deaths, fails, jumps, losses };
}

function parsePoints(value: string): FailpointName[] {
  const points = value.split(",").map((p) => p.trim());
  const unknown = points.filter((p) => !(FAILPOINT_NAMES as readonly string[]).includes(p));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `not a failpoint: ${unknown.join(", ")}; the points are ${FAILPOINT_NAMES.join(", ")}`,
    );
  }
  return points as FailpointName[];
}

function parsePicks(value: string): number[] {
  const picks = value
    .split(",")
    .filter((p) => p !== "")
    .map(Number);
  if (picks.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new InvalidArgumentError(
      `--replay takes the picks a counterexample printed (0,2,1,…); got "${value}"`,
    );
  }
  return picks;
}

interface CliOptions {
  guard?: string;
  guardFile?: string;
  copies: number;
  runs?: number;
  seed?: number;
  budget: keyof typeof BUDGETS;
  walkLimit?: number;
  walkFaults?: number;
  faults: typeof DEFAULT_BUDGET;
  failAt: FailpointName[];
  lanes: number;
  htmlDir: string;
  replay?: number[];
  strict?: boolean;
}

const program = new Command("explore")
  .description(
    "Every interleaving of the real guards, checked: copies of one order through worker/guards against the emulator's DynamoDB, every DynamoDB call and failpoint a scheduled step, crashes, failed charges, lost answers with the SDK's retries, clock jumps and SQS redeliveries included.",
  )
  .option(
    "--guard <names>",
    "guards, comma-separated: off, naive, claim, lease (all three), lease/both, lease/fence, lease/none, powertools (default: all)",
  )
  .option(
    "--guard-file <file>",
    "a guard of your own (export default defineGuard(…)): type-checked, loaded, expected to hold",
  )
  .addOption(
    new Option(
      "--copies <n>",
      "copies of the order in the random schedules (the exhaustive walk always runs two)",
    )
      .argParser(whole("--copies", 2, 3))
      .default(3),
  )
  .option(
    "--runs <n>",
    "random schedules per guard (default: by --budget)",
    whole("--runs", 0, 1_000_000),
  )
  .option(
    "--seed <n>",
    "fast-check's seed (default: a fresh one, printed)",
    whole("--seed", 0, 2 ** 31 - 1),
  )
  .addOption(
    new Option("--budget <size>", "how much to run").choices(Object.keys(BUDGETS)).default("full"),
  )
  .option(
    "--walk-limit <n>",
    "most schedules of the exhaustive walk; 0: no walk (default: by --budget)",
    whole("--walk-limit", 0, 10_000_000),
  )
  .addOption(
    new Option(
      "--faults <d,f,j[,l]>",
      "at most, per schedule: deaths (crashes and timeouts), failed charges, clock jumps, losses (a DynamoDB request or answer, or the payment's answer, lost; 0 if not given)",
    )
      .argParser(parseFaults)
      .default({ ...DEFAULT_BUDGET }, "1,1,1,1"),
  )
  .addOption(
    new Option("--fail-at <points>", "failpoints that may throw, comma-separated")
      .argParser(parsePoints)
      .default([...FAIL_AT], FAIL_AT.join(",")),
  )
  .option("--lanes <n>", "schedules run side by side", whole("--lanes", 1, 64), 4)
  .option(
    "--html-dir <dir>",
    "where each counterexample's HTML timeline goes",
    path.join(LAB_DIR, "explore"),
  )
  .option(
    "--replay <picks>",
    "run one schedule of one guard, following these picks, and print it",
    parsePicks,
  )
  .option(
    "--walk-faults <n>",
    "the walk's cap on faults of any kind together (default: by --budget)",
    whole("--walk-faults", 0, 9),
  )
  .option("--strict", "count the explorer's findings beyond the lab's lessons as failures too")
  .showSuggestionAfterError(true)
  .exitOverride()
  .configureOutput({
    outputError: (text, write) => write(`explore: ${text.replace(/^error: /, "")}`),
  });

async function main(argv: string[]): Promise<number> {
  program.parse(argv, { from: "user" });
  const options = program.opts<CliOptions>();
  if (options.guard !== undefined && options.guardFile !== undefined)
    throw new UsageError("--guard or --guard-file, not both");
  // A guard file that does not compile, or exports no function, stops here (exit 2).
  const chosen =
    options.guardFile === undefined
      ? chooseExplored(options.guard)
      : [await guardFileExplored(options.guardFile)];
  if (options.replay && chosen.length !== 1)
    throw new UsageError("--replay needs exactly one --guard");
  const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
  labNames(prefix); // checks LAB_PREFIX before anything starts
  const backend = await chooseBackend(say);
  let session: Session | undefined;
  const stop = async () => {
    await session?.close();
    await backend.stop();
  };
  const interrupted = () => {
    say("interrupted: deleting the explorer's tables and stopping the backend");
    void stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    session = await openSession(backend.endpoint, { prefix, region: labRegion() });
    say(
      `tables ${session.tables.claims}, ${session.tables.ledger}, ${session.tables.powertools} (deleted at the end)`,
    );
    if (options.replay) return await replay(session, chosen[0] as Explored, options);
    return await exploreAll(session, backend, chosen, options);
  } finally {
    await stop();
  }
}

/** The guard file's entry: its default export, loaded in this process. */
async function guardFileExplored(given: string): Promise<Explored> {
  const file = guardFileAt(given);
  return gradedExplored(file.name, await loadGuardFile(file));
}

/** What picks this guard on the command line, for a counterexample's replay line. */
const replayArg = (cli: CliOptions, explored: Explored) =>
  cli.guardFile === undefined ? `--guard ${explored.name}` : `--guard-file ${cli.guardFile}`;

async function exploreAll(
  session: Session,
  backend: RunningBackend,
  chosen: Explored[],
  cli: CliOptions,
): Promise<number> {
  const budget = BUDGETS[cli.budget];
  const seed = cli.seed ?? Math.floor(Math.random() * 2 ** 31);
  const options: ExploreOptions = {
    copies: cli.copies,
    runs: cli.runs ?? budget.runs,
    seed,
    budget: cli.faults,
    walkLimit: cli.walkLimit ?? budget.walkLimit,
    walkFaults: cli.walkFaults ?? budget.walkFaults,
    lanes: cli.lanes,
    failAt: cli.failAt,
    strict: cli.strict ?? false,
  };
  const walk = `every schedule of 2 copies with at most ${options.walkFaults} fault(s) (up to ${options.walkLimit.toLocaleString("en-US")})`;
  console.log(
    `explore: ${chosen.length} guard setting(s) on ${backend.name} ${backend.version}: ${walk}, then ${options.runs.toLocaleString("en-US")} random schedules of ${options.copies} copies (seed ${seed}); faults: ${faultsText(options.budget)} (deaths: crashes and timeouts; charges fail at ${options.failAt?.join(", ")}; losses: a DynamoDB answer or request, or the payment's answer, then the SDK's retries, ${session.retries.maxAttempts} attempts in ${session.retries.retryMode} mode as the worker's client)`,
  );
  const width = Math.max(...chosen.map((e) => e.name.length));
  const reports: GuardReport[] = [];
  const started = performance.now();
  let hung = 0;
  for (const explored of chosen) {
    let told = performance.now();
    let report: GuardReport;
    try {
      report = await exploreGuard(session, explored, options, (found, driver) => {
        if (performance.now() - told < 5_000) return;
        told = performance.now();
        say(
          `${explored.name}: ${driver === "walk" ? "every schedule" : "random"}: ${found.schedules} so far, ${found.failing} failing`,
        );
      });
    } catch (err) {
      if (!(err instanceof CopyHung)) throw err;
      console.log(`✗ ${explored.name.padEnd(width)} ${hungLine(err)}`);
      hung++;
      continue;
    }
    reports.push(report);
    console.log(guardLine(report, width));
    if (report.counterexample) {
      const info = {
        name: backend.name,
        emulator: backend.emulator,
        version: backend.version,
        endpoint: backend.endpoint,
        startedByLab: backend.startedByLab ?? false,
      };
      const file = writeCounterexampleHtml(cli.htmlDir, report, info);
      console.log(
        counterexampleText(
          report,
          file && path.relative(process.cwd(), file),
          replayArg(cli, explored),
        ),
      );
    }
  }
  const ms = performance.now() - started;
  const schedules = reports.reduce((n, r) => n + r.schedules, 0);
  const unexpected = reports.filter((r) => !r.asExpected);
  if (hung > 0) {
    console.log(`explore: ${hung} guard(s) never returned`);
    return EXIT.checkFailed;
  }
  const findings = reports.filter((r) => r.asExpected && r.findings.length > 0);
  const verdict =
    unexpected.length === 0
      ? "every guard did what the lab teaches"
      : `not as the lab teaches: ${unexpected.map((r) => r.explored.name).join(", ")}`;
  const beyond =
    findings.length === 0
      ? ""
      : `; findings beyond its lessons: ${findings.map((r) => `${r.explored.name} ${r.findings.join(", ")}`).join("; ")} (--strict fails on them)`;
  console.log(
    `explore: ${schedules.toLocaleString("en-US")} schedules in ${(ms / 1000).toFixed(1)} s (${Math.round((schedules / ms) * 1000)}/s); ${verdict}${beyond}`,
  );
  return unexpected.length === 0 ? EXIT.held : EXIT.checkFailed;
}

async function replay(session: Session, explored: Explored, cli: CliOptions): Promise<number> {
  const run = await runSchedule(
    session,
    { explored, copies: cli.copies, budget: cli.faults, failAt: cli.failAt },
    following(cli.replay ?? []),
  );
  console.log(`${explored.name}, ${run.copies} copies of ${run.orderId}: ${run.verdict.said}`);
  for (const line of stepLines(run)) console.log(`  ${line}`);
  return run.verdict.kinds.length === 0 ? EXIT.held : EXIT.checkFailed;
}

main(process.argv.slice(2)).then((code) => process.exit(code), exitWith("explore"));
