// What a scenario run produces: the JSON result (docs/design.md, "Scenario results"), which
// both reports draw and `--json` prints.
import type { WorkerSettings } from "../../contract/settings.js";
import type { BackendInfo } from "../backends/backend.js";
import type { RenamedCharge } from "../check/checks.js";
import type { Cell, Check, PhaseFacts } from "../check/facts.js";
import type { Delivery } from "../drive/prepare.js";
import type { WorkerEvent } from "../observe/events.js";

export interface PhaseResult {
  name: string;
  /** Every setting the phase ran with: its own, and the defaults for the rest. */
  setup: WorkerSettings & Delivery;
  sent: PhaseFacts["sent"];
  observed: PhaseFacts["observed"];
  wait: {
    ms: number;
    missing: { messageId: string; intendedOrderId: string; lastEvent: string }[];
    /** Times the harness had to ship MiniStack's late log lines (see observe/late-logs.ts). */
    lateLogNudges: number;
  };
  checks: Check[];
  /**
   * charge_applied lines that name another chargeId than the ledger item their delivery wrote
   * (a guard that recorded its charge around its ledger): a finding; the ledger counts.
   */
  renamedCharges?: RenamedCharge[];
  cell?: Cell;
  /** An explorer's schedule, not a run: every DynamoDB call and failpoint a step it chose. */
  scheduledByExplorer?: true;
  /** The worker's events for this phase's messages, oldest first: the evidence behind it all. */
  timeline: WorkerEvent[];
  pass: boolean;
  /** When the phase began (ISO 8601): with durationMs, the window to read an emulator's logs in. */
  startedAt: string;
  durationMs: number;
}

export interface ScenarioResult {
  scenario: string;
  title: string;
  story: string;
  backend: BackendInfo;
  phases: PhaseResult[];
  /** Matrix scenarios only: every cell, each from the phase that measured it. */
  matrix?: { rows: string[]; columns: string[]; cells: Cell[] };
  pass: boolean;
  durationMs: number;
}
