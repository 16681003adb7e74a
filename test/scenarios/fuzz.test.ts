// Hostile bodies through the real queue: 200+ generated bodies (not JSON, JSON that is not an
// object, wrong types, values past every bound, 200 KB bodies, unicode with line separators,
// __proto__ keys) sent through SQS to the deployed worker. Every message must end, the worker
// must never die mid-record, and every line it logged must be one line of JSON.
import { FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { runScenario } from "../../harness/scenario/run.js";
import { phase, scenario } from "../../harness/scenario/scenario.js";
import { ORDER_LIMITS } from "../../worker/order.js";
import { expectEveryCheckHolds, labOnLane } from "./lab-for-tests.js";
import { LANES } from "./lanes.js";

const lab = labOnLane(LANES.fuzz[0]);
afterAll(() => lab.conn.close());

/** What SQS accepts in a body (its allowed XML characters); anything else it refuses to send. */
const SQS_TEXT = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]+$/u;
const text = (unit: "grapheme" | "binary") =>
  fc.string({ unit, minLength: 1, maxLength: 60 }).filter((s) => SQS_TEXT.test(s));
const order = (fields: Record<string, unknown>) =>
  JSON.stringify({ orderId: "FUZZ", customerId: "CUSTOMER-123", amount: 150, ...fields });

/** An invalid body of each kind: the worker must refuse it, log it, and go on. */
const invalidBody = fc.oneof(
  text("grapheme").filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
  fc
    .jsonValue()
    .map((v) => JSON.stringify(v))
    .filter((s) => !s.startsWith("{")),
  fc.record({ orderId: fc.oneof(fc.integer(), fc.constant(""), fc.constant(null)) }).map(order),
  fc.record({ customerId: fc.oneof(fc.integer(), fc.boolean(), fc.constant("")) }).map(order),
  fc
    .oneof(fc.constant("1e308"), fc.constant("-1"), fc.constant("150.001"), fc.constant('"150"'))
    .map((amount) => `{"orderId":"FUZZ","customerId":"C","amount":${amount}}`),
  fc.constant(order({ orderId: "x".repeat(ORDER_LIMITS.idBytes + 1) })),
  fc.constant('{"__proto__":{"orderId":"FUZZ","customerId":"C","amount":1}}'),
  fc.constant(`{"orderId":"FUZZ","junk":"${"\u2028y".repeat(105_000)}"`), // 200+ KB, not JSON
);

/** Valid orders with awkward ids: each must be charged once, under its own id. */
const validOrderId = (i: number) =>
  fc
    .oneof(text("grapheme"), fc.constantFrom("ORDER\u2028001", "ORDER\u2029002", "Ω≈ç√", "😀"))
    .map((s) => `FUZZ-${i}-${s}`)
    .filter((id) => Buffer.byteLength(id) <= ORDER_LIMITS.idBytes);

const SEED = 20261203;
const invalid = fc.sample(invalidBody, { numRuns: 190, seed: SEED });
/** A valid order in a 200 KB body. */
const big = `${order({ orderId: "FUZZ-BIG" }).slice(0, -1)},"pad":"${"z".repeat(200_000)}"}`;
const valid = Array.from(
  { length: 20 },
  (_, i) => fc.sample(validOrderId(i), { numRuns: 1, seed: SEED + i })[0] ?? `FUZZ-${i}`,
);

const SENT = invalid.length + valid.length + 1;

const hostile = scenario({
  name: "fuzz",
  title: "Hostile bodies through the real queue",
  story: "Generated bodies, each sent once; the lease guard, lenient parsing.",
  phases: [
    phase("hostile bodies", {
      setup: { guard: "lease", workMs: 0, pollers: 5 },
      timeoutMs: 180_000,
      workload: async (lab) => {
        for (const body of invalid) await lab.sendBody(body, "unparseable");
        for (const orderId of valid) await lab.sendBody(order({ orderId }), orderId);
        await lab.sendBody(big, "FUZZ-BIG");
      },
      checks: () => [],
    }),
  ],
});

/** Every line the function wrote since `sinceMs`, as CloudWatch Logs holds it. */
async function rawLines(sinceMs: number): Promise<string[]> {
  const lines: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await lab.conn.logs.send(
      new FilterLogEventsCommand({
        logGroupName: lab.deployment.names.logGroup,
        startTime: sinceMs,
        nextToken,
      }),
    );
    lines.push(...(page.events ?? []).map((e) => e.message ?? ""));
    nextToken = page.nextToken;
  } while (nextToken);
  return lines;
}

/** The runtime's own lines (START, END, REPORT, INIT_START, …), which are not the worker's. */
const RUNTIME_LINE = /^(START|END|REPORT|INIT_START|INIT_REPORT|EXTENSION|TELEMETRY) /;

describe(`fuzzing through the queue on ${lab.backend.name} ${lab.backend.version}`, () => {
  test(`${SENT} hostile bodies: every message ends, every line is JSON`, async () => {
    const started = Date.now() - 5_000;
    const result = await runScenario(hostile, lab);
    expectEveryCheckHolds(result, 1); // includes: every sent message ended
    const [run] = result.phases;
    if (!run) throw new Error("no phase ran");
    const counts = run.observed.eventCounts;

    // The worker never died mid-record: every record that started also ended.
    expect(counts.process_start).toBe(counts.process_end);
    expect(counts.process_start).toBeGreaterThanOrEqual(SENT);
    // Each invalid body was refused as such; each valid order charged once, under its own id.
    // (Counted per message: a copy that found the "unparseable" claim busy comes back, and its
    // body fails to parse again.)
    const refused = new Set(
      run.timeline.filter((e) => e.type === "parse_failed").map((e) => e.messageId),
    );
    expect(refused.size).toBe(invalid.length);
    for (const orderId of [...valid, "FUZZ-BIG"]) {
      expect(run.observed.intended[orderId]?.verdict, orderId).toBe("exactly once");
    }

    // Every line the function logged is either the runtime's or one JSON event.
    const lines = (await rawLines(started)).map((l) => l.trimEnd()).filter((l) => l !== "");
    const worker = lines.filter((l) => !RUNTIME_LINE.test(l));
    const broken = worker.filter((line) => {
      const json = line.slice(line.indexOf("{"));
      try {
        return typeof JSON.parse(json).type !== "string";
      } catch {
        return true;
      }
    });
    expect(broken.map((l) => l.slice(0, 120))).toEqual([]);
    expect(worker.length).toBeGreaterThanOrEqual(2 * SENT);
  });
});
