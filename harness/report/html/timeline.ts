// The timeline view drawn as SVG: one lane per invocation, a bar from start to end, a mark per
// event. The SVG carries data-* attributes (lane, bar outcome, mark type) so a test can check
// the picture against the data.
import type { LaneView, MarkType, TimelineView } from "../timeline-view.js";
import { isMarkType } from "../timeline-view.js";
import { attrs, esc } from "./escape.js";

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

/** Path data centred on 0,0, about 16 px across; each has a colour too (see style.ts). */
const SHAPES: Record<MarkType, string> = {
  parse_failed: hexagon(7.5),
  claim_won: "M -7 0 A 7 7 0 1 0 7 0 A 7 7 0 1 0 -7 0 Z",
  claim_lost: "M -7.5 -6 L 7.5 -6 L 0 7.5 Z",
  claim_busy: "M -6.5 -7 L 6.5 -7 L -6.5 7 L 6.5 7 Z",
  claim_released: "M -7.5 6 L 7.5 6 L 0 -7.5 Z",
  skip_duplicate: "M 0 -8 L 8 0 L 0 8 L -8 0 Z",
  payload_mismatch: "M -6.5 -6.5 H 6.5 V 6.5 H -6.5 Z",
  charge_applied: star(9, 3.8),
  // A hollow star: the provider had this key already and returned its charge, nothing new.
  charge_replayed: `${star(9, 3.8)} ${star(5, 2.1)}`,
  charge_failed:
    "M -7 -4 L -4 -7 L 0 -3 L 4 -7 L 7 -4 L 3 0 L 7 4 L 4 7 L 0 3 L -4 7 L -7 4 L -3 0 Z",
  // A shield with a bar across: the fence refused this copy's charge.
  lease_lost: "M 0 -8 L 7 -5 L 6 3 L 0 8 L -6 3 L -7 -5 Z M -5 -1 H 5 V 1 H -5 Z",
  // A broken box: the batch this record was in failed, so it goes back to the queue.
  batch_failed: "M -7 -7 H 7 V 7 H -7 Z M -5 -5 V 5 H 5 V -5 Z M -7 2 L 7 -2 V 0 L -7 4 Z",
  // Two bars: the copy reached a failpoint (held there if it pauses); a triangle: released.
  failpoint: "M -6 -7 H -1.5 V 7 H -6 Z M 1.5 -7 H 6 V 7 H 1.5 Z",
  failpoint_released: "M -5 -7 L 7 0 L -5 7 Z",
  // A lightning bolt: a fault at the boundary (a lost answer, a throttle) acted on this copy.
  fault: "M 2 -8 L -6 1 L -1 1 L -3 8 L 6 -2 L 1 -2 Z",
};
const CRASH_SHAPE = "M 2 -10 L -6 1.5 L -0.5 1.5 L -2.5 10 L 6 -1.5 L 0.5 -1.5 Z";

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

/** The timeline as a figure; `id` keeps this phase's SVG ids apart from other phases'. */
export function htmlTimeline(view: TimelineView, id: string): string {
  if (view.lanes.length === 0) return `<p class="empty">(no invocations logged)</p>`;
  const { width, labelWidth, outcomeWidth, axisHeight, laneHeight } = LAYOUT;
  const { t0, spanMs: span } = view;
  const plotLeft = labelWidth;
  const plotRight = width - outcomeWidth - 40;
  const x = (ms: number) => plotLeft + ((ms - t0) / span) * (plotRight - plotLeft);
  const height = axisHeight + view.lanes.length * laneHeight + 8;

  const step = tickStep(span);
  const ticks: string[] = [];
  for (let ms = 0; ms <= span; ms += step) {
    const tx = x(t0 + ms).toFixed(1);
    ticks.push(
      `<line class="grid-line" x1="${tx}" x2="${tx}" y1="${axisHeight - 6}" y2="${height - 4}"/>` +
        `<text class="tick" x="${tx}" y="${axisHeight - 12}" text-anchor="middle">${esc(tickLabel(ms, step))}</text>`,
    );
  }
  const lanes = view.lanes.map((lane, i) =>
    htmlLane(lane, axisHeight + i * laneHeight, { x, id, stripe: i % 2 === 1 }),
  );
  // A bracket joins the lanes of one invocation that handled a batch of records.
  const brackets = view.lanes.flatMap((lane, i) =>
    lane.batch?.first
      ? [
          `<rect${attrs({
            class: "batch-bracket",
            "data-records": lane.batch.records,
            x: 3,
            y: axisHeight + i * laneHeight + 3,
            width: 4,
            height: lane.batch.records * laneHeight - 6,
            rx: 2,
          })}><title>${esc(`one invocation, ${lane.batch.records} records · requestId ${lane.requestId}`)}</title></rect>`,
        ]
      : [],
  );
  const orphans = view.orphans;

  return `<figure class="timeline">
<svg class="timeline-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img"${attrs({ "aria-label": `${view.lanes.length} invocations over ${span} ms` })}>
<defs><pattern id="hatch-${esc(id)}" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="#fee2e2"/><line x1="0" y1="0" x2="0" y2="8" stroke="#f87171" stroke-width="3"/></pattern></defs>
<text class="axis-title" x="12" y="${axisHeight - 12}">invocation</text>
<text class="axis-title" x="${width - 12}" y="${axisHeight - 12}" text-anchor="end">outcome</text>
${ticks.join("\n")}
${lanes.join("\n")}
${brackets.join("\n")}
</svg>
<figcaption>time from the first event, ${esc(view.startTs)} · one lane per invocation of a record (messageId, attempt)${brackets.length > 0 ? "; a bracket joins the records one invocation got as a batch" : ""}${view.lanes.some((l) => l.group !== undefined) ? "; under each id its FIFO message group (SQS hands a group's messages over one at a time, in order)" : ""} · marks within a few ms of each other are set side by side; hover a mark for its time${orphans > 0 ? ` · ${orphans} event(s) from invocations with no process_start are not drawn` : ""}</figcaption>
${legend(view, id)}
</figure>`;
}

function htmlLane(
  lane: LaneView,
  top: number,
  at: { x: (ms: number) => number; id: string; stripe: boolean },
): string {
  const { width, laneHeight, barHeight, minBarWidth, markSpacing, outcomeWidth } = LAYOUT;
  const mid = top + laneHeight / 2;
  const x0 = at.x(lane.startMs);
  const barWidth = Math.max(at.x(lane.endMs) - x0, minBarWidth);
  const { crashed } = lane;
  const attempt = lane.attempt !== undefined ? ` · attempt ${lane.attempt}` : "";

  const parts: string[] = [];
  if (at.stripe)
    parts.push(`<rect class="lane-bg" x="0" y="${top}" width="${width}" height="${laneHeight}"/>`);
  // On a FIFO queue a second, smaller line names the lane's message group.
  const labelY = lane.group === undefined ? mid + 5 : mid - 1;
  parts.push(
    `<text class="lane-label" x="12" y="${labelY}"><tspan class="mid">${esc(lane.messageId.slice(0, 8))}</tspan>${esc(attempt)}</text>`,
  );
  if (lane.group !== undefined)
    parts.push(`<text class="lane-group" x="12" y="${mid + 12}">group ${esc(lane.group)}</text>`);
  parts.push(
    `<rect${attrs({
      class: `bar bar-${lane.outcome}`,
      "data-outcome": lane.outcome,
      x: x0.toFixed(1),
      y: (mid - barHeight / 2).toFixed(1),
      width: barWidth.toFixed(1),
      height: barHeight,
      rx: 4,
      fill: crashed ? `url(#hatch-${at.id})` : undefined,
    })}><title>${esc(lane.tip)}</title></rect>`,
  );

  const markRight = width - outcomeWidth - (crashed ? 30 : 14);
  const xs = spread(
    lane.marks.map((m) => at.x(m.atMs)),
    markSpacing,
    markRight,
  );
  lane.marks.forEach((mark, i) => {
    parts.push(
      `<path${attrs({
        class: `mark k-${mark.type}`,
        "data-type": mark.type,
        "data-ts": mark.ts,
        transform: `translate(${(xs[i] ?? 0).toFixed(1)} ${mid})`,
        d: SHAPES[mark.type],
      })}><title>${esc(mark.tip)}</title></path>`,
    );
  });
  if (crashed) {
    const lastX = Math.max(x0 + barWidth, ...xs);
    const cx = Math.min(lastX + 12, width - outcomeWidth - 12);
    // The word only where it fits before the outcome column, which says it anyway.
    const word = cx + 80 < width - outcomeWidth ? `<text x="10" y="5">crashed</text>` : "";
    parts.push(
      `<g class="crashed-mark" transform="translate(${cx.toFixed(1)} ${mid})"><title>${esc(lane.crashTip ?? "")}</title><path d="${CRASH_SHAPE}"/>${word}</g>`,
    );
  }
  const outcomeText = crashed ? "✗ crashed" : lane.outcome;
  parts.push(
    `<text${attrs({ class: `outcome outcome-${lane.outcome}`, x: width - outcomeWidth + 4, y: mid + 5 })}>${esc(outcomeText)}</text>`,
  );
  return `<g${attrs({
    class: "lane",
    "data-message-id": lane.messageId,
    "data-request-id": lane.requestId,
    "data-attempt": lane.attempt,
    "data-outcome": lane.outcome,
    "data-group": lane.group,
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

/** A small inline SVG of the mark drawn for this event type (nothing for lifecycle events). */
export function swatch(type: string): string {
  if (!isMarkType(type)) return `<span class="swatch"></span>`;
  return `<svg class="swatch" viewBox="-10 -10 20 20" width="18" height="18" aria-hidden="true"><path class="legend-shape k-${type}" d="${SHAPES[type]}"/></svg>`;
}

/** What this picture contains: the bar styles and mark kinds present, with counts. */
function legend(view: TimelineView, id: string): string {
  const bars = view.legend.outcomes.map(
    ({ outcome: o, count }) =>
      `<li><svg class="swatch bar-swatch" viewBox="0 0 34 16" width="34" height="16" aria-hidden="true"><rect class="legend-bar bar-${esc(o)}" x="1" y="1" width="32" height="14" rx="4"${o === "crashed" ? ` fill="url(#hatch-${esc(id)})"` : ""}/></svg>${esc(o)} <span class="count">×${count}</span></li>`,
  );
  const marks = view.legend.marks.map(
    (t) =>
      `<li>${swatch(t)}<code>${esc(t)}</code> <span class="count">×${view.markCounts[t]}</span></li>`,
  );
  return `<div class="legend"><ul><li class="legend-title">bars: start → end</li>${bars.join("")}</ul>${
    marks.length ? `<ul><li class="legend-title">marks</li>${marks.join("")}</ul>` : ""
  }</div>`;
}
