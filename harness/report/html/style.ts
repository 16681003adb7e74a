// The page's style: light, system fonts, large enough for the back of a room. Inline in the
// page (no stylesheet to fetch), so the report opens offline. Mark colours match the shapes
// in timeline.ts by class (k-<event type>), bar colours by outcome (bar-<outcome>).

export const CSS = `
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
.batch-bracket { fill: #b45309; }
.lane-label .mid { font-family: var(--mono); font-weight: 600; }
.lane-label { fill: #334155; }
.lane-group { fill: #64748b; font-size: 11px; }
.steps { margin: 10px 0 0; }
.steps pre { margin: 6px 0 0; font-size: 12px; }
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
.k-charge_replayed { fill: #1d4ed8; fill-rule: evenodd; }
.k-charge_failed { fill: #dc2626; }
.k-batch_failed { fill: #b45309; fill-rule: evenodd; }
.k-lease_lost { fill: #9f1239; fill-rule: evenodd; }
.k-failpoint { fill: #475569; }
.k-failpoint_released { fill: #0f766e; }
.k-fault { fill: #b45309; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 28px; font-size: 15px; margin-top: 4px; }
.legend ul { list-style: none; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 18px; padding: 0; margin: 0; }
.legend li { display: inline-flex; align-items: center; gap: 6px; }
.legend-title { color: var(--muted); font-weight: 600; font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; }
.count { color: var(--muted); font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: 18px; height: 18px; vertical-align: -4px; margin-right: 4px; }
.bar-swatch { width: 34px; height: 16px; }
@media print { body { background: #fff; } .card { box-shadow: none; break-inside: avoid; } }
`;
