// The query texts the lab prints are run here, step by step, on log lines the worker's own
// logger wrote, and must give the same answer as the views the harness computes from the
// parsed events. A query that drifts from the log format (or the other way) fails here.
import { describe, expect, test } from "vitest";
import { parseEvent } from "../../harness/observe/events.js";
import { chargeSummary, countsByType, QUERIES, timeline } from "../../harness/observe/insights.js";
import { createLog } from "../../worker/log.js";

type Row = Record<string, string>;

/** The part of Logs Insights the article's queries use: filter like, parse, stats, sort. */
function runQuery(query: string, messages: string[]): Row[] {
  let rows: Row[] = messages.map((message) => ({ "@message": message }));
  for (const line of query.split("\n").map((l) => l.replace(/^\|\s*/, ""))) {
    const filter = line.match(/^filter @message like \/(.+)\/$/);
    const parse = line.match(/^parse @message \/(.+)\/$/);
    const stats = line.match(/^stats (.+?)(?: by (\w+))?$/);
    if (filter?.[1]) {
      const pattern = new RegExp(filter[1]);
      rows = rows.filter((row) => pattern.test(row["@message"] ?? ""));
    } else if (parse?.[1]) {
      const pattern = new RegExp(parse[1]);
      rows = rows.map((row) => ({ ...row, ...pattern.exec(row["@message"] ?? "")?.groups }));
    } else if (stats?.[1]) {
      return aggregate(rows, stats[1], stats[2]);
    } else if (!/^(fields |sort @timestamp asc$)/.test(line)) {
      throw new Error(`this test does not know the query step "${line}"`);
    }
  }
  return rows;
}

function aggregate(rows: Row[], clause: string, by: string | undefined): Row[] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = by ? (row[by] ?? "") : "";
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups].map(([key, members]) => {
    const out: Row = by ? { [by]: key } : {};
    for (const part of clause.split(/,\s*/)) {
      const [, fn, field, name] = part.match(/^(count|count_distinct)\((\*|\w+)\) as (\w+)$/) ?? [];
      if (!fn || !name) throw new Error(`this test does not know the aggregate "${part}"`);
      out[name] = String(
        fn === "count" ? members.length : new Set(members.map((m) => m[field ?? ""])).size,
      );
    }
    return out;
  });
}

/** The article's experiments as the worker logs them, through the worker's own logger. */
function workerLines(): string[] {
  const lines: string[] = [];
  const run = (orderId: string, messageId: string, steps: [string, object?][]) => {
    const log = createLog(
      { orderId, messageId, requestId: `req-${messageId}`, guard: "claim" },
      (l) => lines.push(l),
    );
    for (const [type, details] of steps) log(type as Parameters<typeof log>[0], details as never);
  };
  run("ORDER-003", "m-1", [
    ["process_start"],
    ["claim_won"],
    ["charge_applied", { amount: 150, customerId: "CUSTOMER-123", chargeId: "c-1" }],
    ["process_end", { outcome: "charged" }],
  ]);
  for (const id of ["m-2", "m-3", "m-4"]) {
    run("ORDER-003", id, [
      ["process_start"],
      ["claim_lost"],
      ["skip_duplicate"],
      ["process_end", { outcome: "skipped" }],
    ]);
  }
  run("unparseable", "m-5", [
    ["process_start"],
    ["parse_failed", { error: "Unexpected token o", body: "{orderId:ORDER-001}" }],
    ["charge_applied", { amount: 0, chargeId: "c-2" }],
    ["process_end", { outcome: "charged" }],
  ]);
  run("ORDER-001", "m-6", [
    ["process_start"],
    ["charge_applied", { amount: 150, chargeId: "c-3" }],
    ["process_end", { outcome: "charged" }],
  ]);
  // The Node.js runtime on AWS and LocalStack prefixes each console.log line; MiniStack does not.
  return lines.map((line, i) => (i % 2 ? `2026-12-02T10:00:00.000Z\treq\tINFO\t${line}` : line));
}

describe("the Logs Insights queries, run on the worker's log lines", () => {
  const lines = workerLines();
  const events = lines.map(parseEvent).filter((e) => e !== undefined);

  test("the lines are what the harness reads", () => {
    expect(events).toHaveLength(lines.length);
  });

  test("counts by type: the query and the view agree", () => {
    const byQuery = Object.fromEntries(
      runQuery(QUERIES.countsByType, lines).map((r) => [r.type, Number(r.events)]),
    );
    expect(byQuery).toEqual(countsByType(events));
  });

  test("charges, distinct orders, distinct messages: the query and the view agree", () => {
    const [row] = runQuery(QUERIES.charges, lines);
    expect({
      charges: Number(row?.charges),
      orders: Number(row?.orders),
      messages: Number(row?.messages),
    }).toEqual(chargeSummary(events));
    expect(chargeSummary(events)).toEqual({ charges: 3, orders: 3, messages: 3 });
  });

  test.each(["ORDER-003", "unparseable"])(
    "the timeline of %s: the same events, in order",
    (orderId) => {
      const byQuery = runQuery(QUERIES.timeline(orderId), lines).map(
        (r) => `${r.messageId}/${r.type}`,
      );
      const byView = timeline(events, orderId).map((e) => `${e.messageId}/${e.type}`);
      expect(byQuery).toEqual(byView);
      expect(byView.length).toBeGreaterThan(0);
    },
  );
});
