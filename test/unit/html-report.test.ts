// The HTML report as a pure function of a hand-built result: escaping, one lane per invocation,
// a crashed invocation drawn as such, one mark per event of each kind, and no outside resources.
import { describe, expect, test } from "vitest";
import { invocationSpans } from "../../harness/observe/invocations.js";
import { esc } from "../../harness/report/html/escape.js";
import { renderHtml } from "../../harness/report/html/page.js";
import { textScenario } from "../../harness/report/text.js";
import {
  event,
  MANGLED,
  phaseResult,
  scenarioResult,
  sampleTimeline as timeline,
} from "./fixtures.js";

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
      { row: "crash", column: "claim", ok: false, failures: { lost: 1 }, charges: 0, orders: 0 },
      { row: "crash", column: "lease", ok: true, failures: {}, charges: 1, orders: 1 },
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

  test("a batch: its records' lanes side by side, joined by one bracket", () => {
    const batch = "req-batch";
    const record = (messageId: string, at: number, orderId: string) => [
      event("process_start", messageId, at, { requestId: batch, orderId, attempt: 1 }),
      event("process_end", messageId, at + 20, { requestId: batch, orderId, outcome: "charged" }),
    ];
    const page = renderHtml(
      scenarioResult({
        phases: [
          phaseResult({
            timeline: [
              ...record("msg-b1", 0, "ORDER-401"),
              event("process_start", "msg-alone", 5, { attempt: 1 }),
              event("process_end", "msg-alone", 8, { outcome: "skipped" }),
              ...record("msg-b2", 30, "ORDER-402"),
              ...record("msg-b3", 60, "ORDER-403"),
            ],
          }),
        ],
      }),
    );
    const requests = lanesOf(page).map((l) => l.match(/data-request-id="([^"]+)"/)?.[1]);
    expect(requests).toEqual([batch, batch, batch, "req-msg-alone"]);
    expect(page.match(/class="batch-bracket" data-records="(\d+)"/g)).toEqual([
      'class="batch-bracket" data-records="3"',
    ]);
    expect(lanesOf(page)[1]).toContain("orderId ORDER-402");
  });

  test("a FIFO phase names each lane's message group; a standard one does not", () => {
    const copies = [
      event("process_start", "msg-f1", 0, { orderId: "ORDER-601", attempt: 1 }),
      event("process_end", "msg-f1", 20, { orderId: "ORDER-601", outcome: "charged" }),
      event("process_start", "msg-f2", 30, { orderId: "ORDER-602", attempt: 1 }),
      event("process_end", "msg-f2", 50, { orderId: "ORDER-602", outcome: "charged" }),
    ];
    const page = (queue?: "fifo" | "standard") =>
      renderHtml(
        scenarioResult({
          phases: [
            phaseResult({
              setup: { ...phaseResult().setup, ...(queue ? { queue } : {}) },
              timeline: copies,
            }),
          ],
        }),
      );
    const groups = (html: string) => lanesOf(html).map((l) => l.match(/data-group="([^"]+)"/)?.[1]);
    expect(groups(page("fifo"))).toEqual(["ORDER-601", "ORDER-602"]);
    expect(lanesOf(page("fifo"))[0]).toContain('<text class="lane-group"');
    expect(page("fifo")).toContain("under each id its FIFO message group");
    expect(groups(page("standard"))).toEqual([undefined, undefined]);
    expect(page()).not.toContain('<text class="lane-group"');
  });

  test("a phase that held copies at failpoints lists its steps, on the page and in the terminal", () => {
    const event = (type: string, ms: number, extra: Record<string, unknown> = {}) => ({
      type,
      orderId: "ORDER-009",
      messageId: ms < 100 ? "m-first" : "m-second",
      requestId: "r",
      guard: "lease",
      ts: new Date(Date.UTC(2026, 0, 1) + ms).toISOString(),
      ...extra,
    });
    const held = phaseResult({
      sent: { ...phaseResult().sent, messageIds: ["m-first", "m-second"] },
      timeline: [
        event("failpoint", 5, {
          point: "before-charge",
          rule: "before-charge=pause@copy1",
          action: "pause",
        }),
        event("claim_busy", 300),
      ] as ReturnType<typeof phaseResult>["timeline"],
    });
    const said = "+0 ms  copy 1  held at before-charge";
    expect(textScenario(scenarioResult({ phases: [held] }))).toContain(said);
    expect(renderHtml(scenarioResult({ phases: [held] }))).toContain("+295 ms  copy 2  claim_busy");
    expect(renderHtml(scenarioResult({ phases: [phaseResult()] }))).not.toContain('class="steps"');
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
