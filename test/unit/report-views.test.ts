// One view model, two reports: whatever the views say about a phase (its setup, the columns of
// its tables), the terminal report and the HTML page both show. A field added to views.ts but
// drawn by only one report fails here.
import { describe, expect, test } from "vitest";
import { htmlPage, renderHtml } from "../../harness/report/html/page.js";
import { textReport, textScenario } from "../../harness/report/text.js";
import { observationView, type PhaseView, reportView } from "../../harness/report/views.js";
import { phaseResult, scenarioResult } from "./fixtures.js";

/** A lease phase run by harness pollers, so every optional setup field has a value. */
const phase = phaseResult({
  setup: {
    guard: "lease",
    parseMode: "strict",
    fault: "crash-after-claim",
    workMs: 200,
    pollers: 2,
    raceWindowMs: 25,
    leaseMs: 1500,
    leaseDefences: "fence",
    providerKey: "orderId",
    recordTtlSeconds: 2,
    batchFailures: "throw",
    batchSize: 10,
    visibilitySeconds: 1,
    queue: "fifo",
  },
  checks: [{ name: "charges", pass: true, expected: 2, actual: 2 }],
  pass: true,
});
const result = scenarioResult({ phases: [phase], pass: true });

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;
const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};
/** What a reader sees: the text without colours, the page without tags or entities. */
const seenInText = (text: string) => text.replace(ANSI, "");
const seenInHtml = (html: string) =>
  html.replace(/<[^>]*>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/** A label next to its value, however the report sets them apart (`=`, `: `, a space). */
const labelled = (label: string, value: string) => {
  const quote = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`${quote(label)}\\s*[=:]?\\s*${quote(value)}`);
};

describe("the text and HTML reports draw the same views", () => {
  const [view] = reportView(result).phases as [PhaseView];
  const outputs = {
    text: seenInText(textScenario(result)),
    html: seenInHtml(renderHtml(result)),
  };

  test("the fixture exercises every optional setup field", () => {
    expect(view.setup.fields.map((f) => f.label)).toEqual(
      expect.arrayContaining([
        "pollers",
        "race window",
        "lease",
        "lease defences",
        "provider key",
        "records kept",
        "batch failures",
        "batch size",
        "queue visibility",
        "queue",
      ]),
    );
  });

  for (const [report, seen] of Object.entries(outputs)) {
    test(`${report}: every setup field, with its value`, () => {
      for (const { label, value } of view.setup.fields)
        expect(seen, `${report} shows setup field "${label}"`).toMatch(labelled(label, value));
      expect(seen).toMatch(labelled("delivered by", view.setup.deliveredBy));
    });

    test(`${report}: every column of the intended-orders table`, () => {
      for (const column of view.intended.columns)
        expect(seen, `${report} shows column "${column}"`).toContain(column);
    });

    test(`${report}: the facts and every column of counts, charges and claims`, () => {
      for (const { label, value } of view.facts) expect(seen).toMatch(labelled(label, value));
      for (const table of [view.counts, view.charges, view.claims])
        for (const column of table.rows.length ? table.columns : [table.empty ?? ""])
          expect(seen).toContain(column);
    });
  }

  test("a workshop send (no checks) has no verdict, no badge and no checks in either report", () => {
    // As lab-cli draws `npx lab report`: observationView, then htmlPage (or textReport).
    const { verdict: _, ...unchecked } = reportView(result);
    const send = { ...unchecked, phases: [observationView({ ...phase, missing: [] }, 1, 1)] };
    expect(renderHtml(result)).toContain('class="badge pass"');
    expect(htmlPage(send)).not.toMatch(/class="badge|class="verdict|<h3>Checks/);
    const text = seenInText(textReport(send));
    expect(text).not.toMatch(/PASS|FAIL|Checks/);
    expect(text).toContain("lease=1500 ms");
  });
});

describe("an empty claims table", () => {
  const empty = (guard: "powertools" | "claim") => {
    const base = phaseResult();
    const phaseOf = phaseResult({
      setup: { ...base.setup, guard },
      observed: { ...base.observed, claims: [] },
    });
    const run = scenarioResult({ phases: [phaseOf], pass: true });
    return { text: seenInText(textScenario(run)), html: seenInHtml(renderHtml(run)) };
  };

  test("under Powertools, both reports say its record is in a table of its own", () => {
    for (const shown of Object.values(empty("powertools"))) {
      expect(shown).toContain("Powertools keeps its record in a table of its own");
    }
  });

  test("under another guard, both reports say (empty) and no more", () => {
    for (const shown of Object.values(empty("claim"))) {
      expect(shown).toContain("(empty)");
      expect(shown).not.toContain("Powertools keeps its record");
    }
  });
});
