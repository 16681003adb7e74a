// The explorer's own parts, without an emulator: the stage that parks and releases copies, the
// copies' clock, how a choice list picks options, what a DynamoDB call names, and the checker.
import { describe, expect, test } from "vitest";
import type { LedgerItem } from "../../contract/ledger.js";
import type { Option } from "../../harness/explore/choices.js";
import { describeCall } from "../../harness/explore/client.js";
import { FakeClock, patchTime } from "../../harness/explore/clock.js";
import { pool } from "../../harness/explore/found.js";
import { Actor, type Scope, Stage } from "../../harness/explore/gates.js";
import { judge } from "../../harness/explore/properties.js";
import { chooserFrom } from "../../harness/explore/random.js";
import type { WorkerEvent } from "../../harness/observe/events.js";
import { sleep } from "../../worker/time.js";

/** A scope whose gates all park on `stage`, on `clock`. */
function scopeOn(stage: Stage, clock: FakeClock): Scope {
  return {
    now: () => clock.now(),
    reach: (a, gate) => stage.park(a, gate),
    calling: () => {},
    heard: () => {},
    wentAround: () => {},
    exited: () => {},
  };
}

describe("the stage", () => {
  test("a copy runs until its next gate; the driver waits until every copy stands still", async () => {
    const stage = new Stage();
    const scope = scopeOn(stage, new FakeClock(0));
    const said: string[] = [];
    const a = new Actor("a", scope);
    const ended: unknown[] = [];
    stage.start(
      a,
      async () => {
        said.push("a starts");
        await scope.reach(a, { name: "gate 1" });
        said.push("a goes on");
        await scope.reach(a, { name: "gate 2" });
        return "done";
      },
      (result) => ended.push(result),
    );
    await stage.quiet();
    expect(said).toEqual(["a starts"]);
    expect(a.state).toBe("parked");
    expect(a.gate?.name).toBe("gate 1");
    stage.go(a);
    await stage.quiet();
    expect(said).toEqual(["a starts", "a goes on"]);
    stage.go(a);
    await stage.quiet();
    expect(a.state).toBe("finished");
    expect(ended).toEqual([{ value: "done" }]);
  });

  test("fail throws where the copy stands; kill never lets it go on, and nothing ends", async () => {
    const stage = new Stage();
    const scope = scopeOn(stage, new FakeClock(0));
    const caught: string[] = [];
    const ended: unknown[] = [];
    const body = (actor: Actor) => async () => {
      try {
        await scope.reach(actor, { name: "before-charge", point: "before-charge" });
      } catch (err) {
        caught.push((err as Error).message);
      } finally {
        caught.push(`${actor.label} finally`);
      }
    };
    const failing = new Actor("failing", scope);
    const killed = new Actor("killed", scope);
    stage.start(failing, body(failing), (r) => ended.push(r));
    stage.start(killed, body(killed), (r) => ended.push(r));
    await stage.quiet();
    stage.fail(failing, new Error("failpoint before-charge: fail"));
    stage.kill(killed);
    await stage.quiet();
    await new Promise((resolve) => setImmediate(resolve));
    expect(caught).toEqual(["failpoint before-charge: fail", "failing finally"]);
    expect(ended).toHaveLength(1);
    expect(killed.state).toBe("dead");
    expect(stage.parked()).toEqual([]);
  });
});

describe("the copies' clock", () => {
  test("inside a copy Date.now is its schedule's clock and the worker's sleeps are instant; outside, real", async () => {
    const restore = patchTime();
    try {
      const stage = new Stage();
      const clock = new FakeClock(1_000);
      const scope = scopeOn(stage, clock);
      const seen: number[] = [];
      const copy = new Actor("copy", scope);
      const started = performance.now();
      stage.start(
        copy,
        async () => {
          seen.push(Date.now());
          await sleep(5_000); // worker/time.ts: no time passes, on either clock
          seen.push(Date.now());
          await scope.reach(copy, { name: "gate" });
          seen.push(Date.now());
        },
        () => {},
      );
      await stage.quiet();
      clock.advance(1_001);
      stage.go(copy);
      await stage.quiet();
      expect(seen).toEqual([1_000, 1_000, 2_001]);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(Date.now()).toBeGreaterThan(1_600_000_000_000);
    } finally {
      restore();
    }
    expect(() => patchTime()()).not.toThrow(); // restored: it can be installed again
  });
});

describe("a choice list picks the options", () => {
  const go = (n: number): Option => ({ kind: "go", actor: { label: `copy ${n}` } as Actor });
  const options: Option[] = [go(1), go(2), { kind: "crash", actor: {} as Actor }];

  test("0, and past the end of the list, is the first option: a copy going on", () => {
    const choose = chooserFrom([0]);
    expect(choose(options)).toBe(0);
    expect(choose(options)).toBe(0);
  });

  test("weighted: going on is likelier than a crash", () => {
    // go 8 + go 8 + crash 1 = 17: 0..7 the first, 8..15 the second, 16 the crash, then around.
    expect([7, 8, 15, 16, 17].map((n) => chooserFrom([n])(options))).toEqual([0, 1, 1, 2, 0]);
  });
});

describe("what a DynamoDB call names", () => {
  const keys = new Map([
    ["claims", "orderId"],
    ["charges", "chargeId"],
    ["powertools", "id"],
  ]);

  test("the document client's plain items, the raw client's marshalled ones, a transaction's parts", () => {
    expect(
      describeCall(
        "PutItemCommand",
        { TableName: "claims", Item: { status: "CLAIMED", orderId: "O-1" } },
        keys,
      ),
    ).toEqual({ operation: "PutItem", keys: [{ table: "claims", key: "O-1" }] });
    expect(
      describeCall(
        "UpdateItemCommand",
        { TableName: "powertools", Key: { id: { S: "fn#abc" } } },
        keys,
      ),
    ).toEqual({ operation: "UpdateItem", keys: [{ table: "powertools", key: "fn#abc" }] });
    expect(
      describeCall(
        "TransactWriteItemsCommand",
        {
          TransactItems: [
            { Put: { TableName: "charges", Item: { chargeId: "c-1", orderId: "O-1" } } },
            { Update: { TableName: "claims", Key: { orderId: "O-1" } } },
          ],
        },
        keys,
      ),
    ).toEqual({
      operation: "TransactWriteItems",
      keys: [
        { table: "charges", key: "c-1" },
        { table: "claims", key: "O-1" },
      ],
    });
  });
});

describe("the checker", () => {
  const charge = (chargeId: string) => ({ chargeId, orderId: "O-1" }) as LedgerItem;
  const applied = (chargeId: string) =>
    ({
      type: "charge_applied",
      orderId: "O-1",
      messageId: "m",
      requestId: "r",
      guard: "g",
      ts: "",
      chargeId,
    }) as WorkerEvent;
  const nothingHeld = { claim: undefined, powertools: [], deadLettered: 0 };

  test("exactly once, doubled, lost, dead-lettered, stuck", () => {
    expect(judge({ ...nothingHeld, ledger: [charge("a")] }, [applied("a")]).kinds).toEqual([]);
    expect(
      judge({ ...nothingHeld, ledger: [charge("a"), charge("b")] }, [applied("a"), applied("b")]),
    ).toMatchObject({ kinds: ["doubled"], charges: 2, said: "charged 2 times" });
    expect(judge({ ...nothingHeld, ledger: [] }, []).kinds).toEqual(["lost"]);
    expect(judge({ ...nothingHeld, ledger: [], deadLettered: 2 }, []).kinds).toEqual([
      "dead-lettered",
    ]);
    const claimed = {
      orderId: "O-1",
      status: "CLAIMED",
      messageId: "copy1",
      requestId: "r",
      claimedAt: "",
    } as const;
    expect(judge({ ...nothingHeld, ledger: [], claim: claimed }, []).kinds).toEqual([
      "lost",
      "stuck",
    ]);
    expect(
      judge({ ...nothingHeld, ledger: [charge("a")], powertools: [{ status: "INPROGRESS" }] }, [
        applied("a"),
      ]).kinds,
    ).toEqual(["stuck"]);
  });

  test("a charge_applied line without its ledger item, or the other way, is a finding: the ledger counts", () => {
    expect(judge({ ...nothingHeld, ledger: [charge("mine=O-1")] }, [applied("a")])).toMatchObject({
      kinds: [],
      charges: 1,
      disagreement: { loggedOnly: ["a"], recordedOnly: ["mine=O-1"] },
    });
    expect(judge({ ...nothingHeld, ledger: [] }, [applied("a")])).toMatchObject({
      kinds: ["lost"],
      disagreement: { loggedOnly: ["a"], recordedOnly: [] },
    });
    expect(judge({ ...nothingHeld, ledger: [charge("a")] }, [applied("a")]).disagreement).toBe(
      undefined,
    );
    // A charge whose answer the explorer lost has no charge_applied line, by construction.
    expect(judge({ ...nothingHeld, ledger: [charge("b")] }, [], ["b"]).disagreement).toBe(
      undefined,
    );
  });
});

test("the pool runs work side by side, takes work added while it runs, and stops on an error", async () => {
  const queue = [1, 2, 3];
  const done: number[] = [];
  await pool(
    2,
    () => queue.shift(),
    async (n) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (n < 3) queue.push(n + 10);
      done.push(n);
    },
  );
  expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 11, 12]);
  await expect(
    pool(
      2,
      () => 1,
      async () => {
        throw new Error("boom");
      },
    ),
  ).rejects.toThrow("boom");
});
