// npx lab grade on the emulator, through the command's own functions (gradedFrom, prepareGraded,
// gradeGuard, gradeView, textGrade): the guard file bundled into the worker of the file's lanes,
// the matrix's column for it, the explorer with the small budget (a glance where a test needs
// no more: budgets.ts). One grading per fixture, run side by side, each shared by its assertions.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { deploy } from "../../harness/aws/deploy.js";
import type { DeployedLab } from "../../harness/aws/lab.js";
import { testTimings } from "../../harness/aws/timings.js";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import { labRegion } from "../../harness/common/region.js";
import { quiet } from "../../harness/common/say.js";
import { openSession, type Session } from "../../harness/explore/session.js";
import {
  type GradeBudget,
  type GradeResult,
  gradedFrom,
  gradeGuard,
  prepareGraded,
} from "../../harness/grade/grade.js";
import { gradeView } from "../../harness/grade/view.js";
import { cellWords } from "../../harness/report/failure-words.js";
import { textGrade } from "../../harness/report/grade-view.js";
import { labsFor, QUEUED_TEST_TIMEOUT_MS } from "./lab-for-tests.js";
import "./provided.js";

const { backend } = inject("lab");
const [CHECK_THEN_WRITE, CLAIM_WITHOUT_RELEASE, CLAIM, ...MORE] = labsFor("grade") as [
  DeployedLab,
  DeployedLab,
  DeployedLab,
  ...DeployedLab[],
];
/** The broken guards, a lane each; the lease's copy, graded on every row, two. */
const BROKEN = Object.fromEntries(
  ["throws.ts", "not-an-outcome.js", "never-returns.ts"].map((name, i) => [name, MORE[i]]),
) as Record<string, DeployedLab>;
const LEASE_COPY = MORE.slice(3);

let session: Session;
const gradings = new Map<string, Promise<GradeResult>>();

/** The fixture's guard bundled into this lab's function, then graded on it (once). */
function graded(
  given: string,
  on: DeployedLab | DeployedLab[],
  rows?: string[],
  budget: GradeBudget = "small",
): Promise<GradeResult> {
  const lanes = Array.isArray(on) ? on : [on];
  let result = gradings.get(given);
  if (!result) {
    result = (async () => {
      const guard = gradedFrom(given);
      const explored = await prepareGraded(guard);
      const { file } = guard;
      if (file) {
        await Promise.all(
          lanes.map((lab) =>
            deploy(lab.conn, lab.deployment.names, quiet, testTimings(lab.backend), {
              guardFile: file,
            }),
          ),
        );
      }
      return gradeGuard(lanes, guard, explored, {
        budget,
        session,
        seed: 19,
        ...(rows ? { rows } : {}),
      });
    })();
    gradings.set(given, result);
  }
  return result;
}

const fixture = (dir: string, name: string) => `test/fixtures/${dir}/${name}`;
/**
 * The rows each wrong guard is known for, and one it passes; every row only for the guard that
 * must pass them all (the suite's time: a full column is eight phases and an explorer run).
 */
const CHECK_THEN_WRITE_ROWS = ["duplicate copies", "racing copies", "work outlives the lease"];
const CLAIM_ROWS = ["racing copies", "crash after claim", "charge failure"];
/**
 * The broken guards, each on the one row it needs; the explorer only glances at the two whose
 * flaw the row shows (never-returns' test reads the explorer's answer: it stops at the first hang).
 */
const ONE_ROW = ["charge failure"];
const brokenGraded = (name: string) =>
  graded(
    fixture("broken-guards", name),
    BROKEN[name] as DeployedLab,
    ONE_ROW,
    name === "never-returns.ts" ? "small" : "glance",
  );

beforeAll(async () => {
  session = await openSession(backend.endpoint, {
    prefix: `${process.env.LAB_PREFIX || "aws-lab-sqs-idempotency"}-grade`,
    region: labRegion(),
  });
  // Every grading starts now, side by side; each test awaits its own.
  graded(fixture("guards", "check-then-write.ts"), CHECK_THEN_WRITE, CHECK_THEN_WRITE_ROWS);
  graded(fixture("guards", "claim-without-release.ts"), CLAIM_WITHOUT_RELEASE, CLAIM_ROWS);
  graded("claim", CLAIM, CLAIM_ROWS);
  // Every row, and a glance of the explorer: the lease it copies is walked whole in explore.test
  // (every schedule of two copies with at most one fault; the copy's own walk of them took 12 s
  // of CPU here), and what this test asks of the explorer is the verdict a guard that holds gets.
  graded(fixture("guards", "lease-copy.ts"), LEASE_COPY, undefined, "glance");
  for (const name of ["throws.ts", "not-an-outcome.js", "never-returns.ts"]) brokenGraded(name);
  // A failed grading fails its own tests, not the others'.
  for (const g of gradings.values()) g.catch(() => undefined);
});

afterAll(async () => {
  await session?.close();
});

const row = (result: GradeResult, name: string) => {
  const found = result.rows.find((r) => r.name === name);
  if (!found) throw new Error(`no row ${name}`);
  return found;
};
/** The graded rows that failed, each with what failed: a failing run says why in CI's log. */
const whyRowsFailed = (result: GradeResult) =>
  result.rows
    .filter((r) => r.graded && !r.ok)
    .map((r) => ({
      row: r.name,
      failures: r.failures,
      notRaced: r.notRaced,
      problems: r.problems,
      checks: r.phase.checks
        .filter((c) => !c.pass)
        .map(({ name, expected, actual }) => ({ name, expected, actual })),
    }));
const failedRows = (result: GradeResult) => whyRowsFailed(result).map((r) => r.row);
const report = (result: GradeResult) => textGrade(gradeView(result));
const verdicts = (result: GradeResult) =>
  result.rows.map((r) => ({ row: r.name, graded: r.graded, ok: r.ok, failures: r.failures }));

// Each test waits for its grading, started with the others at once (beforeAll): its clock runs
// while they share the emulator (on LocalStack, check-then-write's took 174 s of the 180 in one
// CI run and 180 in the next), so it gets the queued tests' bound.
describe("npx lab grade", { timeout: QUEUED_TEST_TIMEOUT_MS }, () => {
  test("check-then-write: ✗ on the racing rows, doubled, with the run that broke it", async () => {
    const result = await graded(fixture("guards", "check-then-write.ts"), CHECK_THEN_WRITE);
    for (const name of ["racing copies", "work outlives the lease"]) {
      const racing = row(result, name);
      // A row that did not race as scripted proves nothing either way: say so, not "undefined".
      expect(racing.notRaced, `${name}: ${cellWords(racing)}`).toBeUndefined();
      expect(racing.ok, `${name}: ${cellWords(racing)}`).toBe(false);
      expect(racing.failures.doubled).toBeGreaterThan(0);
    }
    expect(failedRows(result)).not.toContain("duplicate copies");
    expect(result.explorer.report?.kinds).toContain("doubled");
    expect(result.pass).toBe(false);
    const text = report(result);
    expect(text).toMatch(/✗ racing copies +doubled 1/);
    expect(text).toContain("✗ racing copies: doubled 1\n  Step by step");
    expect(text).toContain("held at before-charge");
    expect(text).toContain("✗ explorer: doubled: the shortest counterexample");
    expect(text).toMatch(/^FAIL check-then-write\.ts: /m);
  });

  test("claim-without-release: ✗ on crash after claim and charge failure, lost", async () => {
    const result = await graded(
      fixture("guards", "claim-without-release.ts"),
      CLAIM_WITHOUT_RELEASE,
    );
    for (const name of ["crash after claim", "charge failure"]) {
      expect(row(result, name).ok, `${name}: ${cellWords(row(result, name))}`).toBe(false);
      expect(row(result, name).failures.lost).toBeGreaterThan(0);
    }
    expect(row(result, "racing copies").ok).toBe(true);
    expect(result.pass).toBe(false);
  });

  test("lease-copy: every graded row ✓, the explorer's glance finds nothing, exit 0's verdict", async () => {
    const result = await graded(fixture("guards", "lease-copy.ts"), LEASE_COPY);
    expect(whyRowsFailed(result)).toEqual([]);
    expect(result.explorer.ok).toBe(true);
    expect(result.pass).toBe(true);
    const text = report(result);
    expect(text).toMatch(/– malformed body .*\(not graded: no guard can/);
    expect(text).toMatch(/^PASS lease-copy\.ts: every graded row holds/m);
  });

  test("a lab guard and the same guard copied into a file grade identically", async () => {
    // claim-without-release.ts is worker/guards/claim.ts, written against the guard API.
    const [copy, builtIn] = await Promise.all([
      graded(fixture("guards", "claim-without-release.ts"), CLAIM_WITHOUT_RELEASE),
      graded("claim", CLAIM),
    ]);
    expect(verdicts(copy)).toEqual(verdicts(builtIn));
    expect(verdicts(copy).map((v) => v.ok)).toEqual([true, false, false]);
    expect(copy.explorer.ok).toBe(builtIn.explorer.ok);
    expect(copy.explorer.report?.kinds).toEqual(builtIn.explorer.report?.kinds);
    expect(copy.explorer.report?.kinds).toEqual(expect.arrayContaining(["lost"]));
  });

  test("a guard that throws: the report names throws.ts and the line of the throw", async () => {
    const result = await brokenGraded("throws.ts");
    const source = readFileSync(
      path.join(PROJECT_ROOT, fixture("broken-guards", "throws.ts")),
      "utf8",
    );
    const line = source.split("\n").findIndex((l) => l.includes("throw new Error")) + 1;
    expect(row(result, "charge failure").problems).toContainEqual({
      kind: "threw",
      at: expect.stringMatching(new RegExp(`^throws\\.ts:${line}:\\d+$`)),
      error: "cannot charge ORDER-106 yet",
      deliveries: expect.any(Number),
    });
    expect(report(result)).toContain(`↳ the guard threw at throws.ts:${line}:`);
    expect(result.pass).toBe(false);
  });

  test("a guard that returns something else: one line saying what it returned", async () => {
    const result = await brokenGraded("not-an-outcome.js");
    expect(row(result, "charge failure").problems).toContainEqual({
      kind: "returned",
      returned: "42",
      deliveries: expect.any(Number),
    });
    expect(report(result)).toMatch(
      /↳ the guard returned 42, not an outcome \(\d+ deliver(y|ies)\)$/m,
    );
    expect(result.pass).toBe(false);
  });

  test("a guard that never returns: reported as the function timing out, not a hang", async () => {
    const result = await brokenGraded("never-returns.ts");
    expect(row(result, "charge failure").problems).toContainEqual({
      kind: "timed-out",
      copies: [1],
      deliveries: expect.any(Number),
    });
    expect(report(result)).toContain("the function timed out on copy 1 (the guard never returned)");
    expect(result.explorer.hung).toBeDefined();
    expect(report(result)).toContain("the guard never returned: copy 1 attempt 1 ran");
    expect(result.pass).toBe(false);
  });
});

// The guard's own choices (issue 29 items 5 and 6): each grades with a finding or a failed row,
// never an unexpected error. Lanes of their own (lanes.ts gradeChoices), graded side by side.
const [OWN_KEY_A, OWN_KEY_B, BY_HAND, ODD] = labsFor("gradeChoices") as DeployedLab[];

describe("npx lab grade: what a guard chooses is a finding or a flaw, never an error", {
  timeout: QUEUED_TEST_TIMEOUT_MS,
}, () => {
  beforeAll(() => {
    const started = [
      graded(fixture("guards", "own-key-charge.ts"), [OWN_KEY_A, OWN_KEY_B] as DeployedLab[]),
      // A glance for these two: the one's tests read its rows, the other's a kind every
      // schedule shows (it charges twice). The explorer's side of a ledger written by hand is
      // explore.test's.
      graded(
        fixture("guards", "ledger-by-hand.ts"),
        BY_HAND as DeployedLab,
        ["duplicate copies", "payload mismatch"],
        "glance",
      ),
      graded(
        fixture("broken-guards", "odd-values.js"),
        ODD as DeployedLab,
        ["duplicate copies"],
        "glance",
      ),
    ];
    for (const g of started) g.catch(() => undefined);
  });

  test("own-key-charge (its record writes the ledger item under a key of its own): PASS, every line names what the ledger holds", async () => {
    const result = await graded(fixture("guards", "own-key-charge.ts"), []);
    expect(whyRowsFailed(result)).toEqual([]);
    for (const r of result.rows) {
      expect(r.invariants, r.name).toEqual([]);
      expect(r.renamed, r.name).toEqual([]);
    }
    expect(result.explorer.report?.disagreed).toBe(0);
    expect(result.pass).toBe(true);
    const mismatch = row(result, "payload mismatch");
    const refusals = mismatch.problems.filter((p) => p.kind === "threw");
    expect(refusals.map((p) => p.kind === "threw" && p.error)).toEqual([
      "the provider refused key ORDER-107: used for another charge",
    ]);
    const charged = mismatch.phase.timeline.filter((e) => e.type === "charge_applied");
    expect(charged.map((e) => e.chargeId)).toEqual(["mine=ORDER-107"]);
  });

  test("ledger-by-hand (the item written around the ledger): a finding on the row, graded on the ledger, and its real flaw", async () => {
    const result = await graded(fixture("guards", "ledger-by-hand.ts"), []);
    const duplicates = row(result, "duplicate copies");
    expect(duplicates.ok).toBe(true);
    expect(duplicates.invariants).toEqual([]);
    expect(duplicates.renamed.map((r) => r.recorded)).toEqual(["hand=ORDER-101"]);
    expect(report(result)).toContain("the ledger holds hand=ORDER-101");
    // It answers "replayed" for another amount too: that is a flaw, and the row says so.
    expect(row(result, "payload mismatch").failures).toEqual({ "mismatch skipped silently": 1 });
  });

  test("odd-values.js (odd log lines, two charges, a throw of no Error, a BigInt returned): a failed row, in words", async () => {
    const result = await graded(fixture("broken-guards", "odd-values.js"), []);
    const duplicates = row(result, "duplicate copies");
    expect(duplicates.failures.doubled).toBeGreaterThan(0);
    expect(duplicates.problems).toContainEqual(
      expect.objectContaining({ kind: "threw", error: "{}" }),
    );
    expect(result.explorer.report?.kinds).toContain("doubled");
    expect(report(result)).toMatch(/^FAIL odd-values\.js: /m);
  });
});
