// The load bench's output: one table of what each guard did and cost, one of what limited it,
// and the machine it ran on.
import os from "node:os";
import type { DeployedLab } from "../harness/aws/lab.js";
import { mappingConcurrency } from "../harness/backends/emulators.js";
import { table } from "../harness/report/table.js";
import { type Cost, DEFAULT_SEED, type GuardLoad, type LoadOptions } from "./load-stats.js";

const fixed = (n: number | undefined, digits = 0) => (n === undefined ? "—" : n.toFixed(digits));
const times = (r: number | null) => (r === null ? "—" : `${r.toFixed(2)}×`);
const calls = (c: Cost | undefined) => (c ? `${c.mean.toFixed(2)} (max ${c.max})` : "—");

export function machine() {
  const cpus = os.cpus();
  return {
    cores: os.availableParallelism(),
    cpu: cpus[0]?.model.trim() ?? "unknown",
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

export function textLoad(lab: DeployedLab, options: LoadOptions, results: GuardLoad[]): string {
  const m = machine();
  const perGuard = options.orders * options.copies;
  const main = table(
    [
      "guard",
      "messages",
      "charged once",
      "twice+",
      "never",
      "msg/s",
      "p50 ms",
      "p99 ms",
      "DynamoDB calls / winner",
      "/ duplicate",
      "vs off",
      "vs powertools",
    ],
    results.map((r) => [
      r.guard,
      r.messages,
      r.once,
      r.twiceOrMore,
      r.never,
      fixed(r.throughput, 1),
      fixed(r.p50Ms),
      fixed(r.p99Ms),
      calls(r.calls.winner),
      calls(r.calls.duplicate),
      times(r.vsOff),
      times(r.vsPowertools),
    ]),
  );
  const time = table(
    [
      "guard",
      "first start → last end",
      "msg/s, first deliveries",
      "invocations at once: mean",
      "max",
      "failed deliveries",
      "dead-lettered",
      "not ended",
      "CPU cores: emulator",
      "its workers",
      "harness",
      "machine",
    ],
    results.map((r) => [
      r.guard,
      `${(r.windowMs / 1000).toFixed(1)} s`,
      fixed(r.firstDeliveries.throughput, 1),
      r.concurrency.mean.toFixed(2),
      r.concurrency.max,
      r.failedDeliveries,
      r.deadLettered,
      r.notEnded,
      fixed(r.cpu.emulator ?? undefined, 2),
      fixed(r.cpu.workers ?? undefined, 2),
      r.cpu.harness.toFixed(2),
      fixed(r.cpu.machine ?? undefined, 2),
    ]),
  );
  return [
    `backend ${lab.backend.name} ${lab.backend.version} at ${lab.backend.endpoint}`,
    `machine: ${m.cores} cores (${m.cpu}), ${m.memoryGb} GB, Node ${m.node}, ${m.platform}`,
    `load: ${options.orders} orders × ${options.copies} copies = ${perGuard} messages per guard, shuffled (seed ${options.seed ?? DEFAULT_SEED}), SendMessageBatch of 10, delivered by the event source mapping (batch size 1, up to ${mappingConcurrency(lab.backend)} at once), WORK_MS 0`,
    main,
    "DynamoDB calls per message, summed over its deliveries, mean (max); winner = charged, duplicate = skipped",
    "",
    time,
    `CPU: cores kept busy from the first send until every message had been received once (of ${m.cores}); "machine" includes any other work running`,
  ].join("\n");
}
