// Which lanes the scenario files run on (test/scenarios/lanes.ts): no two files share one, and the
// test setup deploys exactly those some file uses on the backend at hand.
import { describe, expect, test } from "vitest";
import { LANE_COUNT, LANES, lanesOf, lanesUsed } from "../scenarios/lanes.js";

const FILES = Object.keys(LANES) as (keyof typeof LANES)[];

describe("scenario lanes", () => {
  test("no two test files run on the same lane", () => {
    const owner = new Map<number, string>();
    for (const file of FILES) {
      for (const lane of LANES[file]) {
        const other = owner.get(lane);
        if (other) {
          throw new Error(`lane ${lane}: ${other} and ${file}`);
        }
        owner.set(lane, file);
      }
    }
  });

  test("MiniStack: every lane is used, so every lane is deployed", () => {
    expect(lanesUsed(false)).toEqual(Array.from({ length: LANE_COUNT }, (_, i) => i));
  });

  test("LocalStack: only the lanes its files run on, every one of grading's", () => {
    const used = lanesUsed(true);
    expect(used[0]).toBe(0);
    expect(lanesOf("grade", true)).toEqual(LANES.grade);
    expect(lanesOf("gradeChoices", true)).toEqual(LANES.gradeChoices);
    expect(used).toEqual(expect.arrayContaining([...LANES.grade, ...LANES.gradeChoices]));
    expect(used).toEqual(expect.arrayContaining([...lanesOf("matrix", true)]));
    // Fewer for the files that run their scenarios in turn there: a lane is a container more.
    expect(lanesOf("failures", true).length).toBeLessThan(LANES.failures.length);
    expect(used.length).toBeLessThan(LANE_COUNT);
  });
});
