// Ctrl-C leaves nothing running: `npx lab scenario guard-on` as a user runs it (its own process
// group, its own MiniStack), interrupted at each moment of a run, held there by LAB_HOLD_AT so
// the signal lands in that moment by construction: while MiniStack starts, while deploying, with
// a phase's copies running in Lambda workers, while stopping, and a second Ctrl-C during the
// clean-up. A terminal's Ctrl-C goes to the whole process group; a `kill` to the lab alone.
// Then: exit 130, no MiniStack, no worker, nothing listening on its port, the temp folder gone.
// Starts MiniStacks of its own; the suite's shared emulator is not used.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, test } from "vitest";
import { ministackTempDir } from "../../harness/backends/ministack.js";
import { ministackPaths } from "../../harness/backends/ministack-install.js";
import { freeLoopbackPort } from "../../harness/backends/processes.js";
import { type HoldMoment, heldLine } from "../../harness/common/hold.js";
import { sleep } from "../../harness/common/sleep.js";
import { npxLab } from "../node-tsx.js";
import { tempFolder } from "../temp-folder.js";
import { leftBehind, ministacksListeningOn, type Proc, treeOf } from "./process-tree.js";

/** Who gets the Ctrl-C: the whole group (a terminal's), or the lab's process alone (`kill PID`). */
type Target = "group" | "lab";

interface Case {
  name: string;
  /** The moments held, in order; an interrupt is sent at each. */
  holds: HoldMoment[];
  target: Target;
  /** What is interrupted: a scenario (the default), or `lab up`, whose emulator outlives it once remembered. */
  command?: "up";
}

const CASES: Case[] = [
  { name: "while MiniStack starts", holds: ["ministack-starting"], target: "group" },
  { name: "while deploying", holds: ["deploying"], target: "lab" },
  { name: "within a phase, Lambda workers running", holds: ["phase"], target: "group" },
  { name: "while stopping", holds: ["stopping"], target: "lab" },
  {
    name: "a second Ctrl-C during the clean-up",
    holds: ["phase", "stopping"],
    target: "group",
  },
  // Before `lab up` has remembered its MiniStack, `lab down` could not find it: it must go too.
  {
    name: "lab up while MiniStack starts",
    holds: ["ministack-starting"],
    target: "lab",
    command: "up",
  },
  { name: "lab up while deploying", holds: ["deploying"], target: "group", command: "up" },
];

const EXIT_INTERRUPTED = 130;
/** Long enough for a start and a deploy on a loaded 2-core machine; a hang fails, not waits. */
const STAGE_MS = 90_000;

describe.skipIf(process.platform !== "linux")(
  "an interrupted scenario leaves nothing running",
  () => {
    test.concurrent.each(CASES)(
      "$name (Ctrl-C to the $target)",
      async ({ holds, target, command }) => {
        const port = await freeLoopbackPort();
        const tempDir = ministackTempDir(port);
        const run = startLab(port, holds.join(","), command);
        let seen: Proc[] = [];
        let ministackPid: number | undefined;
        try {
          for (const moment of holds) {
            await run.until(`lab ${heldLine(moment)}`);
            ministackPid ??= ownerPid(tempDir);
            if (moment === "phase") await someWorker(ministackPid);
            seen = mergeSeen(seen, run.child.pid as number);
            signal(run.child, target);
          }
          const exit = await run.exited;
          expect(ministackPid, "MiniStack's pid, from its temp folder").toBeDefined();
          const left = await gone(() => leftBehind(ministackPid, tempDir, seen));
          // One comparison, so a failure shows everything that was wrong at once.
          expect(
            {
              exit,
              left: left.map(describeProc),
              listening: ministacksListeningOn(port),
              tempSwept: !existsSync(tempDir),
            },
            run.stderr(),
          ).toEqual({
            exit: { code: EXIT_INTERRUPTED, signal: null },
            left: [],
            listening: [],
            tempSwept: true,
          });
        } finally {
          // A failed run must not leave its MiniStack for the next: only what this run started.
          for (const proc of leftBehind(ministackPid, tempDir, seen)) {
            try {
              process.kill(proc.pid, "SIGKILL");
            } catch {}
          }
          rmSync(tempDir, { recursive: true, force: true });
        }
      },
    );
  },
);

/** The command as a user runs it, in a process group of its own (as a shell starts a job). */
function startLab(port: number, holdAt: string, command?: "up") {
  const child = spawn(...npxLab(command === "up" ? ["up"] : ["scenario", "guard-on"]), {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      ...process.env,
      // `lab up` remembers its lab in LAB_HOME: one of its own, with the project's MiniStack venv.
      ...(command === "up" ? { LAB_HOME: labHomeWithVenv() } : {}),
      LAB_BACKEND: "ministack",
      LAB_MINISTACK_PORT: String(port),
      LAB_HOLD_AT: holdAt,
      LAB_ENDPOINT: "",
      NO_COLOR: "1",
    },
  });
  const lines: string[] = [];
  const waiters = new Map<string, () => void>();
  createInterface({ input: child.stderr as NonNullable<ChildProcess["stderr"]> }).on(
    "line",
    (line) => {
      lines.push(line);
      waiters.get(line)?.();
    },
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const stderr = () => lines.join("\n");
  return {
    child,
    exited: deadline(exited, "the lab to exit", stderr, () => signal(child, "group", "SIGKILL")),
    stderr,
    /** Until the command prints exactly this line; failing with its stderr if it ends first. */
    until: (line: string) =>
      deadline(
        Promise.race([
          lines.includes(line)
            ? Promise.resolve()
            : new Promise<void>((resolve) => waiters.set(line, resolve)),
          exited.then((exit) => {
            throw new Error(`the lab exited (${JSON.stringify(exit)}) before "${line}"`);
          }),
        ]),
        `"${line}"`,
        stderr,
      ),
  };
}

function signal(child: ChildProcess, target: Target, name: NodeJS.Signals = "SIGINT"): void {
  const pid = child.pid as number;
  try {
    process.kill(target === "group" ? -pid : pid, name);
  } catch {}
}

/** The pid MiniStack's start wrote in its temp folder (ministack.ts, OWNER_FILE). */
function ownerPid(tempDir: string): number | undefined {
  try {
    return Number(readFileSync(path.join(tempDir, ".owner-pid"), "utf8"));
  } catch {
    return undefined;
  }
}

/** Waits until MiniStack runs a Lambda worker (a process in its group besides itself). */
async function someWorker(ministackPid: number | undefined): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < STAGE_MS) {
    if (ministackPid && treeOf(ministackPid).some((p) => p.pid !== ministackPid)) return;
    await sleep(50);
  }
  throw new Error("no Lambda worker ran within the phase");
}

/** What the lab's tree holds now, added to what was seen before (pids and start times). */
function mergeSeen(seen: Proc[], labPid: number): Proc[] {
  const now = treeOf(labPid);
  return [...seen, ...now.filter((p) => !seen.some((s) => s.pid === p.pid))];
}

/** Polls until nothing is left, for as long as a SIGKILLed process may take to go: then what is. */
async function gone(left: () => Proc[]): Promise<Proc[]> {
  const started = Date.now();
  let now = left();
  while (now.length > 0 && Date.now() - started < 5_000) {
    await sleep(100);
    now = left();
  }
  return now;
}

const describeProc = (p: Proc) => `${p.pid} (group ${p.pgid}, parent ${p.ppid}): ${p.cmdline}`;

function deadline<T>(
  promise: Promise<T>,
  what: string,
  stderr: () => string,
  onTimeout: () => void = () => {},
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(new Error(`waited ${STAGE_MS / 1000} s for ${what}; stderr:\n${stderr()}`));
      }, STAGE_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A LAB_HOME of its own for `lab up`, its venv the project's (no second pip install). */
function labHomeWithVenv(): string {
  const home = tempFolder("interrupt-up-");
  symlinkSync(ministackPaths().venv, path.join(home, "venv"));
  return home;
}
