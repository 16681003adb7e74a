// What a scenario test file needs: a connection to the shared backend, one lane of the lab,
// and the assertions every scenario result must pass.
import { type ExpectStatic, expect as expectOfFile, inject, test } from "vitest";
import { connect } from "../../harness/aws/connection.js";
import type { DeployedLab } from "../../harness/aws/lab.js";
import { isLocalStack } from "../../harness/backends/emulators.js";
import {
  deliveriesAfterAcknowledged,
  unendedDeliveries,
} from "../../harness/observe/deliveries.js";
import type { PhaseResult, ScenarioResult } from "../../harness/scenario/result.js";
import { runScenario } from "../../harness/scenario/run.js";
import { findScenario } from "../../scenarios/index.js";
import { emulatorLogsBetween } from "./emulator-logs.js";
import { type LANES, lanesOf } from "./lanes.js";
import "./provided.js";

/** The labs a test file runs on: all its lanes, or on LocalStack as many as LOCALSTACK_LANES says. */
export function labsFor(file: keyof typeof LANES): DeployedLab[] {
  const { backend } = inject("lab");
  return lanesOf(file, isLocalStack(backend)).map((lane) => labOnLane(lane));
}

/**
 * A test that may wait for a group of lanes: its clock runs while it waits, so it gets the time
 * of the scenarios queued before it too (180 s each, the project's testTimeout) and then its own.
 */
export const QUEUED_TEST_TIMEOUT_MS = 600_000;

/**
 * The file's lanes in groups of `perGroup`, and a way to run work on a group no other test of
 * the file is using, once one is free: a file's scenarios then run side by side (test.concurrent),
 * as many at once as it has groups (on LocalStack, with fewer lanes, often one: in turn). They
 * mostly wait for SQS's clocks, so side by side they cost wall time, not CPU.
 */
export function laneGroups(lanes: DeployedLab[], perGroup: number) {
  const free: DeployedLab[][] = [];
  for (let i = 0; i < lanes.length; i += perGroup) free.push(lanes.slice(i, i + perGroup));
  free.reverse(); // pop() hands out the file's first lanes first
  const waiting: ((group: DeployedLab[]) => void)[] = [];
  return async function onFreeLanes<T>(work: (group: DeployedLab[]) => Promise<T>): Promise<T> {
    const group = free.pop() ?? (await new Promise<DeployedLab[]>((take) => waiting.push(take)));
    try {
      return await work(group);
    } finally {
      const next = waiting.shift();
      if (next) next(group);
      else free.push(group);
    }
  };
}

/** Runs work on lanes of the file's when they are free: laneGroups' answer, or a file's own. */
export type OnLanes = ReturnType<typeof laneGroups>;

/**
 * A test per scenario of the catalogue, side by side, each run on the lanes `on` hands it; a
 * test passes only when every check of every phase holds, told in that test.
 */
export function scenarioTests(scenarios: readonly { name: string; on: OnLanes }[]): void {
  for (const { name, on } of scenarios) {
    test.concurrent(
      name,
      async ({ expect }) => {
        const scenario = findScenario(name);
        if (!scenario) throw new Error(`${name} is missing from the catalogue`);
        const result = await on((lanes) => runScenario(scenario, lanes));
        expectEveryCheckHolds(result, scenario.phases.length, expect);
      },
      QUEUED_TEST_TIMEOUT_MS,
    );
  }
}

export function labOnLane(lane: number): DeployedLab {
  const provided = inject("lab");
  const deployment = provided.lanes[lane];
  if (!deployment)
    throw new Error(`lane ${lane} is not deployed on ${provided.backend.name} (lanes.ts)`);
  const { backend } = provided;
  return {
    conn: connect(backend.endpoint, { startedByLab: backend.startedByLab }),
    deployment,
    backend,
  };
}

/**
 * Every check of every phase, reported one by one, then the whole. A concurrent test passes its
 * context's `expect`, so a failure is told in that test, not in another running beside it.
 */
export function expectEveryCheckHolds(
  result: ScenarioResult,
  phases: number,
  expect: ExpectStatic = expectOfFile,
) {
  expect(result.phases).toHaveLength(phases);
  expectContractShape(result, expect);
  for (const phase of result.phases) {
    for (const check of phase.checks) {
      expect
        .soft(
          check.pass,
          `${phase.name} › ${check.name}: expected ${JSON.stringify(check.expected)}, got ${JSON.stringify(check.actual)}${check.pass ? "" : evidence(phase, result.backend)}`,
        )
        .toBe(true);
    }
  }
  expect(result.pass).toBe(true);
}

/** The --json result shape of docs/design.md §6, which tools outside these tests read. */
function expectContractShape(result: ScenarioResult, expect: ExpectStatic) {
  expect(result).toMatchObject({
    scenario: expect.any(String),
    backend: {
      name: expect.any(String),
      version: expect.any(String),
      endpoint: expect.any(String),
    },
    pass: expect.any(Boolean),
    durationMs: expect.any(Number),
  });
  for (const phase of result.phases) {
    expect(phase).toMatchObject({
      name: expect.any(String),
      setup: {
        guard: expect.any(String),
        parseMode: expect.any(String),
        fault: expect.any(String),
        workMs: expect.any(Number),
        pollers: expect.any(Number),
      },
      sent: {
        messages: expect.any(Number),
        messageIds: expect.any(Array),
        orderIds: expect.any(Array),
      },
      observed: {
        eventCounts: expect.any(Object),
        charges: {
          charges: expect.any(Number),
          orders: expect.any(Number),
          messages: expect.any(Number),
        },
        chargesByOrder: expect.any(Object),
        claims: expect.any(Array),
        ledger: expect.any(Number),
        dlq: expect.any(Number),
        maxConcurrency: expect.any(Number),
      },
    });
    for (const check of phase.checks) {
      const keys = ["name", "pass", "expected", "actual"];
      expect(Object.keys(check)).toEqual(check.id === undefined ? keys : ["id", ...keys]);
    }
  }
}

/** Each failed phase's evidence, made once however many of its checks failed. */
const evidenceOf = new WeakMap<PhaseResult, string>();

export function evidence(phase: PhaseResult, backend: ScenarioResult["backend"]): string {
  const known = evidenceOf.get(phase);
  if (known !== undefined) return known;
  const text = evidenceText(phase, backend);
  evidenceOf.set(phase, text);
  return text;
}

/**
 * What a failed phase saw, to read in the test output: what was missing, the deliveries that
 * never ended (a planned crash, or one Lambda killed past its timeout), and every event. The
 * backend is the result's own: the Docker project's tests have no shared lab to inject.
 */
function evidenceText(phase: PhaseResult, backend: ScenarioResult["backend"]): string {
  const missing = phase.wait.missing.map((m) => `${m.messageId} (last: ${m.lastEvent})`);
  const delivery = (e: PhaseResult["timeline"][number]) =>
    `${e.requestId.slice(0, 8)} (attempt ${e.type === "process_start" ? e.attempt : "?"})`;
  const unended = unendedDeliveries(phase.timeline).map(delivery);
  const late = deliveriesAfterAcknowledged(phase.timeline).map(delivery);
  const events = phase.timeline.map(
    (e) =>
      `  ${e.ts} ${e.requestId.slice(0, 8)} ${e.messageId.slice(0, 8)} ${e.type}${e.type === "process_start" ? ` attempt ${e.attempt}` : ""}${e.type === "process_end" ? ` ${e.outcome}` : ""}`,
  );
  const ended = new Date(Date.parse(phase.startedAt) + phase.durationMs).toISOString();
  const emulator =
    isLocalStack(backend) && unended.length + missing.length > 0
      ? emulatorLogsBetween(backend.endpoint, phase.startedAt, ended)
      : "";
  return (
    [
      `\nwaited ${phase.wait.ms} ms; not ended: ${missing.join(", ") || "none"}; dead-lettered: ${phase.observed.dlq}`,
      `deliveries with no process_end (crashed, or killed past the function timeout): ${unended.join(", ") || "none"}`,
      `deliveries after an earlier one had acknowledged the message (it outlived the visibility timeout): ${late.join(", ") || "none"}`,
      ...events,
    ].join("\n") + emulator
  );
}
