// npx lab grade's report as data, and for the terminal: one line per failure mode (✓, ✗, or
// not graded with its reason), the explorer's line, then for each ✗ the shortest interleaving that
// broke it: its steps, its invocations (timeline-view.ts) and its events. html/grade-page.ts draws
// the same view as a page.

import { paint } from "../common/say.js";
import type { WorkerEvent } from "../observe/events.js";
import { stdoutColour as useColour } from "./table.js";
import { textTimeline } from "./text.js";
import { timelineView } from "./timeline-view.js";
import type { PhaseView } from "./views.js";

export type GradeMark = "✓" | "✗" | "–";

export interface GradeRowView {
  mark: GradeMark;
  row: string;
  /** "exactly once", "doubled 1", "lost 1, wrong key 1". */
  text: string;
  /** Not graded: why. */
  notGraded?: string;
  /** What a person must read about this run: the guard threw, timed out, the race that did not happen. */
  notes: string[];
}

/** One interleaving that broke the guard: a matrix row's run, or the explorer's counterexample. */
export interface BrokenView {
  title: string;
  /** Numbered, or "+412 ms  copy 2  claim_won": what happened, in order. */
  steps: string[];
  events: WorkerEvent[];
  /** The copies' message ids, copy 1 first. */
  messageIds: string[];
  /** Lines to print after the timeline (a replay command, where the page is). */
  after: string[];
  /** The same as a phase of the HTML report. */
  phase: PhaseView;
}

export interface GradeView {
  guard: string;
  /** "a guard file: test/fixtures/guards/check-then-write.ts", "the lab's guard". */
  what: string;
  backend: { name: string; version: string; endpoint: string };
  rows: GradeRowView[];
  explorer: { mark: GradeMark; line: string };
  broken: BrokenView[];
  verdict: { pass: boolean; text: string };
}

const style = (s: Parameters<typeof paint>[0], text: string) => (useColour ? paint(s, text) : text);
const marked = (mark: GradeMark) =>
  mark === "✓" ? style("green", mark) : mark === "✗" ? style("red", mark) : style("dim", mark);

export function textGrade(view: GradeView): string {
  const out: string[] = [];
  out.push(`${style("bold", `grade ${view.guard}`)} (${view.what})`);
  out.push(
    style(
      "dim",
      `backend: ${view.backend.name} ${view.backend.version} at ${view.backend.endpoint}`,
    ),
  );
  out.push("");
  const width = Math.max(...view.rows.map((r) => r.row.length), "explorer".length);
  for (const row of view.rows) {
    const text = row.notGraded ? `${row.text} (not graded: ${row.notGraded})` : row.text;
    out.push(`${marked(row.mark)} ${row.row.padEnd(width)}  ${text}`);
    for (const note of row.notes) out.push(`  ${" ".repeat(width)}  ↳ ${note}`);
  }
  out.push(`${marked(view.explorer.mark)} ${"explorer".padEnd(width)}  ${view.explorer.line}`);
  for (const broken of view.broken) {
    out.push("", style("bold", `✗ ${broken.title}`));
    if (broken.steps.length > 0) {
      out.push("  Step by step", ...broken.steps.map((s) => `    ${s}`));
    }
    out.push(
      "  Invocations",
      ...invocationLines(broken.events, broken.messageIds).map((l) => `    ${l}`),
    );
    out.push("  Timeline", textTimeline(broken.events).replace(/^/gm, "    "));
    for (const line of broken.after) out.push(`  ${line}`);
  }
  out.push("");
  out.push(style(view.verdict.pass ? "green" : "red", view.verdict.text));
  return out.join("\n");
}

/** One line per invocation: which copy, when it ran, how it ended, what it logged between. */
export function invocationLines(events: WorkerEvent[], messageIds: string[]): string[] {
  const view = timelineView(events);
  const copies = [...messageIds, ...new Set(events.map((e) => e.messageId))];
  return view.lanes.map((lane) => {
    const copy = `copy ${copies.indexOf(lane.messageId) + 1}`;
    const attempt =
      lane.attempt !== undefined && lane.attempt > 1 ? ` (attempt ${lane.attempt})` : "";
    const when = `+${lane.startMs - view.t0} → +${lane.endMs - view.t0} ms`;
    const ended = lane.crashed ? "no process_end (killed or timed out)" : lane.outcome;
    const marks = lane.marks.map((m) => m.type).filter((t) => t !== "failpoint");
    return `${copy}${attempt}  ${when}  ${ended}${marks.length ? `: ${marks.join(", ")}` : ""}`;
  });
}
