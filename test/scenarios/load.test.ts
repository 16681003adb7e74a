// A small load through the event source mapping (20 orders × 5 copies, shuffled) for the two
// guards that must hold under concurrency and retries: every order charged exactly once, every
// message ended. The same function as `npx lab bench load`; no timing is asserted.
import { afterAll, describe, expect, test } from "vitest";
import { runLoad } from "../../bench/load.js";
import { labOnLane } from "./lab-for-tests.js";
import { LANES } from "./lanes.js";

const lab = labOnLane(LANES.load[0]);
afterAll(() => lab.conn.close());

describe(`load, 20 orders × 5 copies, on ${lab.backend.name} ${lab.backend.version}`, () => {
  test("lease and powertools charge every order exactly once", async () => {
    const results = await runLoad(lab, { orders: 20, copies: 5, guards: ["lease", "powertools"] });
    expect(results.map((r) => r.guard)).toEqual(["lease", "powertools"]);
    for (const r of results) {
      const what = `${r.guard}: ${JSON.stringify(r)}`;
      expect.soft(r.messages, what).toBe(100);
      expect.soft(r.notEnded, what).toBe(0);
      expect.soft(r.deadLettered, what).toBe(0);
      expect.soft({ once: r.once, twiceOrMore: r.twiceOrMore, never: r.never }, what).toEqual({
        once: 20,
        twiceOrMore: 0,
        never: 0,
      });
      expect.soft(r.charges, what).toBe(20);
    }
  }, 170_000);
});
