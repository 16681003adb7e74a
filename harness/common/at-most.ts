// Work over a list, a few items at a time: the kit's twenty platform and Python pairs, each a pip
// or uv process that mostly waits on the network or on disk.

/**
 * Runs `work` on every item, at most `limit` at once, and returns the results in the items'
 * order. On an error nothing new starts; once the work already started has ended, an error is
 * thrown (one of them, if several failed).
 */
export async function mapAtMost<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  const settled = await Promise.allSettled(workers);
  const rejected = settled.find((s) => s.status === "rejected");
  if (rejected) throw (rejected as PromiseRejectedResult).reason;
  return results;
}
