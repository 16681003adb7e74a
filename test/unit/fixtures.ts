import type { EventType } from "../../contract/events.js";
import type { WorkerEvent } from "../../harness/observe/events.js";
import type { PhaseResult, ScenarioResult } from "../../harness/scenario/result.js";

/** A worker event as the harness reads it back, for pure-logic tests (details not checked). */
export function event(
  type: EventType,
  messageId: string,
  at: number,
  extra: Record<string, unknown> = {},
): WorkerEvent {
  return {
    type,
    orderId: "ORDER-001",
    messageId,
    requestId: `req-${messageId}`,
    guard: "off",
    ts: new Date(Date.UTC(2026, 8, 14, 12, 0, 0, at)).toISOString(),
    ...extra,
  } as WorkerEvent;
}

export const MANGLED = `{orderId:ORDER-001,"note":"<script>alert('x')</script>"}`;

/** For the report tests: five invocations: a charge, a skipped copy, a crash and its retry, a body that did not parse. */
export const sampleTimeline: WorkerEvent[] = [
  event("process_start", "msg-aaaa-1", 0, { attempt: 1 }),
  event("claim_won", "msg-aaaa-1", 10),
  event("charge_applied", "msg-aaaa-1", 200, { chargeId: "ch-1", amount: 150 }),
  event("process_end", "msg-aaaa-1", 210, { outcome: "charged" }),
  event("process_start", "msg-bbbb-2", 5, { attempt: 1 }),
  event("claim_lost", "msg-bbbb-2", 12),
  event("skip_duplicate", "msg-bbbb-2", 12),
  event("process_end", "msg-bbbb-2", 13, { outcome: "skipped" }),
  event("process_start", "msg-cccc-3", 20, { attempt: 1 }),
  event("claim_won", "msg-cccc-3", 25),
  event("process_start", "msg-cccc-3", 4020, { attempt: 2, requestId: "req-retry" }),
  event("claim_won", "msg-cccc-3", 4030, { requestId: "req-retry", tookOverFrom: "msg-cccc-3" }),
  event("charge_applied", "msg-cccc-3", 4230, { requestId: "req-retry", chargeId: "ch-2" }),
  event("process_end", "msg-cccc-3", 4240, { requestId: "req-retry", outcome: "charged" }),
  event("process_start", "msg-dddd-4", 30, { attempt: 1, orderId: "unparseable" }),
  event("parse_failed", "msg-dddd-4", 31, { orderId: "unparseable", body: MANGLED }),
  event("process_end", "msg-dddd-4", 31, { orderId: "unparseable", outcome: "failed" }),
];

export function phaseResult(overrides: Partial<PhaseResult> = {}): PhaseResult {
  return {
    name: "a crash, a copy & a <mangled> body",
    setup: {
      guard: "lease",
      parseMode: "lenient",
      fault: "crash-after-claim",
      workMs: 200,
      pollers: 0,
    },
    sent: {
      messages: 4,
      sends: 4,
      messageIds: ["msg-aaaa-1", "msg-bbbb-2", "msg-cccc-3", "msg-dddd-4"],
      orderIds: ["ORDER-001"],
      bodies: [MANGLED],
    },
    observed: {
      eventCounts: { process_start: 5, claim_won: 3, charge_applied: 2, process_end: 4 },
      charges: { charges: 2, orders: 1, messages: 2 },
      chargesByOrder: { "ORDER-001": 2 },
      intended: {
        "ORDER-001": {
          messages: 4,
          charges: 2,
          chargedUnderItsId: 2,
          deadLettered: 0,
          verdict: "duplicated",
        },
      },
      claims: [
        {
          orderId: "ORDER-001",
          status: "COMPLETED",
          messageId: "msg-cccc-3",
          requestId: "req-retry",
          claimedAt: "2026-11-30T12:00:00.000Z",
          completedMessageId: "msg-cccc-3",
        },
      ],
      ledger: 2,
      dlq: 0,
      maxConcurrency: 3,
    },
    wait: { ms: 4300, missing: [], lateLogNudges: 0 },
    checks: [
      { name: "charges", pass: false, expected: 1, actual: 2 },
      { name: "ledger items", pass: true, expected: 2, actual: 2 },
    ],
    timeline: sampleTimeline,
    pass: false,
    startedAt: new Date(Date.UTC(2026, 8, 14, 12, 0, 0)).toISOString(),
    durationMs: 5000,
    ...overrides,
  };
}

export function scenarioResult(overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario: "hand-built",
    title: `A "test" <title>`,
    story: `Bodies like {"a":1} & <b>tags</b> must stay text.`,
    backend: {
      name: "ministack",
      emulator: "ministack",
      version: "1.5.33",
      endpoint: "http://127.0.0.1:4566",
    },
    phases: [phaseResult()],
    pass: false,
    durationMs: 5000,
    ...overrides,
  };
}
