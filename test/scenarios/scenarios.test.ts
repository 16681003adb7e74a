// Every scenario in the catalogue, end to end against a real emulator through the real SDK
// clients: nothing here is mocked. A scenario passes only when each of its checks holds.
import { afterAll, describe, expect, inject, test } from "vitest";
import { connect } from "../../harness/connection.js";
import type { Lab } from "../../harness/run.js";
import { runScenario } from "../../harness/run.js";
import { SCENARIOS } from "../../scenarios/index.js";
import "./provided.js";

const provided = inject("lab");
const conn = connect(provided.backend.endpoint);
const lab: Lab = { conn, deployment: provided.deployment, backend: provided.backend };
afterAll(() => conn.close());

describe(`scenarios on ${provided.backend.name} ${provided.backend.version}`, () => {
  for (const scenario of SCENARIOS) {
    test(scenario.name, async () => {
      const result = await runScenario(scenario, lab);
      expect(result.phases).toHaveLength(scenario.phases.length);
      expectContractShape(result);
      for (const phase of result.phases) {
        for (const check of phase.checks) {
          expect
            .soft(
              check.pass,
              `${phase.name} › ${check.name}: expected ${JSON.stringify(check.expected)}, got ${JSON.stringify(check.actual)}`,
            )
            .toBe(true);
        }
      }
      expect(result.pass).toBe(true);
    });
  }
});

/** The --json result shape of design §6, which tools outside these tests read. */
function expectContractShape(result: Awaited<ReturnType<typeof runScenario>>) {
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
    for (const check of phase.checks)
      expect(Object.keys(check)).toEqual(["name", "pass", "expected", "actual"]);
  }
}
