// What both reports show, as data: pure functions from a scenario result (or a workshop send)
// to views. The terminal (text.ts) and the page (html/) draw these same views, each in its own
// way, so a field or a column added here shows up in both.
import { EVENT_TYPES } from "../../contract/events.js";
import type { WorkerSettings } from "../../contract/settings.js";
import type { Delivery } from "../drive/prepare.js";
import type { ChargeSummary } from "../observe/insights.js";
import { QUERIES } from "../observe/insights.js";
import type { PhaseResult, ScenarioResult } from "../scenario/result.js";
import { type CheckView, checkView, seconds } from "./check-view.js";
import { type MatrixView, matrixView } from "./matrix-view.js";
import { stepsView } from "./steps-view.js";
import { type TimelineView, timelineView } from "./timeline-view.js";

export interface Field {
  label: string;
  value: string;
}

/** How a cell is drawn: an id (monospace), an event type, a claim status, a verdict. */
export type Tone = "id" | "event" | "status" | "ok" | "bad";
export type CellView = number | string | { text: string; tone: Tone };

export interface TableView {
  columns: string[];
  rows: CellView[][];
  /** What to say instead of a table with no rows. */
  empty?: string;
  /** The Logs Insights query that shows the same on real AWS. */
  query?: string;
}

export interface SetupView {
  fields: Field[];
  deliveredBy: string;
}

export interface PhaseView {
  /** 1-based, of `total`. */
  number: number;
  total: number;
  name: string;
  /** Undefined for a run nobody checked (a workshop send). */
  pass?: boolean;
  setup: SetupView;
  sent: { messages: number; bodies: string[] };
  missing: { messageId: string; intendedOrderId: string; lastEvent: string }[];
  counts: TableView;
  charges: TableView;
  /** Ledger items, dead-lettered, max concurrent invocations. */
  facts: Field[];
  claims: TableView;
  intended: TableView;
  checks?: CheckView[];
  timeline: TimelineView;
  /** A phase that held copies at failpoints: its events, step by step (steps-view.ts). */
  steps: string[];
}

export interface ReportView {
  scenario: string;
  title: string;
  story: string;
  backend: { name: string; version: string; endpoint: string };
  /** Undefined for a run nobody checked. */
  verdict?: { pass: boolean; failed: number; seconds: string };
  matrix?: MatrixView;
  phases: PhaseView[];
}

export function reportView(result: ScenarioResult): ReportView {
  const checks = result.phases.flatMap((p) => p.checks);
  return {
    scenario: result.scenario,
    title: result.title,
    story: result.story,
    backend: result.backend,
    verdict: {
      pass: result.pass,
      failed: checks.filter((c) => !c.pass).length,
      seconds: seconds(result.durationMs),
    },
    ...(result.matrix ? { matrix: matrixView(result) } : {}),
    phases: result.phases.map((phase, i) => phaseView(phase, i + 1, result.phases.length)),
  };
}

/** What a phase ran with and what came of it, checked or not. */
export type Observation = Pick<
  PhaseResult,
  "name" | "setup" | "sent" | "observed" | "timeline" | "scheduledByExplorer"
> & {
  missing: PhaseResult["wait"]["missing"];
};

export function phaseView(phase: PhaseResult, number: number, total: number): PhaseView {
  return {
    ...observationView({ ...phase, missing: phase.wait.missing }, number, total),
    pass: phase.pass,
    checks: phase.checks.map(checkView),
  };
}

export function observationView(o: Observation, number: number, total: number): PhaseView {
  const { observed } = o;
  return {
    number,
    total,
    name: o.name,
    setup: setupView(o.setup, o.scheduledByExplorer === true),
    sent: { messages: o.sent.messages, bodies: o.sent.bodies },
    missing: o.missing,
    counts: countsView(observed.eventCounts),
    charges: chargesView(observed.charges),
    facts: [
      { label: "ledger items", value: String(observed.ledger) },
      { label: "dead-lettered", value: String(observed.dlq) },
      { label: "max concurrent invocations", value: String(observed.maxConcurrency) },
    ],
    claims: claimsView(observed.claims, o.setup.guard),
    intended: intendedView(observed.intended),
    timeline: timelineView(o.timeline, { fifo: o.setup.queue === "fifo" }),
    steps: stepsView(o.timeline, o.sent.messageIds),
  };
}

export function setupView(
  setup: WorkerSettings & Delivery,
  scheduledByExplorer = false,
): SetupView {
  const ms = (value: number) => `${value} ms`;
  const optional = (label: string, value: number | undefined) =>
    value === undefined ? [] : [{ label, value: ms(value) }];
  return {
    fields: [
      { label: "guard", value: setup.guard },
      { label: "parse mode", value: setup.parseMode },
      { label: "fault", value: setup.fault },
      { label: "work", value: ms(setup.workMs) },
      { label: "pollers", value: String(setup.pollers) },
      ...optional("race window", setup.raceWindowMs),
      ...optional("lease", setup.leaseMs),
      ...(setup.leaseDefences ? [{ label: "lease defences", value: setup.leaseDefences }] : []),
      ...(setup.providerKey ? [{ label: "provider key", value: setup.providerKey }] : []),
      ...(setup.recordTtlSeconds === undefined
        ? []
        : [{ label: "records kept", value: `${setup.recordTtlSeconds} s` }]),
      ...(setup.batchFailures ? [{ label: "batch failures", value: setup.batchFailures }] : []),
      ...(setup.failpoints ? [{ label: "failpoints", value: setup.failpoints }] : []),
      ...(scheduledByExplorer
        ? [
            {
              label: "failpoints",
              value: "every DynamoDB call and failpoint a step the explorer chose",
            },
          ]
        : []),
      ...(setup.queue ? [{ label: "queue", value: setup.queue }] : []),
      ...(setup.batchSize === undefined
        ? []
        : [{ label: "batch size", value: String(setup.batchSize) }]),
      ...(setup.visibilitySeconds === undefined
        ? []
        : [{ label: "queue visibility", value: `${setup.visibilitySeconds} s` }]),
      ...(setup.functionTimeoutSeconds === undefined
        ? []
        : [{ label: "function timeout", value: `at least ${setup.functionTimeoutSeconds} s` }]),
    ],
    deliveredBy:
      setup.pollers > 0 ? `${setup.pollers} harness pollers` : "the event source mapping",
  };
}

/** Events by type, as Logs Insights' `stats count(*) by type` counts them; in the order an
 * invocation logs them (contract/events.ts), then any type the contract does not know. */
export function countsView(counts: Record<string, number>): TableView {
  const known: string[] = EVENT_TYPES.filter((t) => counts[t] !== undefined);
  const other = Object.keys(counts)
    .filter((t) => !known.includes(t))
    .sort();
  return {
    columns: ["type", "events"],
    rows: [...known, ...other].map((type) => [{ text: type, tone: "event" }, counts[type] ?? 0]),
    empty: "(no events)",
    query: QUERIES.countsByType,
  };
}

export function chargesView(charges: ChargeSummary): TableView {
  return {
    columns: ["charges", "orders", "messages"],
    rows: [[charges.charges, charges.orders, charges.messages]],
    query: QUERIES.charges,
  };
}

/**
 * The claims table as scanned. Empty under Powertools is not "no record": its record is in a
 * table of its own, and the line says so.
 */
export function claimsView(
  claims: PhaseResult["observed"]["claims"],
  guard?: WorkerSettings["guard"],
): TableView {
  return {
    columns: ["orderId", "status", "messageId", "completedMessageId"],
    rows: claims.map((c) => [
      { text: c.orderId, tone: "id" },
      { text: c.status, tone: "status" },
      { text: c.messageId, tone: "id" },
      { text: c.completedMessageId ?? "", tone: "id" },
    ]),
    empty:
      guard === "powertools"
        ? "(empty: Powertools keeps its record in a table of its own, not in the claims table)"
        : "(empty)",
  };
}

/** Per order the sender meant: its messages, its charges (under its own id), its verdict. */
export function intendedView(intended: PhaseResult["observed"]["intended"]): TableView {
  return {
    columns: ["order", "messages", "charges", "under its id", "dead-lettered", "verdict"],
    rows: Object.entries(intended).map(([order, o]) => [
      { text: order, tone: "id" },
      o.messages,
      o.charges,
      o.chargedUnderItsId,
      o.deadLettered,
      o.verdict === "exactly once"
        ? { text: `✓ ${o.verdict}`, tone: "ok" }
        : { text: `✗ ${o.verdict}`, tone: "bad" },
    ]),
  };
}
