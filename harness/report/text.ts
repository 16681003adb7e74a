// The terminal report: the article's views (counts by type; charges, orders, messages; the
// claims table), each beside the Logs Insights query that shows the same on real AWS.
import type { ClaimRecord as Claim } from "../../contract/claims.js";
import { paint } from "../common/say.js";
import type { WorkerEvent } from "../observe/events.js";
import { chargeSummary, countsByType, QUERIES, timeline } from "../observe/insights.js";
import type { PhaseResult, ScenarioResult } from "../scenario/result.js";
import { table, stdoutColour as useColour } from "./table.js";

const style = (s: Parameters<typeof paint>[0], text: string) => (useColour ? paint(s, text) : text);

const indent = (text: string, by = "  ") => text.replace(/^/gm, by);
const query = (text: string) => style("dim", indent(text, "    │ "));
const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function renderPhase(phase: PhaseResult, index: number, total: number): string {
  const { setup, sent, observed } = phase;
  const delivery =
    setup.pollers > 0 ? `${setup.pollers} harness pollers` : "the event source mapping";
  const knobs = [
    `guard=${setup.guard}`,
    `parse=${setup.parseMode}`,
    `fault=${setup.fault}`,
    `work=${setup.workMs} ms`,
    ...(setup.raceWindowMs !== undefined ? [`race window=${setup.raceWindowMs} ms`] : []),
  ].join(" · ");
  const out: string[] = [];
  out.push(style("bold", `Phase ${index + 1}/${total}: ${phase.name}`));
  out.push(`  ${knobs} · delivered by ${delivery}`);
  out.push(
    `  sent ${sent.messages} message(s): ${sent.bodies.map((b) => style("yellow", b)).join(", ")}`,
  );
  out.push("");
  out.push("  Events by type");
  const counts = Object.entries(observed.eventCounts).sort(([a], [b]) => a.localeCompare(b));
  out.push(indent(table(["type", "events"], counts)));
  out.push(query(QUERIES.countsByType));
  out.push("");
  out.push("  Charges");
  out.push(
    indent(
      table(
        ["charges", "orders", "messages"],
        [[observed.charges.charges, observed.charges.orders, observed.charges.messages]],
      ),
    ),
  );
  out.push(query(QUERIES.charges));
  out.push("");
  out.push("  Claims table (DynamoDB scan)");
  out.push(
    observed.claims.length === 0
      ? "    (empty)"
      : indent(
          table(
            ["orderId", "status", "messageId", "completedMessageId"],
            observed.claims.map((c) => [
              c.orderId,
              c.status,
              c.messageId,
              c.completedMessageId ?? "",
            ]),
          ),
        ),
  );
  out.push("");
  out.push("  Orders as the sender meant them");
  out.push(
    indent(
      table(
        ["order", "messages", "charges", "verdict"],
        Object.entries(observed.intended).map(([order, o]) => [
          order,
          o.messages,
          o.charges,
          o.verdict === "exactly once"
            ? style("green", `✓ ${o.verdict}`)
            : style("red", `✗ ${o.verdict}`),
        ]),
      ),
    ),
  );
  out.push(
    `  ledger items ${observed.ledger} · dead-lettered ${observed.dlq} · max concurrent invocations ${observed.maxConcurrency}`,
  );
  for (const m of phase.wait.missing) {
    out.push(
      style(
        "red",
        `  still waiting for ${m.messageId} (${m.intendedOrderId}), last event: ${m.lastEvent}`,
      ),
    );
  }
  out.push("");
  out.push("  Checks");
  for (const check of phase.checks) {
    const mark = check.pass ? style("green", "✓") : style("red", "✗");
    const detail = check.pass
      ? show(check.actual)
      : `expected ${show(check.expected)}, got ${show(check.actual)}`;
    out.push(`  ${mark} ${check.name}: ${detail}`);
  }
  return out.join("\n");
}

export function renderScenario(result: ScenarioResult): string {
  const out: string[] = [];
  out.push(style("bold", `${result.scenario}: ${result.title}`));
  out.push(wrap(result.story, 96));
  out.push(
    style(
      "dim",
      `backend: ${result.backend.name} ${result.backend.version} at ${result.backend.endpoint}`,
    ),
  );
  out.push("");
  if (result.matrix) out.push(renderMatrix(result), "");
  else {
    result.phases.forEach((phase, i) => {
      out.push(renderPhase(phase, i, result.phases.length));
      out.push("");
    });
  }
  const failed = result.phases.flatMap((p) => p.checks).filter((c) => !c.pass).length;
  const seconds = (result.durationMs / 1000).toFixed(1);
  out.push(
    result.pass
      ? style("green", `PASS ${result.scenario}: every check held (${seconds} s)`)
      : style("red", `FAIL ${result.scenario}: ${failed} check(s) failed (${seconds} s)`),
  );
  return out.join("\n");
}

/** A matrix scenario: one line per run, then the table those runs fill in. */
function renderMatrix(result: ScenarioResult): string {
  const matrix = result.matrix;
  if (!matrix) return "";
  const out: string[] = [];
  for (const phase of result.phases) {
    const mark = phase.pass ? style("green", "✓") : style("red", "✗");
    const cell = phase.cell
      ? `${phase.cell.text} (charges ${phase.cell.charges}, orders ${phase.cell.orders})`
      : "";
    out.push(`${mark} ${phase.name}: ${cell} · ${(phase.durationMs / 1000).toFixed(1)} s`);
    for (const check of phase.checks.filter((c) => !c.pass)) {
      out.push(
        style(
          "red",
          `    ✗ ${check.name}: expected ${show(check.expected)}, got ${show(check.actual)}`,
        ),
      );
    }
  }
  out.push("");
  const rows = matrix.rows.map((row) => [
    row,
    ...matrix.columns.map((column) => {
      const cell = matrix.cells.find((c) => c.row === row && c.column === column);
      if (!cell) return "";
      return style(cell.ok ? "green" : "red", cell.text);
    }),
  ]);
  out.push(table(["failure mode", ...matrix.columns], rows));
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

/** The article's three Logs Insights views over these events, each with its query. */
export function renderInsights(events: WorkerEvent[]): string {
  const out: string[] = [];
  const counts = Object.entries(countsByType(events)).sort(([a], [b]) => a.localeCompare(b));
  out.push(style("bold", "1. Events by type"));
  out.push(table(["type", "events"], counts));
  out.push(query(QUERIES.countsByType), "");
  const charges = chargeSummary(events);
  out.push(style("bold", "2. Charges"));
  out.push(
    table(["charges", "orders", "messages"], [[charges.charges, charges.orders, charges.messages]]),
  );
  out.push(query(QUERIES.charges), "");
  for (const orderId of [...new Set(events.map((e) => e.orderId))]) {
    out.push(style("bold", `3. Timeline of ${orderId}`));
    out.push(renderTimeline(timeline(events, orderId)));
    out.push(query(QUERIES.timeline(orderId)), "");
  }
  return out.join("\n");
}

/** Details holding a UUID: their first 8 characters are enough to tell them apart on screen. */
const SHORT_IDS = new Set(["chargeId", "heldBy", "tookOverFrom"]);

/** One line per event: when, what, which copy, and the details that matter. */
export function renderTimeline(events: WorkerEvent[]): string {
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

export function renderClaims(claims: Claim[]): string {
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
