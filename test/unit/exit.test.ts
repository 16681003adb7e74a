// How a command ends (harness/cli/exit.ts): its own code when it finishes, and never 0 when it
// stops without finishing. `lab doctor` once exited 0 with an empty stdout under load, which
// the Docker suite read as "doctor ran and printed nothing"; it had not finished at all.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { nodeTsx } from "../node-tsx.js";

const fixture = path.join(import.meta.dirname, "exit-fixture", "command.ts");
const run = (how: string) =>
  spawnSync(...nodeTsx(fixture, [how]), { encoding: "utf8", timeout: 30_000 });

describe("runCommand", () => {
  test("a command that finishes exits with its code, its output all there", () => {
    const printed = run("prints");
    expect(printed.stdout).toBe("the table\n");
    expect(printed.stderr).toBe("");
    expect(printed.status).toBe(0);
    expect(run("check-failed").status).toBe(1);
  });

  test("a command that throws exits through exitWith: one line, its code", () => {
    const failed = run("lab-error");
    expect(failed.status).toBe(3);
    expect(failed.stderr).toBe("fixture: no backend can run on this machine\n");
  });

  test("a command still waiting when the event loop empties exits 3 and says what it waited for, not 0", () => {
    const stopped = run("never-settles");
    expect(stopped.error).toBeUndefined(); // it ended by itself, not by the timeout
    expect(stopped.stdout).toBe("");
    expect(stopped.stderr).toBe(
      "probing…\nfixture: stopped before it finished: it was still waiting, and nothing left could answer (still waiting for the Docker engine)\n",
    );
    expect(stopped.status).toBe(3);
  });
});
