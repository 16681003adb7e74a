// What `npx lab explore` does once its flags are read (commands/explore.ts): the chosen guards
// explored on the emulator's DynamoDB, or one schedule replayed; the explorer's tables deleted and
// the backend stopped at the end or on Ctrl-C.
import path from "node:path";
import type { FailpointName } from "../../contract/failpoints.js";
import { guardFileAt } from "../aws/guard-file.js";
import { DEFAULT_PREFIX, labNames } from "../aws/names.js";
import { backendInfo, type RunningBackend } from "../backends/backend.js";
import { chooseBackend } from "../backends/choose.js";
import { EXIT, UsageError } from "../common/errors.js";
import { cleanUpOnInterrupt } from "../common/interrupt.js";
import { labRegion } from "../common/region.js";
import { say } from "../common/say.js";
import type { Budget } from "../explore/budget.js";
import { type EXPLORE_BUDGET_NAMES, EXPLORE_BUDGETS } from "../explore/budgets.js";
import { following } from "../explore/choices.js";
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
import { runSchedule } from "../explore/schedule.js";
import { openSession, type Session } from "../explore/session.js";

/** The flags, as commands/explore.ts reads them. */
export interface ExploreCliOptions {
  guard?: string;
  guardFile?: string;
  copies: number;
  runs?: number;
  seed?: number;
  budget: (typeof EXPLORE_BUDGET_NAMES)[number];
  walkLimit?: number;
  walkFaults?: number;
  faults: Budget;
  failAt: FailpointName[];
  lanes: number;
  htmlDir: string;
  replay?: number[];
  strict?: boolean;
}

export async function exploreRun(options: ExploreCliOptions): Promise<number> {
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
  let backend: RunningBackend | undefined;
  let session: Session | undefined;
  const stop = async () => {
    await session?.close();
    await backend?.stop();
  };
  // Before anything starts: an interrupt while MiniStack starts stops it too.
  cleanUpOnInterrupt(say, "deleting the explorer's tables and stopping the backend", stop);
  backend = await chooseBackend(say);
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
const replayArg = (cli: ExploreCliOptions, explored: Explored) =>
  cli.guardFile === undefined ? `--guard ${explored.name}` : `--guard-file ${cli.guardFile}`;

async function exploreAll(
  session: Session,
  backend: RunningBackend,
  chosen: Explored[],
  cli: ExploreCliOptions,
): Promise<number> {
  const budget = EXPLORE_BUDGETS[cli.budget];
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
      const file = writeCounterexampleHtml(cli.htmlDir, report, backendInfo(backend));
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

async function replay(
  session: Session,
  explored: Explored,
  cli: ExploreCliOptions,
): Promise<number> {
  const run = await runSchedule(
    session,
    { explored, copies: cli.copies, budget: cli.faults, failAt: cli.failAt },
    following(cli.replay ?? []),
  );
  console.log(`${explored.name}, ${run.copies} copies of ${run.orderId}: ${run.verdict.said}`);
  for (const line of stepLines(run)) console.log(`  ${line}`);
  return run.verdict.kinds.length === 0 ? EXIT.held : EXIT.checkFailed;
}
