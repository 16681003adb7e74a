// The report as one HTML page: the terminal report's views, plus a timeline per phase that
// draws every invocation as a lane. Self-contained (inline CSS and SVG, no scripts, no URLs),
// so it opens offline, can be mailed around, and reads on a projector. The SVG carries data-*
// attributes (lane, bar outcome, mark type) so a test can check the picture against the data.
import { EVENT_TYPES, type EventType } from "../../contract/events.js";
import type { WorkerEvent } from "../observe/events.js";
import { QUERIES } from "../observe/insights.js";
import type { PhaseResult, ScenarioResult } from "../scenario/result.js";

// ─── Escaping: every piece of text goes through esc() unless it is already Html ──────────────

interface Html {
  readonly html: string;
}
const raw = (html: string): Html => ({ html });
const isHtml = (value: unknown): value is Html =>
  typeof value === "object" && value !== null && "html" in value;

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const show = (value: unknown): string =>
  value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
const content = (value: unknown): string => (isHtml(value) ? value.html : esc(show(value)));

/** ` name="value"` pairs, escaped; undefined values are left out. */
function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join("");
}

function table(headers: string[], rows: unknown[][], className = ""): string {
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows
    .map((row) => {
      const cells = row.map(
        (v) => `<td${typeof v === "number" ? ' class="num"' : ""}>${content(v)}</td>`,
      );
      return `<tr>${cells.join("")}</tr>`;
    })
    .join("\n");
  return `<table${attrs({ class: className || undefined })}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const yes = (text: string) => raw(`<span class="ok">✓ ${esc(text)}</span>`);
const no = (text: string) => raw(`<span class="bad">✗ ${esc(text)}</span>`);

// ─── The page ────────────────────────────────────────────────────────────────────────────────

export function renderHtml(result: ScenarioResult): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const failed = result.phases.flatMap((p) => p.checks).filter((c) => !c.pass).length;
  const verdict = result.pass
    ? `<p class="verdict pass">PASS: every check held (${seconds} s)</p>`
    : `<p class="verdict fail">FAIL: ${failed} check(s) failed (${seconds} s)</p>`;
  const { backend } = result;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`${result.scenario}: ${result.title}`)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header>
<h1><span class="scenario-name">${esc(result.scenario)}</span> ${esc(result.title)}</h1>
<p class="story">${esc(result.story)}</p>
<p class="backend">backend: ${esc(`${backend.name} ${backend.version}`)} at <code>${esc(backend.endpoint)}</code></p>
${verdict}
</header>
${result.matrix ? renderMatrix(result) : ""}
${result.phases.map((phase, i) => renderPhase(phase, i, result.phases.length)).join("\n")}
</main>
</body>
</html>
`;
}

function renderMatrix(result: ScenarioResult): string {
  const matrix = result.matrix;
  if (!matrix) return "";
  const phaseOf = new Map(
    result.phases.flatMap((p, i) => (p.cell ? [[`${p.cell.row}\u0000${p.cell.column}`, i]] : [])),
  );
  const head = ["failure mode", ...matrix.columns].map((h) => `<th>${esc(h)}</th>`).join("");
  const rows = matrix.rows.map((row) => {
    const cells = matrix.columns.map((column) => {
      const cell = matrix.cells.find((c) => c.row === row && c.column === column);
      if (!cell) return `<td class="cell empty"></td>`;
      const index = phaseOf.get(`${row}\u0000${column}`);
      const label = esc(cell.text);
      const linked = index === undefined ? label : `<a href="#phase-${index + 1}">${label}</a>`;
      const tip = `charges ${cell.charges}, orders ${cell.orders}`;
      return `<td${attrs({ class: `cell ${cell.ok ? "cell-ok" : "cell-bad"}`, title: tip })}>${linked}</td>`;
    });
    return `<tr><th scope="row">${esc(row)}</th>${cells.join("")}</tr>`;
  });
  return `<section class="card matrix">
<h2>Matrix</h2>
<table class="matrix-table"><thead><tr>${head}</tr></thead><tbody>${rows.join("\n")}</tbody></table>
</section>`;
}

function renderPhase(phase: PhaseResult, index: number, total: number): string {
  const { setup, sent, observed } = phase;
  const delivery =
    setup.pollers > 0 ? `${setup.pollers} harness pollers` : "the event source mapping";
  const knobs: [string, unknown][] = [
    ["guard", setup.guard],
    ["parse mode", setup.parseMode],
    ["fault", setup.fault],
    ["work", `${setup.workMs} ms`],
    ["pollers", setup.pollers],
    ...(setup.raceWindowMs !== undefined
      ? [["race window", `${setup.raceWindowMs} ms`] as [string, unknown]]
      : []),
    ...(setup.leaseMs !== undefined ? [["lease", `${setup.leaseMs} ms`] as [string, unknown]] : []),
  ];
  const chips = knobs
    .map(([k, v]) => `<span class="chip"><span class="k">${esc(k)}</span> ${content(v)}</span>`)
    .join("");
  const status = phase.pass
    ? `<span class="badge pass">pass</span>`
    : `<span class="badge fail">fail</span>`;
  const bodies = sent.bodies.map((b) => `<code class="body">${esc(b)}</code>`).join(" ");
  const missing = phase.wait.missing.map(
    (m) =>
      `<li>still waiting for <code>${esc(m.messageId)}</code> (${esc(m.intendedOrderId)}), last event: ${esc(m.lastEvent)}</li>`,
  );

  return `<section class="card phase" id="phase-${index + 1}">
<h2>${status} Phase ${index + 1}/${total}: ${esc(phase.name)}</h2>
<div class="setup">${chips}<span class="chip"><span class="k">delivered by</span> ${esc(delivery)}</span></div>
<p class="sent">sent ${sent.messages} message(s): ${bodies}</p>
${missing.length ? `<ul class="missing">${missing.join("")}</ul>` : ""}
<h3>Timeline</h3>
${renderTimeline(phase.timeline, `p${index + 1}`)}
<div class="grid">
<div class="view"><h3>Events by type</h3>${eventsByType(observed.eventCounts)}${insights(QUERIES.countsByType)}</div>
<div class="view"><h3>Charges</h3>${table(
    ["charges", "orders", "messages"],
    [[observed.charges.charges, observed.charges.orders, observed.charges.messages]],
  )}${insights(QUERIES.charges)}
<p class="facts">ledger items ${observed.ledger} · dead-lettered ${observed.dlq} · max concurrent invocations ${observed.maxConcurrency}</p></div>
<div class="view"><h3>Orders as the sender meant them</h3>${intended(phase)}</div>
<div class="view wide"><h3>Claims table <small>(DynamoDB scan)</small></h3>${claims(phase)}</div>
<div class="view wide"><h3>Checks</h3>${checks(phase)}</div>
</div>
</section>`;
}

function insights(query: string): string {
  return `<details><summary>Logs Insights query</summary><pre>${esc(query)}</pre></details>`;
}

function eventsByType(counts: Record<string, number>): string {
  const known = EVENT_TYPES.filter((t) => counts[t] !== undefined);
  const other = Object.keys(counts)
    .filter((t) => !EVENT_TYPES.includes(t as EventType))
    .sort();
  const rows = [...known, ...other].map((type) => [
    raw(`${swatch(type)}<code>${esc(type)}</code>`),
    counts[type] ?? 0,
  ]);
  return rows.length ? table(["type", "events"], rows) : `<p class="empty">(no events)</p>`;
}

function intended(phase: PhaseResult): string {
  const rows = Object.entries(phase.observed.intended).map(([order, o]) => [
    raw(`<code>${esc(order)}</code>`),
    o.messages,
    o.charges,
    o.chargedUnderItsId,
    o.deadLettered,
    o.verdict === "exactly once" ? yes(o.verdict) : no(o.verdict),
  ]);
  return table(["order", "messages", "charges", "under its id", "dead-lettered", "verdict"], rows);
}

function claims(phase: PhaseResult): string {
  const items = phase.observed.claims;
  if (items.length === 0) return `<p class="empty">(empty)</p>`;
  return table(
    ["orderId", "status", "messageId", "completedMessageId"],
    items.map((c) => [
      raw(`<code>${esc(c.orderId)}</code>`),
      raw(`<span class="status status-${esc(c.status.toLowerCase())}">${esc(c.status)}</span>`),
      raw(`<code>${esc(c.messageId)}</code>`),
      raw(c.completedMessageId ? `<code>${esc(c.completedMessageId)}</code>` : ""),
    ]),
  );
}

function checks(phase: PhaseResult): string {
  const items = phase.checks.map((check) => {
    const detail = check.pass
      ? esc(show(check.actual))
      : `expected <code>${esc(show(check.expected))}</code>, got <code>${esc(show(check.actual))}</code>`;
    const mark = check.pass ? `<span class="ok">✓</span>` : `<span class="bad">✗</span>`;
    return `<li class="${check.pass ? "check-pass" : "check-fail"}">${mark} ${esc(check.name)}: <span class="detail">${detail}</span></li>`;
  });
  return `<ul class="checks">${items.join("\n")}</ul>`;
}

// ─── The timeline: one lane per invocation, a bar from start to end, a mark per event ────────

/** The events drawn as marks, in legend order; each has a shape and a colour (see CSS). */
type MarkType = Exclude<EventType, "process_start" | "process_end">; // those two are the bar
const MARK_TYPES = EVENT_TYPES.filter(
  (t): t is MarkType => t !== "process_start" && t !== "process_end",
);

const isMarkType = (type: string): type is MarkType => MARK_TYPES.includes(type as MarkType);

const star = (outer: number, inner: number) =>
  `${Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 === 0 ? outer : inner;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    return `${i === 0 ? "M" : "L"} ${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`;
  }).join(" ")} Z`;
const hexagon = (r: number) =>
  `${Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 3) * i;
    return `${i === 0 ? "M" : "L"} ${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`;
  }).join(" ")} Z`;

/** Path data centred on 0,0, about 16 px across. */
const SHAPES: Record<MarkType, string> = {
  parse_failed: hexagon(7.5),
  claim_won: "M -7 0 A 7 7 0 1 0 7 0 A 7 7 0 1 0 -7 0 Z",
  claim_lost: "M -7.5 -6 L 7.5 -6 L 0 7.5 Z",
  claim_busy: "M -6.5 -7 L 6.5 -7 L -6.5 7 L 6.5 7 Z",
  claim_released: "M -7.5 6 L 7.5 6 L 0 -7.5 Z",
  skip_duplicate: "M 0 -8 L 8 0 L 0 8 L -8 0 Z",
  payload_mismatch: "M -6.5 -6.5 H 6.5 V 6.5 H -6.5 Z",
  charge_applied: star(9, 3.8),
  charge_failed:
    "M -7 -4 L -4 -7 L 0 -3 L 4 -7 L 7 -4 L 3 0 L 7 4 L 4 7 L 0 3 L -4 7 L -7 4 L -3 0 Z",
};
const CRASH_SHAPE = "M 2 -10 L -6 1.5 L -0.5 1.5 L -2.5 10 L 6 -1.5 L 0.5 -1.5 Z";

const OUTCOMES = ["charged", "skipped", "failed", "crashed"] as const;

export interface Invocation {
  messageId: string;
  requestId: string;
  attempt?: number;
  /** charged | skipped | failed from process_end, or crashed when there is none. */
  outcome: string;
  startMs: number;
  endMs: number;
  events: WorkerEvent[];
}

/** The phase's invocations (events grouped by requestId + messageId, with a process_start), by start. */
export function invocationsOf(timeline: WorkerEvent[]): Invocation[] {
  const groups = new Map<string, WorkerEvent[]>();
  for (const event of timeline) {
    const key = `${event.requestId}\u0000${event.messageId}`;
    const group = groups.get(key);
    if (group) group.push(event);
    else groups.set(key, [event]);
  }
  const invocations: Invocation[] = [];
  for (const events of groups.values()) {
    const start = events.find((e) => e.type === "process_start");
    if (!start) continue;
    const end = events.find((e) => e.type === "process_end");
    const times = events.map((e) => Date.parse(e.ts));
    const attempt = Number(start.attempt);
    invocations.push({
      messageId: start.messageId,
      requestId: start.requestId,
      ...(Number.isFinite(attempt) && attempt > 0 ? { attempt } : {}),
      outcome: end ? show(end.outcome ?? "ended") : "crashed",
      startMs: Date.parse(start.ts),
      endMs: end ? Date.parse(end.ts) : Math.max(...times),
      events,
    });
  }
  return invocations.sort(
    (a, b) => a.startMs - b.startMs || a.messageId.localeCompare(b.messageId),
  );
}

const LAYOUT = {
  width: 1160,
  labelWidth: 210,
  outcomeWidth: 110,
  axisHeight: 34,
  laneHeight: 34,
  barHeight: 16,
  minBarWidth: 4,
  /** Marks closer than this are set side by side, so none hides another. */
  markSpacing: 15,
};

/** A round tick step giving at most eight ticks over the span. */
function tickStep(spanMs: number): number {
  for (let power = 1; power <= 1e7; power *= 10)
    for (const m of [1, 2, 5]) if (spanMs / (m * power) <= 8) return m * power;
  return 1e8;
}
const tickLabel = (ms: number, step: number) =>
  step >= 1000 ? `+${(ms / 1000).toFixed(0)} s` : `+${ms} ms`;
const clock = (ts: string) => ts.slice(11, 23);

function renderTimeline(timeline: WorkerEvent[], id: string): string {
  const invocations = invocationsOf(timeline);
  if (invocations.length === 0) return `<p class="empty">(no invocations logged)</p>`;
  const { width, labelWidth, outcomeWidth, axisHeight, laneHeight } = LAYOUT;
  const plotLeft = labelWidth;
  const plotRight = width - outcomeWidth - 40;
  const times = timeline.map((e) => Date.parse(e.ts));
  const t0 = Math.min(...times);
  const span = Math.max(Math.max(...times) - t0, 1);
  const x = (ms: number) => plotLeft + ((ms - t0) / span) * (plotRight - plotLeft);
  const height = axisHeight + invocations.length * laneHeight + 8;

  const step = tickStep(span);
  const ticks: string[] = [];
  for (let ms = 0; ms <= span; ms += step) {
    const tx = x(t0 + ms).toFixed(1);
    ticks.push(
      `<line class="grid-line" x1="${tx}" x2="${tx}" y1="${axisHeight - 6}" y2="${height - 4}"/>` +
        `<text class="tick" x="${tx}" y="${axisHeight - 12}" text-anchor="middle">${esc(tickLabel(ms, step))}</text>`,
    );
  }

  const lanes = invocations.map((inv, i) =>
    renderLane(inv, axisHeight + i * laneHeight, { x, t0, id, stripe: i % 2 === 1 }),
  );
  const start = timeline.find((e) => Date.parse(e.ts) === t0)?.ts ?? "";
  const orphans = timeline.length - invocations.reduce((n, inv) => n + inv.events.length, 0);

  return `<figure class="timeline">
<svg class="timeline-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"${attrs({ "aria-label": `${invocations.length} invocations over ${span} ms` })}>
<defs><pattern id="hatch-${esc(id)}" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#fee2e2"/><line x1="0" y1="0" x2="0" y2="8" stroke="#f87171" stroke-width="3"/></pattern></defs>
<text class="axis-title" x="12" y="${axisHeight - 12}">invocation</text>
<text class="axis-title" x="${width - 12}" y="${axisHeight - 12}" text-anchor="end">outcome</text>
${ticks.join("\n")}
${lanes.join("\n")}
</svg>
<figcaption>time from the first event, ${esc(start)} · one lane per invocation (messageId, attempt) · marks within a few ms of each other are set side by side; hover a mark for its time${orphans > 0 ? ` · ${orphans} event(s) from invocations with no process_start are not drawn` : ""}</figcaption>
${legend(invocations, id)}
</figure>`;
}

function renderLane(
  inv: Invocation,
  top: number,
  view: { x: (ms: number) => number; t0: number; id: string; stripe: boolean },
): string {
  const { width, laneHeight, barHeight, minBarWidth, markSpacing, outcomeWidth } = LAYOUT;
  const mid = top + laneHeight / 2;
  const x0 = view.x(inv.startMs);
  const barWidth = Math.max(view.x(inv.endMs) - x0, minBarWidth);
  const crashed = inv.outcome === "crashed";
  const relative = (ms: number) => `+${ms - view.t0} ms`;
  const attempt = inv.attempt !== undefined ? ` · attempt ${inv.attempt}` : "";
  const barTip = [
    `messageId ${inv.messageId}`,
    `requestId ${inv.requestId}`,
    ...(inv.attempt !== undefined ? [`attempt ${inv.attempt}`] : []),
    crashed
      ? `crashed: no process_end; last event at ${relative(inv.endMs)}`
      : `${inv.outcome} in ${inv.endMs - inv.startMs} ms`,
  ].join("\n");

  const parts: string[] = [];
  if (view.stripe)
    parts.push(`<rect class="lane-bg" x="0" y="${top}" width="${width}" height="${laneHeight}"/>`);
  parts.push(
    `<text class="lane-label" x="12" y="${mid + 5}"><tspan class="mid">${esc(inv.messageId.slice(0, 8))}</tspan>${esc(attempt)}</text>`,
  );
  parts.push(
    `<rect${attrs({
      class: `bar bar-${inv.outcome}`,
      "data-outcome": inv.outcome,
      x: x0.toFixed(1),
      y: (mid - barHeight / 2).toFixed(1),
      width: barWidth.toFixed(1),
      height: barHeight,
      rx: 4,
      fill: crashed ? `url(#hatch-${view.id})` : undefined,
    })}><title>${esc(barTip)}</title></rect>`,
  );

  const marks = inv.events.flatMap((e) => (isMarkType(e.type) ? [{ ...e, type: e.type }] : []));
  const markRight = width - outcomeWidth - (crashed ? 30 : 14);
  const xs = spread(
    marks.map((e) => view.x(Date.parse(e.ts))),
    markSpacing,
    markRight,
  );
  marks.forEach((event, i) => {
    parts.push(
      `<path${attrs({
        class: `mark k-${event.type}`,
        "data-type": event.type,
        "data-ts": event.ts,
        transform: `translate(${(xs[i] ?? 0).toFixed(1)} ${mid})`,
        d: SHAPES[event.type],
      })}><title>${esc(markTip(event, relative(Date.parse(event.ts))))}</title></path>`,
    );
  });
  if (crashed) {
    const lastX = Math.max(x0 + barWidth, ...xs);
    const cx = Math.min(lastX + 12, width - outcomeWidth - 12);
    const tip = `crashed: the invocation logged no process_end after ${clock(new Date(inv.endMs).toISOString())}`;
    // The word only where it fits before the outcome column, which says it anyway.
    const word = cx + 80 < width - outcomeWidth ? `<text x="10" y="5">crashed</text>` : "";
    parts.push(
      `<g class="crashed-mark" transform="translate(${cx.toFixed(1)} ${mid})"><title>${esc(tip)}</title><path d="${CRASH_SHAPE}"/>${word}</g>`,
    );
  }
  const outcomeText = crashed ? "✗ crashed" : inv.outcome;
  parts.push(
    `<text${attrs({ class: `outcome outcome-${inv.outcome}`, x: width - outcomeWidth + 4, y: mid + 5 })}>${esc(outcomeText)}</text>`,
  );
  return `<g${attrs({
    class: "lane",
    "data-message-id": inv.messageId,
    "data-request-id": inv.requestId,
    "data-attempt": inv.attempt,
    "data-outcome": inv.outcome,
  })}>${parts.join("")}</g>`;
}

/**
 * Positions for marks at xs (in time order), at least `spacing` apart so none hides another,
 * and none right of `limit`: pushed right where they crowd, pulled back left at the edge.
 */
export function spread(xs: number[], spacing: number, limit: number): number[] {
  const out: number[] = [];
  for (const [i, x] of xs.entries()) out.push(Math.max(x, (out[i - 1] ?? -Infinity) + spacing));
  for (let i = out.length - 1; i >= 0; i--)
    out[i] = Math.min(out[i] ?? 0, i === out.length - 1 ? limit : (out[i + 1] ?? 0) - spacing);
  return out;
}

const BASE_KEYS = new Set(["type", "orderId", "messageId", "requestId", "guard", "ts"]);

function markTip(event: WorkerEvent, relative: string): string {
  const details = Object.entries(event)
    .filter(([k]) => !BASE_KEYS.has(k))
    .map(([k, v]) => {
      const text = show(v);
      return `${k}: ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
    });
  return [
    `${event.type} at ${clock(event.ts)} (${relative})`,
    `orderId: ${event.orderId}`,
    ...details,
  ].join("\n");
}

/** A small inline SVG of the mark drawn for this event type (nothing for lifecycle events). */
function swatch(type: string): string {
  if (!isMarkType(type)) return `<span class="swatch"></span>`;
  return `<svg class="swatch" viewBox="-10 -10 20 20" width="18" height="18" aria-hidden="true"><path class="legend-shape k-${type}" d="${SHAPES[type]}"/></svg>`;
}

/** What this picture contains: the bar styles and mark kinds present, with counts. */
function legend(invocations: Invocation[], id: string): string {
  const counts = new Map<string, number>();
  for (const inv of invocations)
    for (const e of inv.events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  const outcomes = new Map<string, number>();
  for (const inv of invocations) outcomes.set(inv.outcome, (outcomes.get(inv.outcome) ?? 0) + 1);

  const bars = [...OUTCOMES, ...[...outcomes.keys()].filter((o) => !OUTCOMES.includes(o as never))]
    .filter((o) => outcomes.has(o))
    .map(
      (o) =>
        `<li><svg class="swatch bar-swatch" viewBox="0 0 34 16" width="34" height="16" aria-hidden="true"><rect class="legend-bar bar-${esc(o)}" x="1" y="1" width="32" height="14" rx="4"${o === "crashed" ? ` fill="url(#hatch-${esc(id)})"` : ""}/></svg>${esc(o)} <span class="count">×${outcomes.get(o)}</span></li>`,
    );
  const marks = MARK_TYPES.filter((t) => counts.has(t)).map(
    (t) =>
      `<li>${swatch(t)}<code>${esc(t)}</code> <span class="count">×${counts.get(t)}</span></li>`,
  );
  return `<div class="legend"><ul><li class="legend-title">bars: start → end</li>${bars.join("")}</ul>${
    marks.length ? `<ul><li class="legend-title">marks</li>${marks.join("")}</ul>` : ""
  }</div>`;
}

// ─── Style: light, system fonts, large enough for the back of a room ─────────────────────────

const CSS = `
:root {
  --fg: #1e293b; --muted: #64748b; --line: #e2e8f0; --card: #ffffff; --bg: #f8fafc;
  --ok: #15803d; --ok-bg: #dcfce7; --bad: #b91c1c; --bad-bg: #fee2e2;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "DejaVu Sans", sans-serif;
}
main { max-width: 1240px; margin: 0 auto; padding: 28px 28px 48px; }
h1 { font-size: 30px; line-height: 1.25; margin: 0 0 10px; }
h1 .scenario-name { font-family: var(--mono); font-size: 0.8em; background: #e0e7ff; color: #3730a3; padding: 2px 10px; border-radius: 8px; margin-right: 6px; vertical-align: 2px; }
h2 { font-size: 23px; margin: 0 0 12px; }
h3 { font-size: 17px; margin: 18px 0 8px; color: #334155; }
h3 small { font-weight: normal; color: var(--muted); }
code, pre { font-family: var(--mono); font-size: 0.88em; }
.story { font-size: 19px; max-width: 70em; margin: 0 0 8px; }
.backend { color: var(--muted); margin: 0 0 12px; }
.verdict { display: inline-block; margin: 0; padding: 6px 14px; border-radius: 8px; font-weight: 600; }
.verdict.pass { background: var(--ok-bg); color: var(--ok); }
.verdict.fail { background: var(--bad-bg); color: var(--bad); }
header { margin-bottom: 20px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 20px 24px; margin: 0 0 22px; box-shadow: 0 1px 2px rgb(15 23 42 / 0.05); }
.badge { display: inline-block; font-size: 14px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.04em; padding: 2px 9px; border-radius: 6px; vertical-align: 3px; margin-right: 6px; }
.badge.pass { background: var(--ok-bg); color: var(--ok); }
.badge.fail { background: var(--bad-bg); color: var(--bad); }
.setup { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 10px; }
.chip { background: #f1f5f9; border: 1px solid var(--line); border-radius: 999px; padding: 3px 12px; font-size: 15px; }
.chip .k { color: var(--muted); }
.sent { margin: 6px 0; }
code.body { background: #fef9c3; color: #713f12; padding: 1px 6px; border-radius: 4px; word-break: break-all; }
.missing { color: var(--bad); }
.grid { display: flex; flex-wrap: wrap; gap: 6px 44px; }
.view { max-width: 100%; overflow-x: auto; }
.view.wide { flex-basis: 100%; }
table { border-collapse: collapse; font-size: 15px; margin: 0 0 6px; }
th, td { text-align: left; padding: 5px 12px; border-bottom: 1px solid var(--line); }
th { font-weight: 600; color: #475569; background: #f8fafc; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td code { font-size: 14px; }
.ok { color: var(--ok); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
.empty { color: var(--muted); font-style: italic; }
.facts { color: var(--muted); font-size: 15px; margin: 4px 0; }
.status { font-weight: 600; font-size: 13px; padding: 1px 8px; border-radius: 5px; background: #f1f5f9; }
.status-completed { background: var(--ok-bg); color: var(--ok); }
.status-claimed { background: #fef3c7; color: #92400e; }
details { font-size: 14px; color: var(--muted); margin: 2px 0 8px; }
details pre { background: #f1f5f9; color: #334155; padding: 8px 12px; border-radius: 6px; overflow-x: auto; }
.checks { list-style: none; padding: 0; margin: 0; }
.checks li { padding: 3px 0; border-bottom: 1px dashed var(--line); }
.checks .detail { color: var(--muted); }
.check-fail .detail { color: var(--bad); }
.matrix-table th[scope=row] { font-weight: 600; }
.matrix-table td.cell { font-weight: 600; text-align: center; padding: 8px 16px; }
.matrix-table td.cell a { color: inherit; text-decoration: none; }
.cell-ok { background: var(--ok-bg); color: var(--ok); }
.cell-bad { background: var(--bad-bg); color: var(--bad); }
figure.timeline { margin: 0 0 8px; }
.timeline-svg { display: block; max-width: 100%; height: auto; background: #fff; border: 1px solid var(--line); border-radius: 8px; }
figcaption { color: var(--muted); font-size: 14px; margin: 6px 2px; }
.timeline-svg text { font-size: 15px; fill: var(--fg); }
.timeline-svg .tick, .timeline-svg .axis-title { font-size: 13px; fill: var(--muted); }
.timeline-svg .axis-title { font-weight: 600; text-transform: uppercase; letter-spacing: 0.05em; font-size: 12px; }
.grid-line { stroke: #e2e8f0; stroke-width: 1; }
.lane-bg { fill: #f8fafc; }
.lane-label .mid { font-family: var(--mono); font-weight: 600; }
.lane-label { fill: #334155; }
.bar, .legend-bar { stroke-width: 1.5; }
.bar-charged { fill: #bfdbfe; stroke: #2563eb; }
.bar-skipped { fill: #e2e8f0; stroke: #94a3b8; }
.bar-failed { fill: #fed7aa; stroke: #ea580c; }
.bar-crashed { stroke: #b91c1c; stroke-dasharray: 4 3; }
.outcome { font-weight: 600; }
.timeline-svg .outcome-charged { fill: #1d4ed8; }
.timeline-svg .outcome-skipped { fill: var(--muted); }
.timeline-svg .outcome-failed { fill: #c2410c; }
.timeline-svg .outcome-crashed { fill: var(--bad); }
.crashed-mark path { fill: #dc2626; stroke: #fff; stroke-width: 1; }
.timeline-svg .crashed-mark text { fill: #b91c1c; font-weight: 700; font-size: 13px; }
.mark, .legend-shape { stroke: #fff; stroke-width: 1.5; stroke-linejoin: round; paint-order: stroke; }
.legend-shape { stroke: none; }
.k-parse_failed { fill: #0d9488; }
.k-claim_won { fill: #16a34a; }
.k-claim_lost { fill: #f97316; }
.k-claim_busy { fill: #ca8a04; }
.k-claim_released { fill: #7c3aed; }
.k-skip_duplicate { fill: #64748b; }
.k-payload_mismatch { fill: #c026d3; }
.k-charge_applied { fill: #1d4ed8; }
.k-charge_failed { fill: #dc2626; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 28px; font-size: 15px; margin-top: 4px; }
.legend ul { list-style: none; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 18px; padding: 0; margin: 0; }
.legend li { display: inline-flex; align-items: center; gap: 6px; }
.legend-title { color: var(--muted); font-weight: 600; font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; }
.count { color: var(--muted); font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: 18px; height: 18px; vertical-align: -4px; margin-right: 4px; }
.bar-swatch { width: 34px; height: 16px; }
@media print { body { background: #fff; } .card { box-shadow: none; break-inside: avoid; } }
`;
