import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  BOUNDARY_TABLES,
  DYNAMO_OPERATIONS,
  FAILPOINT_NAMES,
  type FailpointRule,
  formatFailpoints,
  holdId,
  parseFailpoints,
  ruleFor,
} from "../../contract/failpoints.js";
import { pollIntervals } from "../../contract/polling.js";
import { readConfig, settingsToEnv } from "../../contract/settings.js";
import { copyOf, failpoints, noFailpoints } from "../../worker/failpoints.js";
import type { Log } from "../../worker/log.js";

describe("FAILPOINTS", () => {
  test("rules as people write them, with their scopes", () => {
    expect(
      parseFailpoints(" after-claim=pause@copy1 ; before-charge=delay(250)@attempt2 "),
    ).toEqual([
      { point: "after-claim", action: { kind: "pause" }, copy: 1 },
      { point: "before-charge", action: { kind: "delay", ms: 250 }, attempt: 2 },
    ]);
    expect(parseFailpoints("before-end=mark@message abc-123")).toEqual([
      { point: "before-end", action: { kind: "mark" }, messageId: "abc-123" },
    ]);
    expect(parseFailpoints(undefined)).toEqual([]);
    expect(parseFailpoints("  ")).toEqual([]);
  });

  test("a bad rule is refused with a sentence that names it", () => {
    expect(() => parseFailpoints("after-claims=pause")).toThrow(
      /"after-claims" is not a failpoint/,
    );
    expect(() => parseFailpoints("after-claim=sleep")).toThrow(/has no action/);
    expect(() => parseFailpoints("after-claim=pause@copy0")).toThrow(/"@copy0" is not a scope/);
    expect(() => readConfig({ FAILPOINTS: "after-claim" })).toThrow(/FAILPOINTS/);
  });

  test("faults at the boundary: a DynamoDB call by operation and table, and the payment", () => {
    expect(
      parseFailpoints(
        "dynamo:PutItem:claims=lost-answer@copy1@attempt1; dynamo:GetItem=slow(300); payment=lost-answer@copy2",
      ),
    ).toEqual([
      {
        point: "dynamo",
        operation: "PutItem",
        table: "claims",
        action: { kind: "lost-answer" },
        copy: 1,
        attempt: 1,
      },
      { point: "dynamo", operation: "GetItem", action: { kind: "slow", ms: 300 } },
      { point: "payment", action: { kind: "lost-answer" }, copy: 2 },
    ]);
    expect(parseFailpoints("dynamo:TransactWriteItems:ledger=throttled")[0]?.action).toEqual({
      kind: "throttled",
    });
    // A boundary rule is no point's rule: the guard's points never see it.
    const who = { copy: 1, attempt: 1, messageId: "m1" };
    expect(ruleFor(parseFailpoints("dynamo:PutItem=lost-request"), "before-claim", who)).toBe(
      undefined,
    );
  });

  test("a bad boundary rule is refused in one line that says how to write it", () => {
    const refused = (text: string) => {
      try {
        parseFailpoints(text);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`${text} was accepted`);
    };
    expect(refused("dynamo:Putitem:claims=lost-answer")).toMatch(
      /write dynamo:OPERATION or dynamo:OPERATION:TABLE, the operation one of GetItem, PutItem/,
    );
    expect(refused("dynamo:PutItem:orders=lost-answer")).toMatch(
      /"orders" is not a table; write claims, ledger, powertools/,
    );
    expect(refused("dynamo:PutItem:claims:x=lost-answer")).toMatch(/write dynamo:OPERATION/);
    expect(refused("dynamo=lost-answer")).toMatch(/write dynamo:OPERATION/);
    expect(refused("dynamo:PutItem=pause")).toMatch(
      /a DynamoDB call's action is lost-request, lost-answer, throttled or slow\(MS\)/,
    );
    expect(refused("payment=crash")).toMatch(/the payment's action is lost-answer/);
    expect(refused("after-claim=lost-answer")).toMatch(/has no action/);
    for (const text of ["dynamo:Putitem=lost-answer", "payment=slow(3)", "dynamo:GetItem=slow"])
      expect(refused(text)).not.toContain("\n");
  });

  test("format and parse give the same rules back", () => {
    const scope = {
      copy: fc.integer({ min: 1, max: 1000 }),
      attempt: fc.integer({ min: 1, max: 10 }),
      messageId: fc.uuid(),
    };
    const boundary = fc.oneof(
      fc.record(
        {
          point: fc.constant("dynamo" as const),
          operation: fc.constantFrom(...DYNAMO_OPERATIONS),
          table: fc.constantFrom(...BOUNDARY_TABLES),
          action: fc.oneof(
            fc.constantFrom(
              { kind: "lost-request" as const },
              { kind: "lost-answer" as const },
              { kind: "throttled" as const },
            ),
            fc.nat(60_000).map((ms) => ({ kind: "slow" as const, ms })),
          ),
          ...scope,
        },
        { requiredKeys: ["point", "operation", "action"] },
      ),
      fc.record(
        {
          point: fc.constant("payment" as const),
          action: fc.constant({ kind: "lost-answer" as const }),
          ...scope,
        },
        { requiredKeys: ["point", "action"] },
      ),
    );
    fc.assert(
      fc.property(fc.array(boundary, { maxLength: 4 }), (rules: FailpointRule[]) => {
        expect(parseFailpoints(formatFailpoints(rules))).toEqual(rules);
      }),
    );
    const rule = fc.record(
      {
        point: fc.constantFrom(...FAILPOINT_NAMES),
        action: fc.oneof(
          fc.constantFrom(
            { kind: "pause" as const },
            { kind: "crash" as const },
            { kind: "fail" as const },
            { kind: "mark" as const },
          ),
          fc.nat(60_000).map((ms) => ({ kind: "delay" as const, ms })),
        ),
        copy: fc.integer({ min: 1, max: 1000 }),
        attempt: fc.integer({ min: 1, max: 10 }),
        messageId: fc.uuid(),
      },
      { requiredKeys: ["point", "action"] },
    );
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 4 }), (rules: FailpointRule[]) => {
        expect(parseFailpoints(formatFailpoints(rules))).toEqual(rules);
      }),
    );
  });

  test("a rule applies only to the copies its scope names, first rule first", () => {
    const rules = parseFailpoints("after-claim=pause@copy1@attempt1;after-claim=crash");
    const first = { copy: 1, attempt: 1, messageId: "m1" };
    expect(ruleFor(rules, "after-claim", first)?.action.kind).toBe("pause");
    expect(ruleFor(rules, "after-claim", { ...first, attempt: 2 })?.action.kind).toBe("crash");
    expect(ruleFor(rules, "before-claim", first)).toBeUndefined();
  });

  test("the control item is named by copy where the harness numbered it, else by message", () => {
    expect(holdId("after-claim", { copy: 2, attempt: 1, messageId: "m" })).toBe(
      "after-claim/copy2/attempt1",
    );
    expect(holdId("after-claim", { attempt: 3, messageId: "m" })).toBe("after-claim/m/attempt3");
  });

  test("off by default: no FAILPOINTS in the function's environment unless a phase sets one", () => {
    expect(settingsToEnv({ guard: "claim" })).not.toHaveProperty("FAILPOINTS");
    expect(readConfig({}).failpoints).toBe("");
    expect(settingsToEnv({ guard: "claim", failpoints: "before-end=mark" }).FAILPOINTS).toBe(
      "before-end=mark",
    );
  });
});

describe("the worker's failpoints", () => {
  const context = { getRemainingTimeInMillis: () => 1_000 };
  const who = { copy: 1, attempt: 1, messageId: "m1" };
  const table = "failpoints";

  test("without FAILPOINTS every point is the same empty function: no call, no line", async () => {
    const said: string[] = [];
    const at = failpoints(
      { failpoints: "", failpointsTable: table },
      who,
      ((t: string) => {
        said.push(t);
      }) as Log,
      context,
    );
    expect(at).toBe(noFailpoints);
    await at("after-claim");
    expect(said).toEqual([]);
  });

  test("a rule for another copy or point leaves this copy alone", async () => {
    const said: string[] = [];
    const rules = "after-claim=crash@copy2;before-end=crash";
    const at = failpoints(
      { failpoints: rules, failpointsTable: table },
      who,
      ((t: string) => {
        said.push(t);
      }) as Log,
      context,
    );
    await at("after-claim"); // copy 2's crash, not ours: nothing happens, the test goes on
    expect(said).toEqual([]);
  });

  test("the copy number comes from the labCopy attribute, and only from it", () => {
    const attribute = (stringValue: string) => ({
      messageAttributes: {
        labCopy: { dataType: "Number", stringValue, stringListValues: [], binaryListValues: [] },
      },
    });
    expect(copyOf(attribute("3"))).toBe(3);
    expect(copyOf(attribute("x"))).toBeUndefined();
    expect(copyOf({ messageAttributes: {} })).toBeUndefined();
  });
});

describe("pollIntervals: how a paused copy and the harness look", () => {
  test("soon at first, then half as long again each time, never past the ceiling", () => {
    const next = pollIntervals(20, 100);
    expect(Array.from({ length: 7 }, next)).toEqual([20, 30, 45, 68, 100, 100, 100]);
  });

  test("a wait of seconds costs a few looks a second, not fifty", () => {
    const next = pollIntervals(20, 100);
    let looks = 0;
    for (let waited = 0; waited < 3_000; waited += next()) looks++;
    expect(looks).toBeLessThan(35);
  });
});
