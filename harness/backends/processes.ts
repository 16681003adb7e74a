// Small helpers for child processes: run one to completion with a timeout, streaming its
// output line by line so a long install shows progress instead of a silent wait; find a free
// port; stop a process group cleanly, whether this process started it or an earlier one did.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { sleep } from "../common/sleep.js";

export interface RunResult {
  code: number | null;
  output: string;
}

export function run(
  command: string,
  args: string[],
  options: {
    timeoutMs: number;
    onLine?: (line: string) => void;
    env?: NodeJS.ProcessEnv;
    /** Windows: `npm.cmd` and other batch files run only through a shell (Node 20.12+). */
    shell?: boolean;
  },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      shell: options.shell ?? false,
    });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        output += `${line}\n`;
        options.onLine?.(line);
      });
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`${command} ${args.join(" ")} took longer than ${options.timeoutMs / 1000} s`),
      );
    }, options.timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The end of a command's output: where pip, npm and uv say what went wrong. */
export const lastLines = (output: string, count = 5): string =>
  output.trim().split("\n").slice(-count).join("\n");

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A promise-returning function that runs once, however often it is called. */
export function onceOnly(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
}

/** Signals a process and its whole group (an emulator and the workers it started). */
export function signalGroup(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    if (process.platform === "win32") {
      spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore" });
    } else process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM a child's group, give it a few seconds to shut down cleanly, then SIGKILL. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    signalGroup(child.pid, "SIGTERM");
    const timer = setTimeout(() => child.pid && signalGroup(child.pid), 5_000);
    await exited;
    clearTimeout(timer);
  }
  // Workers in its group may outlive it by a moment; make sure none is left behind.
  signalGroup(child.pid);
}

/** The same for a group started by an earlier command, known only by its leader's pid. */
export async function stopGroupByPid(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + 5_000;
  while (alive() && Date.now() < deadline) await sleep(100);
  signalGroup(pid);
}
