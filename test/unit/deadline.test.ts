// A probe with a deadline of its own ends with its answer or the fallback, and keeps the process
// alive until then: a probe that holds nothing (no socket, no timer) must not let Node end the
// process with its answer still pending, as `lab doctor` once stopped mid-table.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { within } from "../../harness/common/deadline.js";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import { nodeTsx } from "../node-tsx.js";
import { tempFolder } from "../temp-folder.js";

const never = () => new Promise<string>(() => {}); // settles never, holds nothing

test("the answer when it comes first; no fallback", async () => {
  expect(
    await within(
      5_000,
      async () => "answer",
      () => "late",
    ),
  ).toBe("answer");
});

test("a probe that never settles: the fallback at the deadline, and its signal aborted", async () => {
  let signal: AbortSignal | undefined;
  const started = Date.now();
  const answer = await within(
    200,
    (s) => {
      signal = s;
      return never();
    },
    () => "late",
  );
  expect(answer).toBe("late");
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  expect(signal?.aborted).toBe(true);
});

test("alone in a process, a probe that holds nothing alive still ends with the fallback", () => {
  const script = path.join(tempFolder("lab-deadline-"), "probe.mts");
  const deadline = pathToFileURL(path.join(PROJECT_ROOT, "harness/common/deadline.ts")).href;
  writeFileSync(
    script,
    `import { within } from ${JSON.stringify(deadline)};
const answer = await within(300, () => new Promise(() => {}), () => "fallback at the deadline");
console.log(answer);
`,
  );
  const run = spawnSync(...nodeTsx(script), { encoding: "utf8", timeout: 30_000 });
  // Without a referenced timer Node ends this process at once, exit 0, having printed nothing.
  expect(run.stdout.trim(), run.stderr).toBe("fallback at the deadline");
  expect(run.status).toBe(0);
});
