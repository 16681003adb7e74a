// The report as one HTML page: the views of ../views.ts (the terminal report draws the same),
// plus a timeline per phase that draws every invocation as a lane. Self-contained (inline CSS
// and SVG, no scripts, no URLs), so it opens offline, can be mailed around, and reads on a
// projector.
import type { ScenarioResult } from "../../scenario/result.js";
import type { CheckView } from "../check-view.js";
import type { MatrixView } from "../matrix-view.js";
import {
  type CellView,
  type PhaseView,
  type ReportView,
  reportView,
  type TableView,
} from "../views.js";
import { attrs, esc } from "./escape.js";
import { CSS } from "./style.js";
import { htmlTimeline, swatch } from "./timeline.js";

/** A scenario's result as a page. */
export function renderHtml(result: ScenarioResult): string {
  return htmlPage(reportView(result));
}

/** Any report view as a page: a scenario's, or a workshop send's (no verdict, no checks). */
export function htmlPage(view: ReportView): string {
  const { backend, verdict } = view;
  const verdictLine = !verdict
    ? ""
    : verdict.pass
      ? `<p class="verdict pass">PASS: every check held (${verdict.seconds} s)</p>`
      : `<p class="verdict fail">FAIL: ${verdict.failed} check(s) failed (${verdict.seconds} s)</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`${view.scenario}: ${view.title}`)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header>
<h1><span class="scenario-name">${esc(view.scenario)}</span> ${esc(view.title)}</h1>
<p class="story">${esc(view.story)}</p>
<p class="backend">backend: ${esc(`${backend.name} ${backend.version}`)} at <code>${esc(backend.endpoint)}</code></p>
${verdictLine}
</header>
${view.matrix ? htmlMatrix(view.matrix) : ""}
${view.phases.map((phase) => htmlPhase(phase)).join("\n")}
</main>
</body>
</html>
`;
}

/** The matrix at the top of the page; each cell links to the phase that measured it. */
function htmlMatrix(matrix: MatrixView): string {
  const head = [matrix.corner, ...matrix.columns].map((h) => `<th>${esc(h)}</th>`).join("");
  const rows = matrix.rows.map(({ row, cells }) => {
    const tds = cells.map((cell) => {
      if (!cell) return `<td class="cell empty"></td>`;
      const label = esc(cell.text);
      const linked =
        cell.phase === undefined ? label : `<a href="#phase-${cell.phase}">${label}</a>`;
      const tip = `charges ${cell.charges}, orders ${cell.orders}`;
      return `<td${attrs({ class: `cell ${cell.ok ? "cell-ok" : "cell-bad"}`, title: tip })}>${linked}</td>`;
    });
    return `<tr><th scope="row">${esc(row)}</th>${tds.join("")}</tr>`;
  });
  return `<section class="card matrix">
<h2>Matrix</h2>
<table class="matrix-table"><thead><tr>${head}</tr></thead><tbody>${rows.join("\n")}</tbody></table>
</section>`;
}

/** `after`: lines shown last in the phase's card (a replay command). */
export function htmlPhase(phase: PhaseView, after: string[] = []): string {
  const { setup, sent } = phase;
  const chip = (label: string, value: string) =>
    `<span class="chip"><span class="k">${esc(label)}</span> ${esc(value)}</span>`;
  const chips = setup.fields.map((f) => chip(f.label, f.value)).join("");
  // No badge for a run nobody checked: it neither passed nor failed.
  const status =
    phase.pass === undefined
      ? ""
      : phase.pass
        ? `<span class="badge pass">pass</span> `
        : `<span class="badge fail">fail</span> `;
  const bodies = sent.bodies.map((b) => `<code class="body">${esc(b)}</code>`).join(" ");
  const missing = phase.missing.map(
    (m) =>
      `<li>still waiting for <code>${esc(m.messageId)}</code> (${esc(m.intendedOrderId)}), last event: ${esc(m.lastEvent)}</li>`,
  );
  const facts = phase.facts.map((f) => `${f.label} ${f.value}`).join(" · ");
  const checks = phase.checks
    ? `\n<div class="view wide"><h3>Checks</h3>${htmlChecks(phase.checks)}</div>`
    : "";

  return `<section class="card phase" id="phase-${phase.number}">
<h2>${status}Phase ${phase.number}/${phase.total}: ${esc(phase.name)}</h2>
<div class="setup">${chips}${chip("delivered by", setup.deliveredBy)}</div>${phase.steps.length > 0 ? `\n<details class="steps" open><summary>Step by step</summary><pre>${esc(phase.steps.join("\n"))}</pre></details>` : ""}
<p class="sent">sent ${sent.messages} message(s): ${bodies}</p>
${missing.length ? `<ul class="missing">${missing.join("")}</ul>` : ""}
<h3>Timeline</h3>
${htmlTimeline(phase.timeline, `p${phase.number}`)}
<div class="grid">
<div class="view"><h3>Events by type</h3>${htmlTable(phase.counts)}</div>
<div class="view"><h3>Charges</h3>${htmlTable(phase.charges)}
<p class="facts">${esc(facts)}</p></div>
<div class="view"><h3>Orders as the sender meant them</h3>${htmlTable(phase.intended)}</div>
<div class="view wide"><h3>Claims table <small>(DynamoDB scan)</small></h3>${htmlTable(phase.claims)}</div>${checks}
</div>${after.length > 0 ? `\n<pre class="after">${esc(after.join("\n"))}</pre>` : ""}
</section>`;
}

/** A table view: its rows (or what to say when there are none), then its query, folded. */
function htmlTable(view: TableView): string {
  const query = view.query
    ? `<details><summary>Logs Insights query</summary><pre>${esc(view.query)}</pre></details>`
    : "";
  if (view.rows.length === 0 && view.empty !== undefined)
    return `<p class="empty">${esc(view.empty)}</p>${query}`;
  const head = view.columns.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = view.rows
    .map((row) => {
      const cells = row.map(
        (cell) => `<td${typeof cell === "number" ? ' class="num"' : ""}>${htmlCell(cell)}</td>`,
      );
      return `<tr>${cells.join("")}</tr>`;
    })
    .join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${query}`;
}

/** A cell as its tone says: ids in monospace, event types with their mark, statuses as tags. */
function htmlCell(cell: CellView): string {
  if (typeof cell !== "object") return esc(String(cell));
  const text = esc(cell.text);
  switch (cell.tone) {
    case "id":
      return cell.text ? `<code>${text}</code>` : "";
    case "event":
      return `${swatch(cell.text)}<code>${text}</code>`;
    case "status":
      return `<span class="status status-${esc(cell.text.toLowerCase())}">${text}</span>`;
    case "ok":
      return `<span class="ok">${text}</span>`;
    case "bad":
      return `<span class="bad">${text}</span>`;
  }
}

function htmlChecks(checks: CheckView[]): string {
  const items = checks.map((check) => {
    const detail = check.pass
      ? esc(check.actual)
      : `expected <code>${esc(check.expected)}</code>, got <code>${esc(check.actual)}</code>`;
    const mark = check.pass ? `<span class="ok">✓</span>` : `<span class="bad">✗</span>`;
    return `<li class="${check.pass ? "check-pass" : "check-fail"}">${mark} ${esc(check.name)}: <span class="detail">${detail}</span></li>`;
  });
  return `<ul class="checks">${items.join("\n")}</ul>`;
}
