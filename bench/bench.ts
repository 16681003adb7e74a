// npx lab bench: the lab's numbers, measured on this machine. Starts a backend the way the
// CLI does, deploys twice (the second must be a no-op), runs every scenario once, and prints
// how long each step took and how much memory the emulator and its function workers use.
// npx lab bench load: throughput and cost per guard under load (bench/load.ts).
import { readdirSync, readFileSync } from "node:fs";
import { DEFAULT_PREFIX } from "../contract/names.js";
import { packageWorker } from "../harness/aws/build.js";
import { connect } from "../harness/aws/connection.js";
import { deploy } from "../harness/aws/deploy.js";
import { labNames } from "../harness/aws/names.js";
import { testTimings } from "../harness/aws/timings.js";
import { undeploy } from "../harness/aws/undeploy.js";
import { chooseBackend } from "../harness/backends/choose.js";
import { quiet, say } from "../harness/common/say.js";
import { table } from "../harness/report/table.js";
import { runScenario } from "../harness/scenario/run.js";
import { SCENARIOS } from "../scenarios/index.js";

/**
 * The bench's own lab: it never redeploys a workshop lab (the default prefix) with its test
 * timings, and on an emulator that stays up (LocalStack) it removes what it made.
 */
const BENCH_NAMES = labNames(`${DEFAULT_PREFIX}-bench`);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  return [await work(), Date.now() - started];
}

/** Resident memory of a process group (MiniStack and the Node workers it runs), Linux only. */
function groupRssMb(pgid: number | undefined): string {
  if (pgid === undefined || process.platform !== "linux") return "n/a";
  let kb = 0;
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // field 5 of stat: the process group
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      kb += Number(rss?.[1] ?? 0);
    } catch {
      // the process ended while we looked
    }
  }
  return `${(kb / 1024).toFixed(0)} MB`;
}

export async function benchScenarios(): Promise<number> {
  const [backend, startMs] = await timed(() => chooseBackend(say));
  const conn = connect(backend.endpoint, { startedByLab: backend.startedByLab });
  try {
    const pkg = await packageWorker();
    // A bench stopped half-way leaves its lab behind: remove it, so the first deploy is fresh.
    for (const problem of await undeploy(conn, BENCH_NAMES)) say(problem);
    const [deployment, deployMs] = await timed(() =>
      deploy(conn, BENCH_NAMES, quiet, testTimings(backend)),
    );
    const [, redeployMs] = await timed(() =>
      deploy(conn, BENCH_NAMES, quiet, testTimings(backend)),
    );
    const rssIdle = groupRssMb(backend.pid);
    const rows: (string | number)[][] = [];
    for (const scenario of SCENARIOS) {
      const result = await runScenario(scenario, { conn, deployment, backend });
      const nudges = result.phases.reduce((n, p) => n + p.wait.lateLogNudges, 0);
      rows.push([
        scenario.name,
        result.pass ? "pass" : "FAIL",
        result.phases.length,
        seconds(result.durationMs),
        nudges,
      ]);
      say(`${scenario.name}: ${seconds(result.durationMs)}`);
    }
    const total = rows.reduce((n, r) => n + Number.parseFloat(String(r[3])), 0);
    console.log(`backend ${backend.name} ${backend.version}: ready in ${seconds(startMs)}`);
    console.log(
      `worker bundle ${(pkg.bundleBytes / 1024).toFixed(0)} KB, zip ${(pkg.zip.byteLength / 1024).toFixed(0)} KB`,
    );
    console.log(
      `deploy ${seconds(deployMs)} (fresh), ${seconds(redeployMs)} (again, nothing to change)`,
    );
    console.log(
      `emulator + workers resident: ${rssIdle} after deploy, ${groupRssMb(backend.pid)} after all scenarios`,
    );
    console.log(table(["scenario", "result", "phases", "time", "late-log nudges"], rows));
    console.log(`all scenarios one after another: ${total.toFixed(1)} s`);
  } finally {
    if (!backend.startedByLab) {
      for (const problem of await undeploy(conn, BENCH_NAMES)) say(problem);
    }
    conn.close();
    await backend.stop();
  }
  return 0;
}
