// npx lab bench load: many orders, several copies each, through the event source mapping, once
// per guard on one lab. For each guard: did every order charge exactly once, how many messages a
// second went through, how long one took (p50/p99), and what each cost in DynamoDB calls.
import type { GuardName } from "../contract/settings.js";
import type { DeployedLab } from "../harness/aws/lab.js";
import { mappingConcurrency, profileOf } from "../harness/backends/emulators.js";
import { talkingTo } from "../harness/common/errors.js";
import { cleanUpOnInterrupt } from "../harness/common/interrupt.js";
import { quiet, say } from "../harness/common/say.js";
import { sleep } from "../harness/common/sleep.js";
import { prepareRun } from "../harness/drive/prepare.js";
import { sendBatches } from "../harness/drive/send.js";
import { shipLateLogs } from "../harness/observe/late-logs.js";
import { queueDepth, readLedger, waitUntilEnded } from "../harness/observe/observe.js";
import { type OwnedLab, openLab } from "../harness/scenario/open-lab.js";
import { type CpuUse, cpuSample, cpuUse } from "./cpu.js";
import { machine, textLoad } from "./load-report.js";
import {
  DEFAULT_SEED,
  exactlyOnce,
  type GuardLoad,
  type LoadArgs,
  type LoadOptions,
  loadMessages,
  loadStats,
  loadTimeoutMs,
  ratio,
} from "./load-stats.js";

const secs = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

/** Every guard in turn on one lab; each starts from empty queues and tables. */
export async function runLoad(lab: DeployedLab, options: LoadOptions): Promise<GuardLoad[]> {
  const results: Omit<GuardLoad, "vsOff" | "vsPowertools">[] = [];
  // Each guard reads log lines from after the guard before's last: fewer lines to read.
  let after = 0;
  for (const guard of options.guards) {
    const result = await talkingTo(lab.backend.endpoint, `load with guard ${guard}`, () =>
      loadOneGuard(lab, guard, options, after),
    );
    results.push(result.load);
    after = result.lastEventMs;
  }
  const throughputOf = (guard: GuardName) => results.find((r) => r.guard === guard)?.throughput;
  return results.map((r) => ({
    ...r,
    vsOff: ratio(r.throughput, throughputOf("off")) ?? null,
    vsPowertools: ratio(r.throughput, throughputOf("powertools")) ?? null,
  }));
}

async function loadOneGuard(
  lab: DeployedLab,
  guard: GuardName,
  options: LoadOptions,
  after: number,
): Promise<{ load: Omit<GuardLoad, "vsOff" | "vsPowertools">; lastEventMs: number }> {
  const tell = options.say ?? quiet;
  const { conn, deployment, backend } = lab;
  const { functionName } = deployment.names;
  // As a scenario phase starts: the mapping delivers, state is empty, and as many environments
  // are warm as the mapping runs at once (the load keeps them all busy).
  await prepareRun(lab, { guard, workMs: 0 }, { pollers: 0 }, mappingConcurrency(backend));

  const messages = loadMessages(options.orders, options.copies, options.seed ?? DEFAULT_SEED);
  const timeoutMs = loadTimeoutMs(messages.length);
  // Log timestamps can trail the clock a little, but the guard before's lines must stay out.
  const sinceMs = Math.max(Date.now() - 5_000, after + 1);
  const cpuBefore = cpuSample(options.emulatorPid);
  const started = Date.now();
  const deadline = started + timeoutMs;
  tell(`load · ${guard}: sending ${messages.length} messages (timeout ${secs(timeoutMs)})`);
  const sent = await sendBatches(conn, deployment.queueUrl, messages);
  const sendMs = Date.now() - started;

  // Reading every log line again and again would compete with the worker for the CPU, so the
  // cheap queue depth is watched until the queue is empty; the log lines are read after.
  let said = Date.now();
  // CPU is measured over the first pass, until every message has been received once: after
  // that only retries wait out their visibility timeout, and the machine idles.
  let cpu: CpuUse | undefined;
  for (;;) {
    const { visible, inFlight } = await queueDepth(conn, deployment.queueUrl);
    if (visible === 0) cpu ??= cpuUse(cpuBefore, cpuSample(options.emulatorPid));
    if (visible + inFlight === 0 || Date.now() >= deadline) break;
    if (Date.now() - said >= 5_000) {
      const done = sent.length - visible - inFlight;
      tell(
        `load · ${guard}: ${done}/${sent.length} off the queue, ${visible} waiting, ${inFlight} in flight (${secs(Date.now() - started)})`,
      );
      said = Date.now();
    }
    await sleep(500);
  }
  cpu ??= cpuUse(cpuBefore, cpuSample(options.emulatorPid));
  const waited = await waitUntilEnded(conn, deployment, sent, {
    sinceMs,
    timeoutMs: Math.max(15_000, deadline - Date.now()),
    ...(profileOf(backend).lateLogs
      ? { shipLateLogs: () => shipLateLogs(conn, functionName) }
      : {}),
    onProgress: (ended, total) => {
      if (Date.now() - said < 5_000) return;
      tell(`load · ${guard}: ${ended}/${total} ended in the log lines`);
      said = Date.now();
    },
  });
  const waitMs = Date.now() - started;
  if (waited.missing.length > 0)
    tell(
      `load · ${guard}: ${waited.missing.length} message(s) had not ended after ${secs(waitMs)}`,
    );

  const orderIds = new Set(messages.map((m) => m.intendedOrderId));
  const ledger = (await readLedger(conn, deployment.names.ledgerTable)).filter((item) =>
    orderIds.has(item.orderId),
  );
  const result = {
    guard,
    orders: orderIds.size,
    messages: sent.length,
    charges: ledger.length,
    ...exactlyOnce([...orderIds], ledger),
    ...loadStats(waited.events, sent.length),
    deadLettered: waited.deadLettered.size,
    notEnded: waited.missing.length,
    sendMs,
    cpu,
    waitMs,
  };
  tell(
    `load · ${guard}: ${result.throughput.toFixed(1)} msg/s, charged once ${result.once}, twice+ ${result.twiceOrMore}, never ${result.never} (${secs(waitMs)})`,
  );
  const lastEventMs = Math.max(after, ...waited.events.map((e) => Date.parse(e.ts)));
  return { load: result, lastEventMs };
}

/** `npx lab bench load [options]`: 0 when every message of every guard ended, else 1. */
export async function benchLoad(args: LoadArgs): Promise<number> {
  // Before anything starts: an interrupt while MiniStack starts or the lab deploys stops it too.
  let opened: OwnedLab | undefined;
  cleanUpOnInterrupt(say, "stopping the backend", async () => opened?.close());
  const lab = await openLab(say);
  opened = lab;
  try {
    const options: LoadOptions = { ...args, seed: DEFAULT_SEED, say, emulatorPid: lab.pid };
    const results = await runLoad(lab, options);
    if (args.json) {
      const { orders, copies, seed } = options;
      const out = { backend: lab.backend, machine: machine(), orders, copies, seed, results };
      console.log(JSON.stringify(out, null, 2));
    } else console.log(textLoad(lab, options, results));
    return results.every((r) => r.notEnded === 0) ? 0 : 1;
  } finally {
    await lab.close();
  }
}
