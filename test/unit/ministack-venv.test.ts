// A .lab/venv made by a Python other than the one the lab picks now is made again, and the lab
// says so; one made by the same Python is kept. The real Python makes the venv, and pip installs
// a stand-in ministack wheel from the lab folder's wheels (no network): the Python's own pip when
// it can install into the venv (then the venv has none), else the venv's.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { ensureMiniStack, isWindows } from "../../harness/backends/ministack-install.js";
import { findPython, pythonVersion } from "../../harness/backends/python.js";
import { pipInstallsElsewhere, venvHasPip } from "../../harness/backends/venv-pip.js";
import { wheelsFolder } from "./ministack-wheel-fixture.js";

/** A finished venv whose python answers 3.14, or (`answer` "gone") no longer runs. */
function venvOf314(venv: string, answer: "3.14" | "gone" = "3.14"): void {
  mkdirSync(path.join(venv, "bin"), { recursive: true });
  const python = path.join(venv, "bin", "python");
  writeFileSync(python, answer === "gone" ? "#!/bin/sh\nexit 127\n" : "#!/bin/sh\necho 3.14\n");
  chmodSync(python, 0o755);
  writeFileSync(path.join(venv, "ministack-1.5.33.installed"), "");
}

test.skipIf(isWindows)(
  "a venv made by Python 3.14 is made again with the Python picked now, then kept",
  async () => {
    const python = await findPython();
    const labDir = path.dirname(wheelsFolder(python.command)); // its wheels: <labDir>/wheels
    venvOf314(path.join(labDir, "venv"));
    const said: string[] = [];
    const say = (line: string) => said.push(line);

    const paths = await ensureMiniStack(say, labDir, async () => python);
    expect(said[0]).toBe(
      `${path.join(labDir, "venv")} was made by Python 3.14; making it again with ${python.label} (${python.version})`,
    );
    expect(await pythonVersion({ command: paths.python, args: [] })).toBe(python.version);
    expect(existsSync(paths.marker)).toBe(true);
    // Made without a pip of its own when this Python's pip installed into it from outside.
    expect(venvHasPip(paths.venv)).toBe(!(await pipInstallsElsewhere(python)));

    said.length = 0;
    await ensureMiniStack(say, labDir, async () => python);
    expect(said).toEqual([]); // the same Python: kept, nothing to say, nothing installed
  },
);

test.skipIf(isWindows)(
  "a finished venv whose Python is gone is made again; the lab says so",
  async () => {
    const python = await findPython();
    const labDir = path.dirname(wheelsFolder(python.command));
    venvOf314(path.join(labDir, "venv"), "gone");
    const said: string[] = [];
    const paths = await ensureMiniStack(
      (line) => said.push(line),
      labDir,
      async () => python,
    );
    expect(said[0]).toBe(
      `${path.join(labDir, "venv")} was made by a Python that no longer runs; making it again with ${python.label} (${python.version})`,
    );
    expect(await pythonVersion({ command: paths.python, args: [] })).toBe(python.version);
  },
);
