// `lab doctor --ready`: the check an attendee runs the week before the workshop, from the kit's
// lab folder after `npm ci`. Only what the room needs (no Docker): Node and Python in range, the
// kit's wheels fit this Python (or MiniStack is installed already), disk, and a loopback port.
// One verdict, ready or not, with what to do. Gathering touches the machine; judging is pure.
import { existsSync, statfsSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import path from "node:path";
import {
  ministackPaths,
  type OfflineWheels,
  offlineWheels,
  venvFits,
} from "../backends/ministack-install.js";
import { freeLoopbackPort } from "../backends/processes.js";
import { findPython, type PythonFound } from "../backends/python.js";
import { pipOf } from "../backends/venv-pip.js";
import { within } from "../common/deadline.js";
import { LAB_DIR } from "../common/paths.js";
import { nodeVerdict, supportedNodeText, supportedPythonText } from "../common/supported.js";

/** What the venv (90 MB) and the lab's logs and MiniStack's temporary files take, with room. */
export const DISK_NEEDED_BYTES = 1_000_000_000;

export interface ReadinessFacts {
  node: string;
  python: PythonFound | { problem: string };
  /** MiniStack in .lab/venv, made by the Python found: the wheels are not needed any more. */
  installed: boolean;
  /** Asked of pip when MiniStack is not installed and a Python is there. */
  wheels?: OfflineWheels;
  /** Free bytes where the lab keeps .lab/; undefined when the system would not say. */
  freeBytes?: number;
  /** Listening on 127.0.0.1 and connecting to it worked; else why not. */
  loopback: { ok: true } | { ok: false; why: string };
}

export interface ReadinessRow {
  check: string;
  ok: boolean;
  found: string;
  next: string;
}

export async function gatherReadiness(labDir = LAB_DIR): Promise<ReadinessFacts> {
  const paths = ministackPaths(labDir);
  const python = await within(
    60_000,
    () => findPython().catch((err: Error) => ({ problem: err.message })),
    () => ({ problem: "no Python answered within 60 s" }),
  );
  let installed = false;
  let wheels: OfflineWheels | undefined;
  if ("command" in python) {
    installed = existsSync(paths.marker) && (await venvFits(paths, python));
    if (!installed) {
      const unusable = { state: "unusable", why: "pip did not answer within 60 s" } as const;
      wheels = await within(
        60_000,
        () => offlineWheels(pipOf(python), paths.wheels),
        () => unusable,
      );
    }
  }
  return {
    node: process.version,
    python,
    installed,
    ...(wheels ? { wheels } : {}),
    ...freeSpace(labDir),
    loopback: await within(10_000, loopbackWorks, () => ({
      ok: false as const,
      why: "no answer within 10 s",
    })),
  };
}

function freeSpace(labDir: string): { freeBytes?: number } {
  // .lab/ may not exist yet: its nearest folder that does is on the same disk.
  let folder = path.resolve(labDir);
  while (!existsSync(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  try {
    const stats = statfsSync(folder);
    return { freeBytes: stats.bavail * stats.bsize };
  } catch {
    return {};
  }
}

/** MiniStack listens on a free port of 127.0.0.1 and the lab connects to it: both must work. */
async function loopbackWorks(): Promise<ReadinessFacts["loopback"]> {
  try {
    const port = await freeLoopbackPort();
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const client = createConnection({ host: "127.0.0.1", port }, () => {
          client.destroy();
          resolve();
        });
        client.once("error", reject);
      });
    } finally {
      server.close();
    }
    return { ok: true };
  } catch (err) {
    return { ok: false, why: (err as Error).message };
  }
}

export function judgeReadiness(facts: ReadinessFacts): ReadinessRow[] {
  const node = nodeVerdict(facts.node);
  const rows: ReadinessRow[] = [
    {
      check: "Node.js",
      ok: node !== "too old",
      found:
        node === "untested" ? `${facts.node} (tested: ${supportedNodeText(" and ")})` : facts.node,
      next: node === "too old" ? `install Node.js ${supportedNodeText()}` : "",
    },
  ];
  const python = facts.python;
  rows.push(
    "command" in python
      ? { check: "Python", ok: true, found: `${python.label} ${python.version}`, next: "" }
      : {
          check: "Python",
          ok: false,
          found: python.problem,
          next: `install Python ${supportedPythonText()} (python.org), then run this again`,
        },
  );
  rows.push(wheelsRow(facts));
  const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;
  rows.push(
    facts.freeBytes === undefined
      ? { check: "disk", ok: true, found: "the system did not say how much is free", next: "" }
      : {
          check: "disk",
          ok: facts.freeBytes >= DISK_NEEDED_BYTES,
          found: `${gb(facts.freeBytes)} free`,
          next:
            facts.freeBytes >= DISK_NEEDED_BYTES
              ? ""
              : `free at least ${gb(DISK_NEEDED_BYTES)} on this disk`,
        },
  );
  rows.push(
    facts.loopback.ok
      ? { check: "loopback port", ok: true, found: "127.0.0.1 listens and answers", next: "" }
      : {
          check: "loopback port",
          ok: false,
          found: facts.loopback.why,
          next: "allow Node.js and Python to listen on 127.0.0.1 (firewall or security software)",
        },
  );
  return rows;
}

function wheelsRow(facts: ReadinessFacts): ReadinessRow {
  const check = "MiniStack for this Python";
  if (!("command" in facts.python))
    return { check, ok: false, found: "needs a Python in range first", next: "" };
  if (facts.installed) return { check, ok: true, found: "installed in .lab/venv", next: "" };
  const wheels = facts.wheels ?? { state: "none" };
  switch (wheels.state) {
    case "resolve":
      return { check, ok: true, found: "the kit's wheels in .lab/wheels fit", next: "" };
    case "none":
      return {
        check,
        ok: false,
        found: "no wheels in .lab/wheels",
        next: "run this in the kit's sqs-idempotency-lab folder (its .lab/wheels), after npm ci",
      };
    case "unusable":
      return {
        check,
        ok: false,
        found: `the wheels in .lab/wheels do not fit: ${wheels.why}`,
        next: `copy the whole kit again, or install Python ${supportedPythonText()}`,
      };
  }
}
