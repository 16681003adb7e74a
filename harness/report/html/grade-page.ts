// npx lab grade --html: the grade as one self-contained page. The rows and the explorer's
// line at the top, then each interleaving that broke the guard as a phase of the scenario report
// (its steps, its timeline of invocations, its tables), drawn by page.ts's htmlPhase.
import type { GradeMark, GradeView } from "../grade-view.js";
import { esc } from "./escape.js";
import { htmlPhase } from "./page.js";
import { CSS } from "./style.js";

const markClass = (mark: GradeMark) => (mark === "✓" ? "ok" : mark === "✗" ? "bad" : "muted");

export function htmlGrade(view: GradeView): string {
  const rows = view.rows.map((row) => {
    const notes = row.notes.map((n) => `<div class="note">↳ ${esc(n)}</div>`).join("");
    const notGraded = row.notGraded
      ? `<div class="note">not graded: ${esc(row.notGraded)}</div>`
      : "";
    return `<tr><td class="${markClass(row.mark)}">${esc(row.mark)}</td><th scope="row">${esc(row.row)}</th><td>${esc(row.text)}${notGraded}${notes}</td></tr>`;
  });
  rows.push(
    `<tr><td class="${markClass(view.explorer.mark)}">${esc(view.explorer.mark)}</td><th scope="row">explorer</th><td>${esc(view.explorer.line)}</td></tr>`,
  );
  const broken = view.broken.map((b, i) =>
    htmlPhase({ ...b.phase, number: i + 1, total: view.broken.length, name: b.title }, b.after),
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`grade ${view.guard}`)}</title>
<style>${CSS}
.grade-table td, .grade-table th { text-align: left; vertical-align: top; padding: 4px 12px 4px 0; }
.grade-table .ok { color: var(--ok); font-weight: 700; }
.grade-table .bad { color: var(--bad); font-weight: 700; }
.grade-table .muted { color: var(--muted); }
.note { color: var(--muted); font-size: 15px; }
</style>
</head>
<body>
<main>
<header>
<h1><span class="scenario-name">grade</span> ${esc(view.guard)}</h1>
<p class="story">${esc(view.what)}</p>
<p class="backend">backend: ${esc(`${view.backend.name} ${view.backend.version}`)} at <code>${esc(view.backend.endpoint)}</code></p>
<p class="verdict ${view.verdict.pass ? "pass" : "fail"}">${esc(view.verdict.text)}</p>
</header>
<section class="card">
<h2>Failure modes</h2>
<table class="grade-table"><tbody>
${rows.join("\n")}
</tbody></table>
</section>
${broken.join("\n")}
</main>
</body>
</html>
`;
}
