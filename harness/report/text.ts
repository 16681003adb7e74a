// The terminal report: the views of views.ts (the HTML page draws the same), as tables, each
// beside the Logs Insights query that shows the same on real AWS. Also the lab's own views
// (insights, logs, claims) for `npx lab`.
import type { ClaimRecord as Claim } from "../../contract/claims.js";
import { paint } from "../common/say.js";
import type { WorkerEvent } from "../observe/events.js";
import { chargeSummary, countsByType, QUERIES, timeline } from "../observe/insights.js";
import type { ScenarioResult } from "../scenario/result.js";
import type { CheckView } from "./check-view.js";
import type { MatrixCellView, MatrixView } from "./matrix-view.js";
import { table, stdoutColour as useColour } from "./table.js";
import {
  type CellView,
  chargesView,
  countsView,
  type PhaseView,
  type ReportView,
  reportView,
  type TableView,
} from "./views.js";

const style = (s: Parameters<typeof paint>[0], text: string) => (useColour ? paint(s, text) : text);

const indent = (text: string, by = "  ") => text.replace(/^/gm, by);
const query = (text: string) => style("dim", indent(text, "    │ "));
const mark = (pass: boolean) => (pass ? style("green", "✓") : style("red", "✗"));
const failure = (check: CheckView) =>
  `${check.name}: expected ${check.expected}, got ${check.actual}`;

/** A cell for the terminal: only verdicts get a colour; ids, types and statuses stay plain. */
function textCell(cell: CellView): string | number {
  if (typeof cell !== "object") return cell;
  if (cell.tone === "ok") return style("green", cell.text);
  if (cell.tone === "bad") return style("red", cell.text);
  return cell.text;
}

/** A table view's rows, or what to say when there are none; its query is the caller's to place. */
function textTable(view: TableView): string {
  if (view.rows.length === 0 && view.empty !== undefined) return `  ${view.empty}`;
  return table(
    view.columns,
    view.rows.map((row) => row.map(textCell)),
  );
}

/** A table view with its Logs Insights query below it, dimmed, when it has one. */
const withQuery = (view: TableView, body: string) =>
  view.query ? [body, query(view.query)] : [body];

export function textPhase(phase: PhaseView): string {
  const { setup, sent } = phase;
  const knobs = setup.fields.map((f) => `${f.label}=${f.value}`).join(" · ");
  const section = (title: string, view: TableView) => [
    "",
    `  ${title}`,
    ...withQuery(view, indent(textTable(view))),
  ];
  const out: string[] = [];
  out.push(style("bold", `Phase ${phase.number}/${phase.total}: ${phase.name}`));
  out.push(`  ${knobs} · delivered by ${setup.deliveredBy}`);
  out.push(`  sent ${sent.messages} message(s): ${shownBodies(sent.bodies)}`);
  if (phase.steps.length > 0) out.push("", "  Step by step", ...phase.steps.map((s) => `    ${s}`));
  out.push(...section("Events by type", phase.counts));
  out.push(...section("Charges", phase.charges));
  out.push(...section("Claims table (DynamoDB scan)", phase.claims));
  out.push(...section("Orders as the sender meant them", phase.intended));
  out.push(`  ${phase.facts.map((f) => `${f.label} ${f.value}`).join(" · ")}`);
  for (const m of phase.missing) {
    out.push(
      style(
        "red",
        `  still waiting for ${m.messageId} (${m.intendedOrderId}), last event: ${m.lastEvent}`,
      ),
    );
  }
  // A workshop send has no checks: nobody said what to expect of it.
  if (phase.checks) {
    out.push("", "  Checks");
    for (const check of phase.checks)
      out.push(
        check.pass
          ? `  ${mark(true)} ${check.name}: ${check.actual}`
          : `  ${mark(false)} ${failure(check)}`,
      );
  }
  return out.join("\n");
}

/** A scenario's result for the terminal. */
export function textScenario(result: ScenarioResult): string {
  return textReport(reportView(result));
}

/** Any report view for the terminal: a matrix scenario shows its matrix, others their phases. */
export function textReport(view: ReportView): string {
  const out: string[] = [];
  out.push(style("bold", `${view.scenario}: ${view.title}`));
  out.push(wrap(view.story, 96));
  out.push(
    style(
      "dim",
      `backend: ${view.backend.name} ${view.backend.version} at ${view.backend.endpoint}`,
    ),
  );
  out.push("");
  if (view.matrix) out.push(textMatrix(view.matrix), "");
  else {
    for (const phase of view.phases) out.push(textPhase(phase), "");
  }
  const { verdict } = view;
  if (verdict)
    out.push(
      verdict.pass
        ? style("green", `PASS ${view.scenario}: every check held (${verdict.seconds} s)`)
        : style(
            "red",
            `FAIL ${view.scenario}: ${verdict.failed} check(s) failed (${verdict.seconds} s)`,
          ),
    );
  return out.join("\n");
}

/** A matrix scenario: one line per run, then the table those runs fill in. */
function textMatrix(matrix: MatrixView): string {
  const out: string[] = [];
  const about = (cell?: MatrixCellView) =>
    cell ? `${cell.text} (charges ${cell.charges}, orders ${cell.orders})` : "";
  for (const run of matrix.runs) {
    out.push(`${mark(run.pass)} ${run.name}: ${about(run.cell)} · ${run.seconds} s`);
    for (const check of run.failed) out.push(style("red", `    ✗ ${failure(check)}`));
  }
  out.push("");
  const rows = matrix.rows.map(({ row, cells }) => [
    row,
    ...cells.map((cell) => (cell ? style(cell.ok ? "green" : "red", cell.text) : "")),
  ]);
  out.push(table([matrix.corner, ...matrix.columns], rows));
  return out.join("\n");
}

function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

// ─── The lab's views: `npx lab insights | logs | status` ─────────────────────────────

/** Which stretch of the log group a view covers, and which messages in it. */
export interface WindowHeading {
  logGroup: string;
  sinceMs: number;
  untilMs: number;
  /** The start is when `lab up` ran (or `lab reset`, with sinceReset); the end is the command's own time. */
  sinceUp?: boolean;
  sinceReset?: boolean;
  untilNow?: boolean;
  /** The start is when the lab's n-th send began (`lab insights --since-send n`). */
  sinceSend?: number;
  /** Only the lab's own sends (the last, or every one since up); else every message. */
  sends?: "last" | "all";
}

/**
 * The line above the views: what window and which messages they cover, and how many. A window
 * that cuts through invocations counts their ends without their starts (or the other way), so
 * the views are only read right knowing where it begins and ends.
 */
export function textWindow(heading: WindowHeading, events: WorkerEvent[]): string {
  const { sinceMs, untilMs } = heading;
  const today = new Date().toDateString();
  const at = (ms: number) => {
    const time = new Date(ms);
    const pad = (n: number) => String(n).padStart(2, "0");
    const clock = `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
    if (time.toDateString() === today) return clock;
    return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())} ${clock}`;
  };
  const which =
    heading.sends === "last"
      ? "the last lab send"
      : heading.sends === "all"
        ? "every lab send since up"
        : "every message";
  const messages = new Set(events.map((e) => e.messageId)).size;
  const counted = `${messages} message${messages === 1 ? "" : "s"}, ${events.length} event${events.length === 1 ? "" : "s"}`;
  const start = heading.sinceUp
    ? heading.sinceReset
      ? " (reset)"
      : " (up)"
    : heading.sinceSend === undefined
      ? ""
      : ` (send ${heading.sinceSend})`;
  return `log group ${heading.logGroup}: ${at(sinceMs)}${start} to ${at(untilMs)}${heading.untilNow ? " (now)" : ""}, ${which} (${counted})`;
}

/** The article's three Logs Insights views over these events, each with its query. */
export function textInsights(events: WorkerEvent[]): string {
  const out: string[] = [];
  out.push(style("bold", "1. Events by type"));
  const counts = countsView(countsByType(events));
  out.push(...withQuery(counts, textTable(counts)), "");
  out.push(style("bold", "2. Charges"));
  const charges = chargesView(chargeSummary(events));
  out.push(...withQuery(charges, textTable(charges)), "");
  for (const orderId of [...new Set(events.map((e) => e.orderId))]) {
    out.push(style("bold", `3. Timeline of ${orderId}`));
    out.push(textTimeline(timeline(events, orderId)));
    out.push(query(QUERIES.timeline(orderId)), "");
  }
  return out.join("\n");
}

/** Details holding a UUID: their first 8 characters are enough to tell them apart on screen. */
const SHORT_IDS = new Set(["chargeId", "heldBy", "tookOverFrom"]);

/** One line per event: when, what, which copy, and the details that matter. */
export function textTimeline(events: WorkerEvent[]): string {
  const detail = (e: WorkerEvent) => {
    const { type, orderId, messageId, requestId, guard, ts, ...rest } = e;
    return Object.entries(rest)
      .filter(([key]) => key !== "body")
      .map(([key, value]) => {
        const text = typeof value === "string" ? value : JSON.stringify(value);
        return `${key}=${SHORT_IDS.has(key) ? text.slice(0, 8) : text}`;
      })
      .join(" ");
  };
  return table(
    ["time", "type", "messageId", "orderId", "details"],
    events.map((e) => [e.ts.slice(11, 23), e.type, e.messageId.slice(0, 8), e.orderId, detail(e)]),
  );
}

export function textClaims(claims: Claim[]): string {
  if (claims.length === 0) return "(empty)";
  return table(
    ["orderId", "status", "messageId", "claimedAt", "completedMessageId", "completedAt"],
    claims.map((c) => [
      c.orderId,
      c.status,
      c.messageId,
      c.claimedAt ?? "",
      c.completedMessageId ?? "",
      c.completedAt ?? "",
    ]),
  );
}

/** The distinct bodies sent; past three (a batch of ten orders), the first two and a count. */
function shownBodies(bodies: string[]): string {
  const shown = bodies.length > 3 ? bodies.slice(0, 2) : bodies;
  const rest = bodies.length - shown.length;
  const listed = shown.map((b) => style("yellow", b)).join(", ");
  return rest > 0 ? `${listed}, … and ${rest} other bodies` : listed;
}
