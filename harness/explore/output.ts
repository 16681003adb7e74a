// What the explorer prints: a line per guard, and for a guard that failed its shortest schedule
// step by step, with the scenarios' own views (the text timeline, and an HTML page drawn by
// harness/report as a phase of a scenario).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BackendInfo } from "../backends/backend.js";
import { intendedOutcomes } from "../check/outcomes.js";
import type { SentMessage } from "../drive/send.js";
import { chargeSummary, chargesByOrder, countsByType } from "../observe/insights.js";
import { invocationIntervals, maxConcurrency } from "../observe/overlap.js";
import { htmlPage } from "../report/html/page.js";
import { textTimeline } from "../report/text.js";
import { reportView } from "../report/views.js";
import type { PhaseResult, ScenarioResult } from "../scenario/result.js";
import { type Budget, FAIL_AT } from "./budget.js";
import type { Counterexample, GuardReport } from "./explore.js";
import type { CopyHung } from "./gates.js";
import { EXPLORE_TIMINGS } from "./guards.js";
import type { Step } from "./narration.js";
import type { ScheduleRun } from "./schedule-run.js";

const count = (n: number) => n.toLocaleString("en-US");
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** "at most one fault", "at most 1 death, 1 failed charge, 1 clock jump". */
export function faultsText(budget: Budget): string {
  const { deaths, fails, jumps, losses, total } = budget;
  const each = `${deaths} death${deaths === 1 ? "" : "s"}, ${fails} failed charge${fails === 1 ? "" : "s"}, ${jumps} clock jump${jumps === 1 ? "" : "s"}, ${losses} lost answer${losses === 1 ? "" : "s"}`;
  if (total === undefined) return `at most ${each}`;
  return `at most ${total} fault${total === 1 ? "" : "s"} (of ${each})`;
}

/** How many schedules each driver ran: "180 (every schedule of 2 copies, …) + 1,500 random of 3 copies (seed 1)". */
function drivers(report: GuardReport): string {
  const parts: string[] = [];
  const { walk, sample } = report;
  if (walk) {
    const total = walk.budget.total;
    const faults = total === undefined ? "" : `, at most ${total} fault${total === 1 ? "" : "s"}`;
    parts.push(
      walk.complete
        ? `${count(walk.schedules)} (every schedule of 2 copies${faults})`
        : `${count(walk.schedules)} of 2 copies${faults} (the walk stopped at its limit)`,
    );
  }
  if (sample) {
    parts.push(
      `${count(sample.schedules)} random of ${sample.copies} copies (seed ${sample.seed})`,
    );
  }
  return parts.join(" + ");
}

/**
 * One line per guard: schedules checked, and whether it held. ✓ as the lab teaches, ✗ not, and
 * ! for a failure the lab's lessons do not show but the explorer knows of (Explored.beyond),
 * with the finding on the lines below.
 */
export function guardLine(report: GuardReport, width = 12): string {
  return `${guardMark(report)} ${report.explored.name.padEnd(width)} ${guardSummary(report, width)}`;
}

/** ✓ as the lab teaches, ✗ not, ! a failure only the explorer knows of. */
export const guardMark = (report: GuardReport): "✓" | "✗" | "!" =>
  !report.asExpected ? "✗" : report.findings.length > 0 ? "!" : "✓";

/** The line after the guard's mark and name; a finding goes on a line of its own, indented. */
export function guardSummary(report: GuardReport, width = 12): string {
  const { explored, schedules, failing, kinds, findings, ms } = report;
  // Every run counts for the rate, the ones spent shrinking a failure too.
  const runs = schedules + (report.sample?.shrinks ?? 0);
  const rate = ms > 0 ? `, ${Math.round((runs / ms) * 1000)} schedules/s` : "";
  const timing = `(${secs(ms)}${rate})`;
  if (failing === 0) {
    const verdict = `exactly once in all ${count(schedules)} schedules: ${drivers(report)}`;
    const note =
      explored.expect === "holds" ? "" : ` (expected to fail: ${explored.expect.join(" or ")})`;
    return `${verdict}${note} ${timing}${disagreementLine(report, width)}${aroundLine(report, width)}`;
  }
  const taught = explored.expect === "holds" ? [] : explored.expect;
  const expected =
    findings.length > 0 && report.asExpected
      ? ""
      : explored.expect === "holds"
        ? " (expected to hold)"
        : report.asExpected
          ? " as expected"
          : ` (expected ${taught.join(" or ")})`;
  const line = `${kinds.join(", ")}${expected} in ${count(failing)} of ${count(schedules)} schedules: ${drivers(report)} ${timing}`;
  const finding = explored.beyond && findings.length > 0 ? explored.beyond.finding : undefined;
  const withFinding = finding
    ? `${line}\n  ${" ".repeat(width)}a finding beyond the lab's lessons: ${finding}`
    : line;
  return withFinding + disagreementLine(report, width) + aroundLine(report, width);
}

/** Calls the explorer did not see: its "all schedules" did not cover them. */
function aroundLine({ wentAround, schedules, around }: GuardReport, width: number) {
  if (!around) return "";
  const calls = around.map((a) => `${a.who} ${a.operation}`).join(", ");
  return `\n  ${" ".repeat(width)}calls went around the explorer in ${count(wentAround)} of ${count(schedules)} schedules (${calls}): a DynamoDB request not made through the AWS SDK the project installs; the explorer could not choose when they happened`;
}

/** The log and the ledger disagreed: what the copies said is not what was charged. */
function disagreementLine({ disagreed, schedules, disagreement: d }: GuardReport, width: number) {
  if (!d) return "";
  const ids = (list: string[]) => `[${list.join(", ")}]`;
  return `\n  ${" ".repeat(width)}a finding: in ${count(disagreed)} of ${count(schedules)} schedules the charge_applied lines name other charges than the ledger holds (${d.orderId}: logged ${ids(d.loggedOnly)}, recorded ${ids(d.recordedOnly)}); the verdict counts the ledger. A guard that records its charge under a key of its own: its charge_applied line names the chargeId the worker made`;
}

/** The shortest failing schedule as a numbered list: who, what, what it logged. */
export function stepLines(run: ScheduleRun): string[] {
  const width = Math.max(...run.steps.map((s) => s.who.length));
  const digits = String(run.steps.length).length;
  return run.steps.flatMap((step) => [
    `${String(step.n).padStart(digits)}. ${step.who.padEnd(width)}  ${step.what}${logged(step)}`,
    ...step.notes.map((note) => `${" ".repeat(digits + 2)}${" ".repeat(width)}  ↳ ${note}`),
  ]);
}

function logged(step: Step): string {
  const said = step.events
    .filter((e) => e.type !== "failpoint")
    .map((e) => {
      if (e.type === "process_end") return `process_end: ${e.outcome}`;
      if (e.type === "claim_won" && e.tookOverFrom)
        return `claim_won (took over from ${String(e.from)})`;
      return e.type;
    });
  return said.length > 0 ? `  → ${said.join(", ")}` : "";
}

/**
 * A counterexample for the terminal: its kind, its steps, and the timeline of its log lines.
 * `replay`: what picks the guard on explore's command line (--guard NAME, --guard-file FILE);
 * null when no command line runs it the same way (a lab guard as grade explores it).
 */
export function counterexampleText(
  report: GuardReport,
  htmlFile?: string,
  replay: string | null = `--guard ${report.explored.name}`,
): string {
  const run = report.counterexample;
  if (!run) return "";
  const out = [
    `  shortest counterexample (${run.faults === 0 ? "no fault" : `${run.faults} fault${run.faults === 1 ? "" : "s"}`}, ${run.steps.length} steps, ${run.copies} copies of ${run.orderId}): ${run.verdict.kinds.join(", ")}: ${run.verdict.said}`,
    ...stepLines(run).map((line) => `    ${line}`),
    "",
    textTimeline(run.events).replace(/^/gm, "    "),
  ];
  if (replay !== null) out.push(`    replay: ${replayCommand(run, replay)}`);
  if (htmlFile) out.push(`    timeline: ${htmlFile}`);
  return out.join("\n");
}

/** The counterexample as a scenario phase, so harness/report draws it like any other. */
export function counterexampleResult(
  report: GuardReport,
  backend: BackendInfo,
): ScenarioResult | undefined {
  const run = report.counterexample;
  if (!run) return undefined;
  const { explored } = report;
  const sent: SentMessage[] = run.messageIds.map((messageId, i) => ({
    messageId,
    body: run.bodies[i] ?? "",
    intendedOrderId: run.orderId,
    copy: i + 1,
  }));
  const { events, end } = run;
  const stuck = [
    end.claim?.status === "CLAIMED" ? "CLAIMED" : "",
    ...end.powertools.map((r) => (r.status === "INPROGRESS" ? "INPROGRESS" : "")),
  ].filter(Boolean);
  const phase: PhaseResult = {
    name: `${explored.name}: ${run.verdict.kinds.join(", ")} in ${run.steps.length} steps`,
    scheduledByExplorer: true,
    setup: {
      guard: explored.guard,
      parseMode: "lenient",
      fault: "none",
      workMs: 0,
      pollers: 0,
      ...(explored.leaseMs === undefined ? {} : { leaseMs: explored.leaseMs }),
      ...(explored.leaseDefences ? { leaseDefences: explored.leaseDefences } : {}),
      visibilitySeconds: EXPLORE_TIMINGS.visibilityTimeoutSeconds,
      functionTimeoutSeconds: EXPLORE_TIMINGS.functionTimeoutSeconds,
    },
    sent: {
      messages: sent.length,
      sends: sent.length,
      messageIds: run.messageIds,
      orderIds: [run.orderId],
      bodies: [...new Set(run.bodies)],
    },
    observed: {
      eventCounts: countsByType(events),
      charges: chargeSummary(events),
      chargesByOrder: chargesByOrder(events),
      intended: intendedOutcomes(sent, events, new Set(run.deadLettered)),
      claims: end.claim ? [end.claim] : [],
      ledger: end.ledger.length,
      dlq: run.deadLettered.length,
      maxConcurrency: maxConcurrency(invocationIntervals(events)),
    },
    wait: { ms: 0, missing: [], lateLogNudges: 0 },
    checks: [
      {
        name: "charged exactly once",
        pass: end.ledger.length === 1,
        expected: 1,
        actual: end.ledger.length,
      },
      {
        name: "nothing left held",
        pass: stuck.length === 0,
        expected: "nothing",
        actual: stuck.join(", ") || "nothing",
      },
    ],
    timeline: events,
    pass: false,
    // The schedule's own clock: one virtual second a step, from its first event.
    startedAt: events[0]?.ts ?? new Date(0).toISOString(),
    durationMs: 0,
  };
  const schedules = `${count(report.schedules)} schedules`;
  return {
    scenario: `explore ${explored.name}`,
    title: `the shortest schedule that breaks ${explored.name}`,
    story: `${explored.lesson}. The explorer ran the real guard for ${run.copies} copies of one order against the emulator's DynamoDB, choosing every step; of ${schedules}, ${count(report.failing)} failed. This is the shortest: each second of the timeline is one step (a call, a failpoint, a crash, a clock jump or a redelivery).`,
    backend,
    phases: [phase],
    pass: false,
    durationMs: report.ms,
  };
}

/** Writes the counterexample's page under `dir` (lease/none → lease-none.html); its path. */
export function writeCounterexampleHtml(
  dir: string,
  report: GuardReport,
  backend: BackendInfo,
): string | undefined {
  const result = counterexampleResult(report, backend);
  const run = report.counterexample;
  if (!result || !run) return undefined;
  const view = reportView(result);
  // The page's "step by step" is the explorer's numbered schedule, not only the log lines.
  const phases = view.phases.map((p) => ({ ...p, steps: stepLines(run) }));
  const file = path.join(dir, `${report.explored.name.replace(/\//g, "-")}.html`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, htmlPage({ ...view, phases }));
  return file;
}

/** A guard file's copy that never reached a gate: what a person reads instead of a stack. */
export function hungLine(err: CopyHung): string {
  return `the guard never returned: ${err.copies.join(", ")} ran ${(err.ms / 1000).toFixed(0)} s without a DynamoDB call, a failpoint or an answer (Lambda would have timed it out after ${EXPLORE_TIMINGS.functionTimeoutSeconds} s)`;
}

/**
 * The command that runs this counterexample again, step for step: its picks, and the copies,
 * fault budget and failpoints that decided which options each choice had.
 */
export function replayCommand(run: Counterexample, guard: string): string {
  const { deaths, fails, jumps, losses, total } = run.budget;
  const faults = [deaths, fails, jumps, losses, ...(total === undefined ? [] : [total])].join(",");
  const failAt =
    run.failAt.join(",") === FAIL_AT.join(",") ? "" : ` --fail-at ${run.failAt.join(",")}`;
  const picks = run.trace.map((c) => c.pick).join(",");
  return `npx lab explore ${guard} --copies ${run.copies} --faults ${faults}${failAt} --replay ${picks}`;
}
