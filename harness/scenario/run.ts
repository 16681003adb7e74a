import { parseFailpoints } from "../../contract/failpoints.js";
import { DEFAULT_SETTINGS } from "../../contract/settings.js";
import { mappingsOf, onFifoQueue } from "../aws/deploy.js";
import type { DeployedLab } from "../aws/lab.js";
import { stopDelivering } from "../aws/switches.js";
import { type PhaseClocks, phaseClocks, testTimings } from "../aws/timings.js";
import { mappingConcurrency, profileOf } from "../backends/emulators.js";
import { invariantChecks, renamedCharges } from "../check/checks.js";
import { gatherPhaseFacts } from "../check/gather.js";
import { errorText, talkingTo, UsageError } from "../common/errors.js";
import { holdAt } from "../common/hold.js";
import { quiet, type Say } from "../common/say.js";
import { warmAhead } from "../drive/empty-batches.js";
import { startPollers } from "../drive/pollers.js";
import { prepareRun } from "../drive/prepare.js";
import { shipLateLogs } from "../observe/late-logs.js";
import { waitUntilEnded } from "../observe/observe.js";
import type { PhaseResult, ScenarioResult } from "./result.js";
import type { Phase, Scenario } from "./scenario.js";
import { bindWorkload } from "./workload.js";

/**
 * How long a phase waits for its messages to end: a minute, or longer where a dead-lettered
 * message needs that (every receive, each after a visibility timeout, then the move).
 */
function phaseTimeoutMs(lab: DeployedLab, clocks: PhaseClocks): number {
  const { maxReceiveCount } = testTimings(lab.backend);
  return Math.max(60_000, (maxReceiveCount + 3) * clocks.visibilityTimeoutSeconds * 1000);
}

export async function runScenario(
  scenario: Scenario,
  lab: DeployedLab | DeployedLab[],
  say: Say = quiet,
): Promise<ScenarioResult> {
  const started = Date.now();
  // Several labs (one emulator, other resource prefixes) run phases side by side; phases are
  // independent, each resets its own lab first.
  const lanes = Array.isArray(lab) ? lab : [lab];
  const [first] = lanes;
  if (!first) throw new UsageError("runScenario needs a lab");
  const phases: PhaseResult[] = new Array(scenario.phases.length);
  let next = 0;
  await Promise.all(
    lanes.map(async (lane) => {
      // The previous phase's pollers on this lane, until their last receive has come back.
      let quiet: Promise<void> = Promise.resolve();
      for (let index = next++; index < scenario.phases.length; index = next++) {
        const phase = scenario.phases[index] as Phase;
        say(`${scenario.name} · phase ${index + 1}/${scenario.phases.length}: ${phase.name}`);
        const ran = await talkingTo(lane.backend.endpoint, `phase "${phase.name}"`, () =>
          runPhase(phase, lane, say, quiet),
        );
        phases[index] = ran.result;
        quiet = ran.drained;
      }
      // Whatever runs next on this lab (another scenario, a command) sends into a quiet queue,
      // and until then nothing polls it (prepareRun turns delivery on again when it is needed).
      await quiet;
      try {
        await stopDelivering(lane.conn, mappingsOf(lane.deployment));
      } catch (err) {
        // Housekeeping: a mapping left on costs CPU, not correctness, and the phases ran.
        say(
          `could not turn off the mappings of ${lane.deployment.names.functionName}: ${errorText(err)}`,
        );
      }
    }),
  );
  return {
    scenario: scenario.name,
    title: scenario.title,
    story: scenario.story,
    backend: first.backend,
    phases,
    ...matrixOf(phases),
    pass: phases.every((p) => p.pass),
    durationMs: Date.now() - started,
  };
}

/** Rows and columns in the order the phases first name them. */
function matrixOf(phases: PhaseResult[]): Pick<ScenarioResult, "matrix"> {
  const cells = phases.flatMap((p) => (p.cell ? [p.cell] : []));
  if (cells.length === 0) return {};
  const rows = [...new Set(cells.map((c) => c.row))];
  const columns = [...new Set(cells.map((c) => c.column))];
  return { matrix: { rows, columns, cells } };
}

/**
 * One run of a phase: its workload, the wait for every message to end, and its checks. `quiet`
 * resolves once the lane's previous pollers can take nothing more (Pollers.drained); `drained`
 * says the same of this phase's.
 */
async function runPhase(
  phase: Phase,
  laneLab: DeployedLab,
  say: Say,
  quiet: Promise<void>,
): Promise<{ result: PhaseResult; drained: Promise<void> }> {
  const started = Date.now();
  const setup: PhaseResult["setup"] = { ...DEFAULT_SETTINGS, pollers: 0, ...phase.setup };
  // A FIFO phase sees the lab through its FIFO queue: sends, waits and drains go there.
  const lab =
    setup.queue === "fifo" ? { ...laneLab, deployment: onFifoQueue(laneLab.deployment) } : laneLab;
  const { conn, deployment } = lab;

  const warm = await prepareRun(lab, setup, setup);
  // Nothing of this phase is sent while a receive of the previous one may still take it.
  await quiet;

  // Log timestamps can trail the clock a little; the message-id filter keeps other runs out.
  const sinceMs = Date.now() - 5_000;
  const clocks = phaseClocks(lab.backend, setup);
  const timeoutMs = phase.timeoutMs ?? phaseTimeoutMs(lab, clocks);
  // A copy killed on purpose never logs its end: by FAULT, or by a failpoint that crashes.
  const crashes =
    setup.fault === "crash-after-claim" ||
    parseFailpoints(setup.failpoints).some((r) => r.action.kind === "crash");
  const waitOptions = {
    sinceMs,
    timeoutMs,
    // Every invocation, crashed ones too: a delivery that outlived its visibility can still run
    // after a later one removed the message, and its charge belongs to this phase.
    everyInvocationEnds: true,
    ledgerTable: deployment.names.ledgerTable,
    // The queue is this phase's alone: its last delivery is over only when the queue is empty.
    queueEmpties: true,
    deliveriesBeforeDlq: testTimings(lab.backend).maxReceiveCount,
    // A crashed copy, or a guard file that never returns: its invocation is over at the function
    // timeout, unlogged.
    ...(crashes || phase.guardMayHang
      ? { timedOutAfterMs: clocks.functionTimeoutSeconds * 1000 + 2_000 }
      : {}),
    ...(profileOf(lab.backend).lateLogs
      ? { shipLateLogs: () => shipLateLogs(conn, deployment.names.functionName) }
      : {}),
  };
  const pollers = setup.pollers > 0 ? startPollers(conn, deployment, setup.pollers) : undefined;
  // Harness pollers have their environments already; the mapping gets one as each send needs it.
  const warmFor =
    setup.pollers > 0
      ? async () => {}
      : warmAhead(conn, deployment.names.functionName, mappingConcurrency(lab.backend), warm);
  const { workload, sent, sends } = bindWorkload(
    conn,
    deployment,
    setup,
    clocks,
    waitOptions,
    warmFor,
    pollers?.stats,
  );

  let waited: Awaited<ReturnType<typeof waitUntilEnded>>;
  let answered: number | undefined;
  try {
    await phase.workload(workload);
    await holdAt("phase", say);
    waited = await waitUntilEnded(conn, deployment, sent, waitOptions);
  } finally {
    answered = (await pollers?.stop())?.answered;
  }
  if (answered !== undefined) {
    // A message can be acknowledged while another delivery of it still runs (its visibility
    // timeout ran out meanwhile). The pollers have stopped: wait for every invocation's lines.
    waited = await waitUntilEnded(conn, deployment, sent, {
      ...waitOptions,
      // Nothing takes from the queue now (the mapping is off while pollers run): what the first
      // wait left there stays, and waiting for it again would only add a timeout.
      queueEmpties: false,
      invocations: answered,
    });
  }
  const facts = await gatherPhaseFacts(
    conn,
    deployment,
    sent,
    waited.events,
    waited.deadLettered,
    sends(),
  );
  const { events } = waited;
  const cell = phase.cell && {
    row: phase.cell.row,
    column: phase.cell.column,
    ...phase.cell.judge(facts),
  };
  const checks = [
    ...invariantChecks(
      facts,
      waited.missing.map((m) => m.messageId),
    ),
    ...phase.checks(facts),
  ];
  if (waited.missing.length > 0) {
    say(
      `  ${waited.missing.length} message(s) had not ended after ${(timeoutMs / 1000).toFixed(0)} s`,
    );
  }
  const renamed = renamedCharges(facts);
  const result: PhaseResult = {
    name: phase.name,
    setup,
    sent: facts.sent,
    observed: facts.observed,
    wait: { ms: waited.waitedMs, missing: waited.missing, lateLogNudges: waited.nudges },
    checks,
    ...(renamed.length > 0 ? { renamedCharges: renamed } : {}),
    ...(cell ? { cell } : {}),
    timeline: events,
    pass: checks.every((c) => c.pass),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
  };
  return { result, drained: pollers?.drained ?? Promise.resolve() };
}
