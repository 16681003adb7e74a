// `lab doctor --ready`, the week-before check: each row judged from facts, and the command run
// here with a lab folder that has the kit's wheels for this Python (a stand-in wheel pip really
// resolves, offline) and with one that has none.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { findPython } from "../../harness/backends/python.js";
import { judgeReadiness, type ReadinessFacts } from "../../harness/workshop/readiness.js";
import { npxLab } from "../node-tsx.js";
import { tempFolder } from "../temp-folder.js";
import { wheelsFolder } from "./ministack-wheel-fixture.js";

const ready: ReadinessFacts = {
  node: "v22.23.5",
  python: { command: "C:\\Python312\\python.exe", args: [], version: "3.12", label: "py -3.12" },
  installed: false,
  wheels: { state: "resolve" },
  freeBytes: 20e9,
  loopback: { ok: true },
};
const failing = (facts: ReadinessFacts) =>
  judgeReadiness(facts)
    .filter((r) => !r.ok)
    .map((r) => [r.check, r.next]);

describe("each check, judged", () => {
  test("all there: every row ✓", () => {
    expect(judgeReadiness(ready).every((r) => r.ok)).toBe(true);
    expect(judgeReadiness(ready).map((r) => r.check)).toEqual([
      "Node.js",
      "Python",
      "MiniStack for this Python",
      "disk",
      "loopback port",
    ]);
  });

  test("Node 20: install 22 or 24", () => {
    expect(failing({ ...ready, node: "v20.20.2" })).toEqual([
      ["Node.js", "install Node.js 22 or 24"],
    ]);
  });

  test("only Python 3.14: install one in range; the wheels cannot be judged yet", () => {
    const rows = failing({
      ...ready,
      python: { problem: "MiniStack needs Python 3.10 to 3.13 …" },
    });
    expect(rows).toEqual([
      ["Python", "install Python 3.10 to 3.13 (python.org), then run this again"],
      ["MiniStack for this Python", ""],
    ]);
  });

  test("wheels that do not fit this Python, or none: what to do", () => {
    const why = "No matching distribution found for ministack==1.5.33";
    expect(failing({ ...ready, wheels: { state: "unusable", why } })).toEqual([
      ["MiniStack for this Python", "copy the whole kit again, or install Python 3.10 to 3.13"],
    ]);
    expect(failing({ ...ready, wheels: { state: "none" } })[0]?.[1]).toContain(
      "run this in the kit's sqs-idempotency-lab folder",
    );
    expect(failing({ ...ready, installed: true, wheels: { state: "none" } })).toEqual([]);
  });

  test("under 1 GB free, and a loopback that refuses: each says what to do", () => {
    expect(failing({ ...ready, freeBytes: 0.4e9 })).toEqual([
      ["disk", "free at least 1.0 GB on this disk"],
    ]);
    expect(failing({ ...ready, freeBytes: 1e9 })).toEqual([]);
    expect(failing({ ...ready, loopback: { ok: false, why: "listen EACCES" } })).toEqual([
      [
        "loopback port",
        "allow Node.js and Python to listen on 127.0.0.1 (firewall or security software)",
      ],
    ]);
  });
});

describe("npx lab doctor --ready, on this machine", () => {
  const ready = (labHome: string) =>
    spawnSync(...npxLab(["doctor", "--ready"]), {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, LAB_HOME: labHome, NO_COLOR: "1" },
    });

  test("the kit's wheels fit this Python: ready, exit 0", async () => {
    const labHome = path.dirname(wheelsFolder((await findPython()).command));
    const run = ready(labHome);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /│ ✓ │ MiniStack for this Python\s+│ the kit's wheels in \.lab\/wheels fit/,
    );
    expect(run.stdout.trim().split("\n").at(-1)).toBe(
      "ready: this laptop has what the workshop needs (bring it as it is)",
    );
  });

  test("no wheels: not ready, exit 3, one line with what to do", () => {
    const run = ready(tempFolder("lab-ready-"));
    expect(run.status).toBe(3);
    expect(run.stderr.trim()).toBe(
      "lab: not ready: run this in the kit's sqs-idempotency-lab folder (its .lab/wheels), after npm ci; then run npx lab doctor --ready again",
    );
  });
});
