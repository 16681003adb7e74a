// Samples /proc once a second while a command runs, and says where its CPU went, by kind of
// process: the emulator (MiniStack's Python), its function workers, vitest and its workers, the
// lab's command line, pip and other Python. A process's last sample counts (up to a second of a
// short one's CPU is missed; bench/cpu-probe.mjs counts Node processes at their exit instead).
// Linux only. Usage: node bench/proc-cpu.mjs <command> [args…]; PROC_CPU_TOP=N also lists the N
// command lines (their first 120 characters) that used the most CPU.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const TICKS = 100; // USER_HZ
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node bench/proc-cpu.mjs <command> [args…]");
  process.exit(2);
}

const kindOf = (cmd) => {
  if (/-m ministack/.test(cmd)) return "emulator (MiniStack)";
  if (/_worker\.js/.test(cmd)) return "function workers";
  if (/forks\.js|threads\.js/.test(cmd)) return "vitest workers (tests, harness, explorer)";
  if (/bin\/lab\.mjs/.test(cmd)) return "lab command line";
  if (/python|pip/.test(cmd)) return "pip, venv and other Python";
  if (/esbuild/.test(cmd)) return "esbuild";
  if (/vitest|npm/.test(cmd)) return "vitest, npx";
  return "other";
};

/** pid → { ppid, ticks, kind } for every process now. */
function snapshot() {
  const now = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      now.set(Number(entry), {
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        cmd,
      });
    } catch {
      // ended while we looked
    }
  }
  return now;
}

const child = spawn(command, args, { stdio: "inherit" });
const seen = new Map(); // pid → { ticks, kind }
const ours = new Set([child.pid]);
const look = () => {
  const now = snapshot();
  // descendants of the command: walk parents until one is ours
  for (const [pid, p] of now) {
    if (ours.has(pid)) continue;
    for (let up = p.ppid, hops = 0; up > 1 && hops < 20; up = now.get(up)?.ppid ?? 0, hops++) {
      if (ours.has(up)) {
        ours.add(pid);
        break;
      }
    }
  }
  for (const pid of ours) {
    const p = now.get(pid);
    if (p) seen.set(pid, { ticks: p.ticks, kind: kindOf(p.cmd), cmd: p.cmd });
  }
};
const timer = setInterval(look, 1000);
child.on("exit", (code) => {
  clearInterval(timer);
  const kinds = new Map();
  for (const { ticks, kind } of seen.values()) {
    const k = kinds.get(kind) ?? { ticks: 0, processes: 0 };
    kinds.set(kind, { ticks: k.ticks + ticks, processes: k.processes + 1 });
  }
  const total = [...kinds.values()].reduce((a, b) => a + b.ticks, 0);
  console.error(`\nCPU by kind of process (sampled each second, ${seen.size} processes):`);
  for (const [kind, k] of [...kinds].sort((a, b) => b[1].ticks - a[1].ticks)) {
    const cpu = (k.ticks / TICKS).toFixed(1).padStart(7);
    console.error(`  ${kind.padEnd(42)} ${cpu} s  ${String(k.processes).padStart(4)} processes`);
  }
  console.error(`  ${"all".padEnd(42)} ${(total / TICKS).toFixed(1).padStart(7)} s`);
  const top = Number(process.env.PROC_CPU_TOP) || 0;
  if (top > 0) {
    const byCommand = new Map();
    for (const { ticks, cmd } of seen.values()) {
      const key = cmd.slice(0, 120);
      const c = byCommand.get(key) ?? { ticks: 0, processes: 0 };
      byCommand.set(key, { ticks: c.ticks + ticks, processes: c.processes + 1 });
    }
    console.error(`\nThe ${top} command lines that used the most CPU:`);
    for (const [cmd, c] of [...byCommand].sort((a, b) => b[1].ticks - a[1].ticks).slice(0, top)) {
      console.error(
        `  ${(c.ticks / TICKS).toFixed(1).padStart(7)} s ${String(c.processes).padStart(4)}x  ${cmd}`,
      );
    }
  }
  process.exit(code ?? 1);
});
