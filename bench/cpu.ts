// How busy the machine was during a load run, from /proc (Linux; elsewhere only this process):
// the emulator's own process, the processes it started (MiniStack's Node function workers, in
// its process group), this process, and the whole machine.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/** Cores kept busy over a stretch of a load run; null where /proc could not tell. */
export interface CpuUse {
  /** The emulator's own process (for MiniStack, one Python interpreter). */
  emulator: number | null;
  /** The rest of its process group: the function's workers. */
  workers: number | null;
  /** This process: sending, and watching the queue. */
  harness: number;
  /** Everything on the machine, other work included. */
  machine: number | null;
}

export interface CpuSample {
  at: number;
  /** CPU seconds so far of the emulator process, and of the rest of its group. */
  group: { leader: number; others: number } | undefined;
  harness: number;
  /** Busy and total jiffies of the whole machine. */
  machine: { busy: number; total: number } | undefined;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function groupCpuSeconds(pgid: number | undefined): CpuSample["group"] {
  if (pgid === undefined || process.platform !== "linux") return undefined;
  let leader = 0;
  let others = 0;
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // field 5: the process group
      const ticks = Number(fields[11]) + Number(fields[12]); // fields 14, 15: utime, stime
      if (Number(entry) === pgid) leader += ticks;
      else others += ticks;
    } catch {
      // the process ended while we looked
    }
  }
  return { leader: leader / TICKS_PER_SECOND, others: others / TICKS_PER_SECOND };
}

function machineJiffies(): CpuSample["machine"] {
  if (process.platform !== "linux") return undefined;
  const [, ...values] =
    readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/) ?? [];
  const n = values.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0); // idle, iowait
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export function cpuSample(pgid: number | undefined): CpuSample {
  const { user, system } = process.cpuUsage();
  return {
    at: Date.now(),
    group: groupCpuSeconds(pgid),
    harness: (user + system) / 1e6,
    machine: machineJiffies(),
  };
}

export function cpuUse(a: CpuSample, b: CpuSample): CpuUse {
  const wall = Math.max(1, b.at - a.at) / 1000;
  const cores = os.availableParallelism();
  const group = a.group && b.group ? { before: a.group, after: b.group } : undefined;
  return {
    emulator: group ? (group.after.leader - group.before.leader) / wall : null,
    // a worker that ended meanwhile takes its seconds with it: never below zero
    workers: group ? Math.max(0, group.after.others - group.before.others) / wall : null,
    harness: (b.harness - a.harness) / wall,
    machine:
      a.machine && b.machine && b.machine.total > a.machine.total
        ? ((b.machine.busy - a.machine.busy) / (b.machine.total - a.machine.total)) * cores
        : null,
  };
}
