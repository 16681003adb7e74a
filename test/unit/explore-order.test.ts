// What the explorer's drivers report must not depend on which schedule ends first: schedules run
// side by side, and how fast the emulator answers decides that order (LocalStack's calls are
// slower than MiniStack's). Here the "schedules" are made up and take random real time.
import { describe, expect, test } from "vitest";
import type { Chooser, Option } from "../../harness/explore/choices.js";
import { type Found, nothingFound, tally } from "../../harness/explore/found.js";
import { randomly } from "../../harness/explore/random.js";
import type { ScheduleRun } from "../../harness/explore/schedule-run.js";

const OPTIONS: Option[] = [
  { kind: "jump", ms: 1 },
  { kind: "redeliver", copy: 1 },
  { kind: "redeliver", copy: 2 },
];

/**
 * A made-up schedule of six choices: it fails when it picks the last option twice in a row; its
 * steps are the choices that did not take the first option. It takes `delay(fails)` ms of real
 * time.
 */
async function madeUp(choose: Chooser, delay: (fails: boolean) => number): Promise<ScheduleRun> {
  const picks = Array.from({ length: 6 }, () => choose(OPTIONS));
  const fails = picks.some((p, i) => p === 2 && picks[i + 1] === 2);
  await new Promise((resolve) => setTimeout(resolve, delay(fails)));
  return {
    orderId: "O",
    trace: picks.map((pick) => ({ count: OPTIONS.length, pick, label: "" })),
    steps: picks.filter((p) => p !== 0),
    faults: 0,
    verdict: { kinds: fails ? ["doubled"] : [] },
    around: [],
  } as unknown as ScheduleRun;
}

const picksOf = (run: ScheduleRun | undefined) => run?.trace.map((c) => c.pick);

describe("what the explorer keeps, whatever order the schedules end in", () => {
  test("random schedules that stop at a failure: the same count, the same failure shrunk", async () => {
    const sampled = (delay: (fails: boolean) => number) =>
      randomly((choose) => madeUp(choose, delay), {
        runs: 40,
        seed: 7,
        lanes: 4,
        copies: 2,
        stopAtFirstFailure: true,
      });
    const steady = await sampled(() => 1);
    const jittery = await sampled(() => Math.floor(Math.random() * 8));
    // A failure that takes long to end: the other lanes draw on meanwhile. Then a quick one.
    const slowFailures = await sampled((fails) => (fails ? 40 : 1));
    const quickFailures = await sampled((fails) => (fails ? 0 : 10));
    expect(steady.failing).toBeGreaterThan(0);
    for (const other of [jittery, slowFailures, quickFailures]) {
      expect({ runs: other.runs, failing: other.failing }).toEqual({
        runs: steady.runs,
        failing: steady.failing,
      });
      expect(picksOf(other.shortest)).toEqual(picksOf(steady.shortest));
    }
  });

  test("of equally short failures, the same one is kept in any order", () => {
    const run = (picks: number[]) =>
      ({
        orderId: picks.join(""),
        trace: picks.map((pick) => ({ count: 3, pick, label: "" })),
        steps: [1, 2],
        faults: 1,
        verdict: { kinds: ["doubled"] },
        around: [],
      }) as unknown as ScheduleRun;
    const runs = [run([0, 2, 1]), run([0, 1, 2]), run([1, 0, 0])];
    const kept = (order: ScheduleRun[]) => {
      const found: Found = nothingFound();
      for (const r of order) tally(found, r);
      return picksOf(found.shortest);
    };
    expect(kept(runs)).toEqual([0, 1, 2]);
    expect(kept([...runs].reverse())).toEqual([0, 1, 2]);
  });
});
