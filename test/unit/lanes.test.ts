// Which lanes the scenario files run on (test/scenarios/lanes.ts): no two files share one (each
// file deploys its own as it starts), and no two lanes share a name.
import { describe, expect, test } from "vitest";
import { LANES, laneSuffix, lanesOf } from "../scenarios/lanes.js";

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

  test("every lane has a name of its own, the one earlier runs deployed it under", () => {
    const lanes = FILES.flatMap((file) => [...LANES[file]]).filter((lane) => lane > 0);
    const names = lanes.map(laneSuffix);
    expect(new Set(names).size).toBe(lanes.length);
    expect([1, 25, 26, 27].map(laneSuffix)).toEqual(["-b", "-z", "-za", "-zb"]);
  });

  test("LocalStack: every one of grading's lanes, fewer for the files that run in turn there", () => {
    expect(lanesOf("grade", true)).toEqual(LANES.grade);
    expect(lanesOf("gradeChoices", true)).toEqual(LANES.gradeChoices);
    expect(lanesOf("holder", true)).toEqual(LANES.article);
    // A lane is a container more there.
    expect(lanesOf("failures", true).length).toBeLessThan(LANES.failures.length);
  });
});
