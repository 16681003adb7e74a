// Samples /proc once a second while a command runs, and says where its CPU went, by kind of
// process: the emulator (MiniStack's Python), its function workers, vitest and its workers, the
// lab's command line, pip and other Python. A process's last sample counts (up to a second of a
// short one's CPU is missed; bench/cpu-probe.mjs counts Node processes at their exit instead).
// Linux only. Usage: node bench/proc-cpu.mjs <command> [args…]; PROC_CPU_TOP=N also lists the N
// command lines (their first 120 characters) that used the most CPU.
//
// PROC_CPU_ACCT=1 (root, and the acct package's accton and dump-acct) counts every process
// exactly instead: Linux writes each one's CPU as it ends, the short-lived and the killed ones
// too, which the samples miss or cut short. The samples then only name them; one never sampled
// (it lived less than a second) counts as "short-lived, under <its parent's kind>". It switches
// the machine's process accounting to a file of its own for the run, and off after it.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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

const accounting = process.env.PROC_CPU_ACCT ? accountingFile() : undefined;
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
    // A process that has ended but is not yet reaped has no command line: keep what it was.
    const known = seen.get(pid);
    const cmd = p?.cmd || known?.cmd || "";
    if (p) seen.set(pid, { ticks: p.ticks, kind: kindOf(cmd), cmd, ppid: p.ppid });
  }
};
const timer = setInterval(look, 1000);
child.on("exit", (code) => {
  clearInterval(timer);
  if (accounting) countExactly(accounting);
  const kinds = new Map();
  for (const { ticks, kind } of seen.values()) {
    const k = kinds.get(kind) ?? { ticks: 0, processes: 0 };
    kinds.set(kind, { ticks: k.ticks + ticks, processes: k.processes + 1 });
  }
  const total = [...kinds.values()].reduce((a, b) => a + b.ticks, 0);
  const how = accounting ? "every process, from Linux's accounting" : "sampled each second";
  console.error(`\nCPU by kind of process (${how}, ${seen.size} processes):`);
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

/** Turns process accounting on, into a file of this run's own. */
function accountingFile() {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "proc-cpu-")), "pacct");
  writeFileSync(file, "");
  try {
    execFileSync("accton", [file], { stdio: "ignore" });
    execFileSync("dump-acct", [file], { stdio: "ignore" }); // there, and reads the file
  } catch (err) {
    console.error(
      `PROC_CPU_ACCT needs root and the acct package (accton, dump-acct): ${err.message}`,
    );
    process.exit(2);
  }
  return file;
}

/**
 * Replaces each sampled process's CPU with what the accounting wrote at its end, and adds the
 * command's descendants the samples never saw, by the kind of their nearest sampled ancestor.
 */
function countExactly(file) {
  execFileSync("accton", ["off"], { stdio: "ignore" });
  const ended = new Map(); // pid → { ppid, ticks }
  const dumped = execFileSync("dump-acct", [file], { encoding: "utf8", maxBuffer: 1 << 30 });
  for (const line of dumped.split("\n")) {
    // command|version|user|system|elapsed|uid|gid|memory|io|pid|ppid|…; times in ticks
    const f = line.split("|").map((x) => x.trim());
    if (f.length < 11) continue;
    ended.set(Number(f[9]), { ppid: Number(f[10]), ticks: Number(f[2]) + Number(f[3]) });
  }
  rmSync(path.dirname(file), { recursive: true, force: true });
  const parentOf = (pid) => ended.get(pid)?.ppid ?? seen.get(pid)?.ppid ?? 0;
  const sampledAncestor = (pid) => {
    for (let up = parentOf(pid), hops = 0; up > 1 && hops < 30; up = parentOf(up), hops++) {
      if (up === child.pid || seen.has(up)) return up;
    }
    return undefined;
  };
  for (const [pid, e] of ended) {
    const known = seen.get(pid);
    if (known) {
      known.ticks = e.ticks;
      continue;
    }
    const up = pid === child.pid ? pid : sampledAncestor(pid);
    if (up === undefined) continue; // not the command's
    const parentKind = seen.get(up)?.kind ?? "the command";
    seen.set(pid, { ticks: e.ticks, kind: `short-lived, under ${parentKind}`, cmd: "" });
  }
}
