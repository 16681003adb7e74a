// mapAtMost: every item once, never more than the limit at a time, results in order, and no new
// work after a failure.
import { describe, expect, test } from "vitest";
import { mapAtMost } from "../../harness/common/at-most.js";

/** Work whose items end in the order the test releases them, counting how many run at once. */
function held() {
  const release = new Map<number, () => void>();
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const work = async (item: number) => {
    started.push(item);
    most = Math.max(most, ++running);
    await new Promise<void>((resolve) => release.set(item, resolve));
    running -= 1;
    if (item < 0) throw new Error(`item ${item} failed`);
    return item * 10;
  };
  /** Lets the pending promise chains move, then releases `item`. */
  const end = async (item: number) => {
    await new Promise((resolve) => setImmediate(resolve));
    release.get(item)?.();
  };
  return { work, end, started, most: () => most };
}

describe("mapAtMost", () => {
  test("results in the items' order, at most the limit at once, whatever order they end in", async () => {
    const h = held();
    const all = mapAtMost([1, 2, 3, 4, 5], 2, h.work);
    for (const item of [2, 1, 4, 3, 5]) await h.end(item);
    expect(await all).toEqual([10, 20, 30, 40, 50]);
    expect(h.most()).toBe(2);
    expect(h.started.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  test("a failure is thrown, and nothing starts after it", async () => {
    const h = held();
    const all = mapAtMost([1, -2, 3, 4, 5], 2, h.work);
    const outcome = all.then(
      () => "resolved",
      (err: Error) => err.message,
    );
    await h.end(-2); // fails while item 1 is still running
    await h.end(1);
    for (const item of [3, 4, 5]) await h.end(item); // only ends what wrongly started
    expect(await outcome).toBe("item -2 failed");
    expect(h.started).toEqual([1, -2]);
  });

  test("an empty list does nothing", async () => {
    expect(await mapAtMost([], 4, async () => 1)).toEqual([]);
  });
});
