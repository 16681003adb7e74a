// The HTML report as a pure function of a hand-built result: escaping, one lane per invocation,
// a crashed invocation drawn as such, one mark per event of each kind, and no outside resources.
import { describe, expect, test } from "vitest";
import type { WorkerEvent } from "../../harness/observe/events.js";
import { invocationSpans } from "../../harness/observe/invocations.js";
import { esc } from "../../harness/report/html/escape.js";
import { renderHtml } from "../../harness/report/html/page.js";
import type { PhaseResult, ScenarioResult } from "../../harness/scenario/result.js";
import { event } from "./fixtures.js";

const MANGLED = `{orderId:ORDER-001,"note":"<script>alert('x')</script>"}`;

/** Five invocations: a charge, a skipped copy, a crash and its retry, a body that did not parse. */
const timeline: WorkerEvent[] = [
  event("process_start", "msg-aaaa-1", 0, { attempt: 1 }),
  event("claim_won", "msg-aaaa-1", 10),
  event("charge_applied", "msg-aaaa-1", 200, { chargeId: "ch-1", amount: 150 }),
  event("process_end", "msg-aaaa-1", 210, { outcome: "charged" }),
  event("process_start", "msg-bbbb-2", 5, { attempt: 1 }),
  event("claim_lost", "msg-bbbb-2", 12),
  event("skip_duplicate", "msg-bbbb-2", 12),
  event("process_end", "msg-bbbb-2", 13, { outcome: "skipped" }),
  event("process_start", "msg-cccc-3", 20, { attempt: 1 }),
  event("claim_won", "msg-cccc-3", 25),
  event("process_start", "msg-cccc-3", 4020, { attempt: 2, requestId: "req-retry" }),
  event("claim_won", "msg-cccc-3", 4030, { requestId: "req-retry", tookOverFrom: "msg-cccc-3" }),
  event("charge_applied", "msg-cccc-3", 4230, { requestId: "req-retry", chargeId: "ch-2" }),
  event("process_end", "msg-cccc-3", 4240, { requestId: "req-retry", outcome: "charged" }),
  event("process_start", "msg-dddd-4", 30, { attempt: 1, orderId: "unparseable" }),
  event("parse_failed", "msg-dddd-4", 31, { orderId: "unparseable", body: MANGLED }),
  event("process_end", "msg-dddd-4", 31, { orderId: "unparseable", outcome: "failed" }),
];

function phaseResult(overrides: Partial<PhaseResult> = {}): PhaseResult {
  return {
    name: "a crash, a copy & a <mangled> body",
    setup: {
      guard: "lease",
      parseMode: "lenient",
      fault: "crash-after-claim",
      workMs: 200,
      pollers: 0,
    },
    sent: {
      messages: 4,
      messageIds: ["msg-aaaa-1", "msg-bbbb-2", "msg-cccc-3", "msg-dddd-4"],
      orderIds: ["ORDER-001"],
      bodies: [MANGLED],
    },
    observed: {
      eventCounts: { process_start: 5, claim_won: 3, charge_applied: 2, process_end: 4 },
      charges: { charges: 2, orders: 1, messages: 2 },
      chargesByOrder: { "ORDER-001": 2 },
      intended: {
        "ORDER-001": {
          messages: 4,
          charges: 2,
          chargedUnderItsId: 2,
          deadLettered: 0,
          verdict: "duplicated",
        },
      },
      claims: [
        {
          orderId: "ORDER-001",
          status: "COMPLETED",
          messageId: "msg-cccc-3",
          requestId: "req-retry",
          claimedAt: "2026-11-30T12:00:00.000Z",
          completedMessageId: "msg-cccc-3",
        },
      ],
      ledger: 2,
      dlq: 0,
      maxConcurrency: 3,
    },
    wait: { ms: 4300, missing: [], lateLogNudges: 0 },
    checks: [
      { name: "charges", pass: false, expected: 1, actual: 2 },
      { name: "ledger items", pass: true, expected: 2, actual: 2 },
    ],
    timeline,
    pass: false,
    durationMs: 5000,
    ...overrides,
  };
}

function scenarioResult(overrides: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario: "hand-built",
    title: `A "test" <title>`,
    story: `Bodies like {"a":1} & <b>tags</b> must stay text.`,
    backend: { name: "ministack", version: "1.5.33", endpoint: "http://127.0.0.1:4566" },
    phases: [phaseResult()],
    pass: false,
    durationMs: 5000,
    ...overrides,
  };
}

/** The opening tags of the lanes, each with the rest of its lane. */
const lanesOf = (html: string) => html.split('<g class="lane"').slice(1);
const marksOf = (html: string) =>
  [...html.matchAll(/<path class="mark k-[a-z_]+" data-type="([a-z_]+)"/g)].map((m) => m[1]);

describe("renderHtml", () => {
  const html = renderHtml(scenarioResult());

  test("escapes every piece of text, bodies included", () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>tags</b>");
    expect(html).not.toContain("<mangled>");
    expect(html).toContain(esc(MANGLED));
    expect(html).toContain("&lt;b&gt;tags&lt;/b&gt;");
    expect(html).toContain("<title>hand-built: A &quot;test&quot; &lt;title&gt;</title>");
  });

  test("is one self-contained page: no scripts, no links, no outside resources", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import|url\((?!#)/i);
  });

  test("one lane per invocation, in start order, labelled with messageId and attempt", () => {
    const lanes = lanesOf(html);
    expect(lanes).toHaveLength(5);
    const ids = lanes.map((l) =>
      l.match(/data-message-id="([^"]+)" data-request-id="([^"]+)"/)?.slice(1),
    );
    expect(ids).toEqual([
      ["msg-aaaa-1", "req-msg-aaaa-1"],
      ["msg-bbbb-2", "req-msg-bbbb-2"],
      ["msg-cccc-3", "req-msg-cccc-3"],
      ["msg-dddd-4", "req-msg-dddd-4"],
      ["msg-cccc-3", "req-retry"],
    ]);
    expect(lanes[4]).toContain('<tspan class="mid">msg-cccc</tspan> · attempt 2');
  });

  test("each bar says how its invocation ended; the one without process_end crashed", () => {
    const outcomes = lanesOf(html).map(
      (l) => l.match(/<rect class="bar[^"]*" data-outcome="(\w+)"/)?.[1],
    );
    expect(outcomes).toEqual(["charged", "skipped", "crashed", "failed", "charged"]);
    const crash = lanesOf(html)[2] ?? "";
    expect(crash).toContain('class="crashed-mark"');
    expect(crash).toContain('fill="url(#hatch-p1)"');
    expect(html.match(/class="crashed-mark"/g)).toHaveLength(1);
  });

  test("every bar is visible, even an invocation that took no time", () => {
    const widths = [...html.matchAll(/<rect class="bar[^>]* width="([\d.]+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(widths).toHaveLength(5);
    for (const width of widths) expect(width).toBeGreaterThanOrEqual(4);
  });

  test("one mark per event of each drawn kind, with its type and time as a tooltip", () => {
    const counts: Record<string, number> = {};
    for (const type of marksOf(html)) if (type) counts[type] = (counts[type] ?? 0) + 1;
    expect(counts).toEqual({
      claim_won: 3,
      charge_applied: 2,
      claim_lost: 1,
      skip_duplicate: 1,
      parse_failed: 1,
    });
    expect(html).toMatch(
      /data-type="charge_applied"[^>]*><title>charge_applied at 12:00:00\.200 \(\+200 ms\)/,
    );
    // The legend uses the same shapes under another class, so it does not count as marks.
    expect(html).toContain('class="legend-shape k-charge_applied"');
  });

  test("the views: setup, counts, claims, intended orders, checks", () => {
    for (const text of [
      "lease",
      "crash-after-claim",
      "200 ms",
      "ORDER-001",
      "COMPLETED",
      "✗ duplicated",
    ])
      expect(html).toContain(text);
    expect(html).toContain(
      '✗</span> charges: <span class="detail">expected <code>1</code>, got <code>2</code>',
    );
    expect(html).toContain("✓</span> ledger items");
    expect(html).not.toContain('<table class="matrix-table"');
  });

  test("a matrix result gets its table at the top, green where ok and red where not", () => {
    const cells = [
      { row: "crash", column: "claim", ok: false, text: "✗ lost 1", charges: 0, orders: 0 },
      { row: "crash", column: "lease", ok: true, text: "✓ exactly once", charges: 1, orders: 1 },
    ];
    const matrix = renderHtml(
      scenarioResult({
        phases: [phaseResult({ cell: cells[0] }), phaseResult({ cell: cells[1] })],
        matrix: { rows: ["crash"], columns: ["claim", "lease"], cells },
      }),
    );
    expect(matrix.indexOf('<table class="matrix-table"')).toBeLessThan(
      matrix.indexOf('id="phase-1"'),
    );
    expect(matrix).toMatch(/class="cell cell-bad"[^>]*><a href="#phase-1">✗ lost 1<\/a>/);
    expect(matrix).toMatch(/class="cell cell-ok"[^>]*><a href="#phase-2">✓ exactly once<\/a>/);
  });

  test("a phase with no events says so instead of drawing", () => {
    const empty = renderHtml(scenarioResult({ phases: [phaseResult({ timeline: [] })] }));
    expect(lanesOf(empty)).toHaveLength(0);
    expect(empty).toContain("(no invocations logged)");
  });
});

describe("invocationSpans", () => {
  test("groups by requestId and messageId and leaves out groups with no process_start", () => {
    const orphan = event("claim_lost", "msg-zzzz-9", 50);
    const invocations = invocationSpans([...timeline, orphan]);
    expect(invocations.map((i) => `${i.messageId}/${i.attempt}/${i.outcome}`)).toEqual([
      "msg-aaaa-1/1/charged",
      "msg-bbbb-2/1/skipped",
      "msg-cccc-3/1/crashed",
      "msg-dddd-4/1/failed",
      "msg-cccc-3/2/charged",
    ]);
    const crashed = invocations[2];
    expect(crashed?.endMs).toBe(Date.parse(timeline[9]?.ts ?? ""));
  });
});
