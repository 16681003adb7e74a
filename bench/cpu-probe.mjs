// Loaded into every Node process of a measured test run (NODE_OPTIONS="--import <this file>",
// with SUITE_CPU_LOG naming a file): at exit each process appends one JSON line with what it
// was, its own CPU and that of the children it waited for (from /proc, Linux). bench/suite-cpu.mjs
// sums the lines by kind of process. It changes nothing else in the process.
import { appendFileSync, readFileSync } from "node:fs";

const log = process.env.SUITE_CPU_LOG;
const started = Date.now();
const TICKS = 100; // USER_HZ

function reapedChildrenSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / TICKS; // fields 16, 17: cutime, cstime
  } catch {
    return 0;
  }
}

if (log) {
  process.on("exit", (code) => {
    const { user, system } = process.cpuUsage();
    const line = {
      pid: process.pid,
      ppid: process.ppid,
      argv: process.argv.slice(1, 4),
      execArgv: process.execArgv.filter((a) => !a.includes("cpu-probe")),
      selfCpu: (user + system) / 1e6,
      childrenCpu: reapedChildrenSeconds(),
      wallMs: Date.now() - started,
      code,
    };
    try {
      appendFileSync(log, `${JSON.stringify(line)}\n`);
    } catch {
      // a measurement must never change how a process ends
    }
  });
}
