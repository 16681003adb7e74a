// A probe that ends: its answer, or the fallback once its deadline passes, whichever comes first.
// The deadline's timer is referenced on purpose. AbortSignal.timeout's is not (Node unrefs it),
// so a fetch whose socket holds no reference (undici unrefs a socket it counts as idle) had
// nothing left to keep the process alive: Node ended it with the answer still pending, and
// `lab doctor` stopped mid-table. This timer keeps the process up until the deadline at most.

/** Runs `work` with a signal that aborts at the deadline; then `late()` answers instead. */
export async function within<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  late: () => T,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${ms / 1000} s`));
      resolve(late());
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
