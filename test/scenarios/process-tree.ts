// What runs on this machine, read from /proc (Linux), for the interrupt test: which processes a
// command started (its tree, its MiniStack's process group, anything working in that MiniStack's
// temp folder), so the test can say none is left, and touch no process it did not start.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  /** R, S, D, Z (a zombie: ended, not yet reaped), … */
  state: string;
  /** Clock ticks after boot: a pid used again by a later process has another. */
  startTime: number;
  cmdline: string;
  /** The folder it works in; empty when it cannot be read (ended meanwhile). */
  cwd: string;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command's name, in parentheses, may hold spaces and parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    let cwd = "";
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {}
    return {
      pid,
      state: fields[0] ?? "",
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      startTime: Number(fields[19]),
      cmdline,
      cwd,
    };
  } catch {
    return undefined; // ended while we looked
  }
}

/** This user's processes that have not ended (zombies have: only their parent's reaping is left). */
export function liveProcesses(): Proc[] {
  const uid = process.getuid?.();
  const procs: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const proc = readProc(pid);
    if (!proc || proc.state === "Z") continue;
    try {
      if (
        uid !== undefined &&
        readFileSync(`/proc/${pid}/status`, "utf8").match(/^Uid:\s+(\d+)/m)?.[1] !== String(uid)
      )
        continue;
    } catch {
      continue;
    }
    procs.push(proc);
  }
  return procs;
}

/** The processes under `pid` (itself included), following parent links. */
export function treeOf(pid: number, procs: Proc[] = liveProcesses()): Proc[] {
  const found = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const proc of procs)
      if (!found.has(proc.pid) && found.has(proc.ppid)) {
        found.add(proc.pid);
        grew = true;
      }
  }
  return procs.filter((proc) => found.has(proc.pid));
}

/**
 * What a MiniStack left, found three ways so a process that changed parent (its parent gone) or
 * group is still seen: its process group, its temp folder in the command line or as the folder
 * it works in (a Lambda worker unpacks and runs there), or a process seen before that runs still.
 */
export function leftBehind(
  ministackPid: number | undefined,
  tempDir: string,
  seen: Proc[],
): Proc[] {
  const procs = liveProcesses();
  return procs.filter(
    (proc) =>
      proc.pgid === ministackPid ||
      proc.cmdline.includes(tempDir) ||
      proc.cwd.startsWith(tempDir) ||
      seen.some((s) => s.pid === proc.pid && s.startTime === proc.startTime),
  );
}

/**
 * The MiniStacks started for this port that still listen on it: a server left behind that the
 * process checks missed. Read from /proc/net/tcp and tcp6 (listening sockets on the port), their
 * owners from /proc/PID/fd, kept when the owner was started with GATEWAY_PORT=<port>. Another
 * program's listener that took the freed port (the side-by-side cases' MiniStacks and workers
 * bind ports of their own) is not this run's.
 */
export function ministacksListeningOn(port: number): number[] {
  const LISTEN = "0A";
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const row of text.split("\n").slice(1)) {
      const fields = row.trim().split(/\s+/);
      const [, local, , state] = fields;
      const inode = fields[9];
      if (state === LISTEN && inode && Number.parseInt(local?.split(":")[1] ?? "", 16) === port)
        inodes.add(inode);
    }
  }
  if (inodes.size === 0) return [];
  return liveProcesses()
    .filter((proc) => holdsSocket(proc.pid, inodes) && startedFor(proc.pid, port))
    .map((proc) => proc.pid);
}

function holdsSocket(pid: number, inodes: Set<string>): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        return target.startsWith("socket:[") && inodes.has(target.slice(8, -1));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

function startedFor(pid: number, port: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .includes(`GATEWAY_PORT=${port}`);
  } catch {
    return false;
  }
}
