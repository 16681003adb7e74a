// An error the lab makes on purpose (FAULT, a failpoint), so process_end can tell it from the
// guard's own (errorKind "injected") and a grade does not hold it against the guard.

export class InjectedFault extends Error {}

/** Injected, or caused by an injected fault (Powertools wraps what it does not know). */
export function isInjected(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) if (e instanceof InjectedFault) return true;
  return false;
}
