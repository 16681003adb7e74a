// An error the lab makes on purpose (FAULT, a failpoint), so process_end can tell it from the
// guard's own (errorKind "injected") and a grade does not hold it against the guard.

export class InjectedFault extends Error {}

/** Where an error that must look like another (the SDK's, a timeout) says it was injected. */
const INJECTED = Symbol.for("sqs-idempotency-lab.injected");

/** Marks an error of another shape as injected, and returns it. */
export function markInjected<E extends Error>(err: E): E {
  return Object.assign(err, { [INJECTED]: true });
}

/** Injected, or caused by an injected fault (Powertools wraps what it does not know). */
export function isInjected(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if (e instanceof InjectedFault || (e as { [INJECTED]?: boolean })[INJECTED]) return true;
  }
  return false;
}
