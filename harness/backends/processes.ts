// Small helpers for child processes: run one to completion with a timeout, and stream its
// output line by line so a long install shows progress instead of a silent wait.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

export interface RunResult {
  code: number | null;
  output: string;
}

export function run(
  command: string,
  args: string[],
  options: { timeoutMs: number; onLine?: (line: string) => void; env?: NodeJS.ProcessEnv },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
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
