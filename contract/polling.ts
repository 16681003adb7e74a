// How the lab's waits poll, in the worker and in the harness: soon at first, as most waits are
// short, then less and less often, up to a ceiling. A long wait (a copy held for seconds, a retry
// after the visibility timeout) then costs a few calls a second instead of ten or fifty, each a
// request the emulator serves on the same two cores as everything else.

/** The pause before each next look: `firstMs`, then half as long again each time, up to `maxMs`. */
export function pollIntervals(firstMs: number, maxMs: number): () => number {
  let next = firstMs;
  return () => {
    const ms = next;
    next = Math.min(maxMs, Math.round(next * 1.5));
    return ms;
  };
}
