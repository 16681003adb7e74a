// Sums the lines bench/cpu-probe.mjs wrote during a test run, by kind of process: the lab's
// command line started by a test (bin/lab.mjs, with what it waited for: pip, npm), other Node
// processes a test started (tsx fixtures, a nested vitest, npm), MiniStack's function workers,
// and vitest's own. A process killed by a signal writes no line. Usage: node bench/suite-cpu.mjs <log>
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) {
  console.error("usage: node bench/suite-cpu.mjs <SUITE_CPU_LOG file>");
  process.exit(2);
}
const lines = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.startsWith("{"))
  .map((l) => JSON.parse(l));

/** The run's own: the npx that started vitest, vitest, its workers. Every other Node process a test started. */
const kindOf = (line) => {
  const args = line.argv.join(" ");
  if (/_worker\.js/.test(args)) return "function workers (MiniStack)";
  if (/forks\.js|threads\.js/.test(args)) return "vitest workers";
  if (/bin\/lab\.mjs/.test(args)) return "lab command line (bin/lab.mjs)";
  if (/npm-cli\.js exec/.test(args)) return "vitest, npx";
  if (/bin\/vitest/.test(args) && !line.argv.includes("--config")) return "vitest, npx";
  return "other Node started by tests";
};
const kinds = new Map();
for (const line of lines) {
  const kind = kindOf(line);
  const k = kinds.get(kind) ?? { processes: 0, cpu: 0, waitedFor: 0 };
  k.processes += 1;
  k.cpu += line.selfCpu;
  // the children of vitest and its workers are counted in their own lines (Node), or not at all
  if (!kind.startsWith("vitest")) k.waitedFor += line.childrenCpu;
  kinds.set(kind, k);
}
for (const [kind, k] of [...kinds].sort((a, b) => b[1].cpu - a[1].cpu)) {
  console.log(
    `${kind.padEnd(32)} ${String(k.processes).padStart(4)} processes  ${k.cpu.toFixed(1).padStart(6)} s CPU  + ${k.waitedFor.toFixed(1).padStart(5)} s in what they waited for`,
  );
}
