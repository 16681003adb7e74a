import { withId } from "../harness/check/checks.js";
import { orderFailures, verdictOf } from "../harness/check/verdicts.js";
import { equal, type Phase, phase, scenario } from "../harness/scenario/scenario.js";
import { COLUMNS, type ColumnName, type FailureMode, MODES } from "./failure-modes.js";
import { TTL_SECONDS } from "./record-expiry.js";

export { MATRIX_COLUMNS } from "./failure-modes.js";

function cellPhase(mode: FailureMode, column: (typeof COLUMNS)[number]): Phase {
  const failuresOf = mode.failures ?? orderFailures;
  const name = column.name;
  const expected = mode.expect[name as ColumnName];
  return phase(`${mode.name} × ${name}`, {
    setup: { ...mode.setup, ...column.setup },
    workload: mode.workload,
    cell: { row: mode.name, column: name, judge: (facts) => verdictOf(failuresOf(facts), facts) },
    checks: (facts) => [
      ...(mode.overlap ? [withId("row-raced", mode.overlap(facts))] : []),
      withId(
        "row-verdict",
        equal(
          expected.length === 0
            ? `${name} holds against ${mode.name}: no failure`
            : `${name} fails against ${mode.name} as the lab teaches: ${expected.join(", ")}`,
          Object.keys(failuresOf(facts)).sort(),
          [...expected].sort(),
        ),
      ),
    ],
  });
}

export default scenario({
  name: "guard-matrix",
  title: "Every guard against every failure mode, measured",
  story:
    "Each cell is one run: the failure mode of its row against the guard of its column, judged " +
    "from the charges the worker logged: ✓ every order charged exactly once under its own id; ✗ " +
    "doubled N (extra charges), lost N (orders never charged), wrong key N (charged as " +
    '"unparseable"), or a different payload skipped silently. One row no guard can fix: a ' +
    "malformed body reaches the guard with the wrong key already, so the fix is upstream (send " +
    "from a file) or strict parsing (see poison-message). Note the naive column: it passes the " +
    "duplicate row only because one poller delivered the copies one at a time, and fails as soon " +
    "as they race. The last column has no guard at all, only the provider's idempotency key: it " +
    "holds everywhere the lease does, because the key is checked where the charge is recorded. " +
    `And the last row: the lease and Powertools forget a completed order after RECORD_TTL_SECONDS ` +
    `(${TTL_SECONDS} s here), so a later copy is charged again; naive and claim never forget, ` +
    "in a table that only grows, and neither does the provider. The two rows after it are " +
    "answers lost: the guard's first write applied and its answer lost (the SDK's retry meets " +
    "the claim it just wrote: the claim guard skips its own order), and the payment's (a failed " +
    "charge to the worker: the provider's key, or a record that says the charge is in, holds).",
  phases: MODES.flatMap((mode) => COLUMNS.map((column) => cellPhase(mode, column))),
});
