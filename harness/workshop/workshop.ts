// The workshop's steps (`npx lab <command>`), as functions the CLI prints.
import { readFileSync } from "node:fs";
import {
  type GuardChoice,
  type GuardName,
  isGuardFileName,
  type WorkerSettings,
} from "../../contract/settings.js";
import { connect } from "../aws/connection.js";
import { deploy } from "../aws/deploy.js";
import { type GuardFile, guardFileAt } from "../aws/guard-file.js";
import type { DeployedLab } from "../aws/lab.js";
import { locateDeployment } from "../aws/locate.js";
import { DEFAULT_PREFIX, labNames } from "../aws/names.js";
import { readWorkerSettings, setWorkerSettings } from "../aws/switches.js";
import { WORKSHOP_TIMINGS } from "../aws/timings.js";
import { chooseBackend } from "../backends/choose.js";
import { profileOf } from "../backends/emulators.js";
import { KNOWN_EMULATOR_MS, probeHealth } from "../backends/health.js";
import { removeMiniStackTemp, stopMiniStackByPid } from "../backends/ministack.js";
import { isLoopback } from "../backends/this-machine.js";
import { gatherPhaseFacts } from "../check/gather.js";
import { LabError, talkingTo, UsageError } from "../common/errors.js";
import type { Say } from "../common/say.js";
import { resetState } from "../drive/reset.js";
import type { SentMessage } from "../drive/send.js";
import { unfinished } from "../observe/deliveries.js";
import type { WorkerEvent } from "../observe/events.js";
import { shipLateLogs } from "../observe/late-logs.js";
import { deadLetterIds, readEvents, waitUntilEnded } from "../observe/observe.js";
import { observationView, type ReportView } from "../report/views.js";
import { clearState, readState, type SavedLab, type SendRecord, writeState } from "./lab-state.js";

/** The lab `up` started, found again by a later command: the saved state, connected. */
export interface WorkshopLab extends DeployedLab {
  state: SavedLab;
}

/** What `up` deploys: the article's first step, the guard off, with a second of work to watch. */
export const UP_SETTINGS: Partial<WorkerSettings> = { guard: "off", workMs: 1000 };

/** Starts (or finds) an emulator, deploys the lab, and remembers it for the other commands. */
export async function labUp(say: Say): Promise<{ state: SavedLab; fresh: boolean }> {
  const existing = readState();
  if (existing && (await probeHealth(existing.backend.endpoint, KNOWN_EMULATOR_MS))) {
    return { state: existing, fresh: false };
  }
  // The same choice as every other command, but for an emulator that stays up after this one.
  const backend = await chooseBackend(say, { lasting: true });
  const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
  const conn = connect(backend.endpoint);
  try {
    await talkingTo(backend.endpoint, "deploying the lab", async () => {
      const deployment = await deploy(conn, labNames(prefix), say, WORKSHOP_TIMINGS, {
        env: UP_SETTINGS,
      });
      // An emulator that outlives a lab (docker compose) keeps the last session's claims and
      // charges; a new session starts from empty queues and tables, as the workshop assumes.
      await resetState(conn, deployment);
    });
  } finally {
    conn.close();
  }
  const state: SavedLab = {
    backend: {
      name: backend.name,
      emulator: backend.emulator,
      version: backend.version,
      endpoint: backend.endpoint,
      pid: backend.pid,
    },
    prefix,
    upAt: Date.now(),
    sends: [],
  };
  writeState(state);
  return { state, fresh: true };
}

/**
 * Empties the lab `up` deployed (its three tables and both queues) and forgets its sends, so a
 * workshop can start an experiment again (insights and logs read from then on). Only against an
 * emulator on this machine's loopback: a reset deletes, and a stray endpoint must not.
 */
export async function resetLab(open: WorkshopLab): Promise<Record<string, number>> {
  const { endpoint } = open.backend;
  if (!isLoopback(new URL(endpoint).hostname)) {
    throw new UsageError(
      `reset deletes the lab's items and messages, so it runs only against an emulator on localhost or 127.0.0.1; ${endpoint} is not`,
    );
  }
  const emptied = await resetState(open.conn, open.deployment);
  writeState({ ...open.state, sends: [], resetAt: Date.now() });
  return emptied;
}

/** Stops the emulator if `lab up` started it; an emulator the user runs is left alone. */
export async function labDown(): Promise<string> {
  const state = readState();
  if (!state) return "no lab is up";
  clearState();
  if (state.backend.pid !== undefined) {
    // Only the process that still answers as our MiniStack: after a reboot the pid may be another's.
    const health = await probeHealth(state.backend.endpoint, KNOWN_EMULATOR_MS);
    const port = Number(new URL(state.backend.endpoint).port);
    if (health?.product !== "ministack" || !isOurMiniStack(state.backend.pid)) {
      if (health === undefined) removeMiniStackTemp(port); // nothing answers there any more
      return `MiniStack at ${state.backend.endpoint} was already gone; forgot it`;
    }
    await stopMiniStackByPid(state.backend.pid, port);
    return `stopped MiniStack (pid ${state.backend.pid}) at ${state.backend.endpoint}`;
  }
  return `forgot the emulator at ${state.backend.endpoint}; it is yours, so it keeps running`;
}

/** On Linux, check the pid's command line; elsewhere the health check above has to do. */
function isOurMiniStack(pid: number): boolean {
  if (process.platform !== "linux") return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("ministack");
  } catch {
    return false;
  }
}

/** The lab that `up` started, connected, or a clear error saying what to do. */
export async function openWorkshopLab(): Promise<WorkshopLab> {
  const state = readState();
  if (!state) throw new LabError('no lab is up: run "npx lab up" first');
  if (!(await probeHealth(state.backend.endpoint, KNOWN_EMULATOR_MS))) {
    throw new LabError(
      `the lab's emulator at ${state.backend.endpoint} does not answer (stopped, or the machine restarted): run "npx lab down" then "npx lab up"`,
    );
  }
  const conn = connect(state.backend.endpoint);
  try {
    const deployment = await talkingTo(state.backend.endpoint, "finding the lab", () =>
      locateDeployment(conn, labNames(state.prefix)),
    );
    return { state, backend: state.backend, conn, deployment };
  } catch (err) {
    conn.close();
    throw err;
  }
}

export async function redeploy(open: WorkshopLab, say: Say): Promise<void> {
  const names = labNames(open.state.prefix);
  const env = await readWorkerSettings(open.conn, names);
  await deploy(open.conn, names, say, WORKSHOP_TIMINGS, {
    env,
    ...guardFileKept(open.state, env.guard),
  });
}

/**
 * The guard file a redeploy bundles again (edits included), when the lab runs one; the lab's
 * own guards are in every bundle, so they need none.
 */
function guardFileKept(state: SavedLab, guard: GuardChoice): { guardFile?: GuardFile } {
  if (!isGuardFileName(guard)) return state.guardFile ? { guardFile: state.guardFile } : {};
  if (state.guardFile?.name === guard) return { guardFile: guardFileAt(state.guardFile.path) };
  throw new LabError(
    `the lab runs the guard file ${guard}, and this machine does not know where it is: run "npx lab guard ./path/${guard}"`,
  );
}

/**
 * `lab guard ./my-guard.ts`: the file type-checked, bundled into the worker and deployed, and
 * GUARD set to its name, in one update; remembered, so `lab deploy` bundles it again.
 */
export async function plugInGuardFile(
  open: WorkshopLab,
  file: GuardFile,
  say: Say,
  workMs?: number,
) {
  const names = labNames(open.state.prefix);
  const current = await readWorkerSettings(open.conn, names);
  const started = Date.now();
  const env = { ...current, guard: file.name, ...(workMs === undefined ? {} : { workMs }) };
  await deploy(open.conn, names, say, WORKSHOP_TIMINGS, { env, guardFile: file });
  open.state.guardFile = file;
  writeState(open.state);
  return { ms: Date.now() - started, workMs: env.workMs };
}

/** The article's set-idempotency.ps1, generalised: 0/1 as the original switch, or a guard name. */
export async function switchGuard(open: WorkshopLab, guard: GuardName, workMs?: number) {
  const names = labNames(open.state.prefix);
  const current = await readWorkerSettings(open.conn, names);
  const started = Date.now();
  await setWorkerSettings(open.conn, names, {
    ...current,
    guard,
    ...(workMs === undefined ? {} : { workMs }),
  });
  return { ms: Date.now() - started, workMs: workMs ?? current.workMs };
}

/** `at`: when the send began, before its first message (lab-state.ts says why). */
export function rememberSend(open: WorkshopLab, sent: SentMessage[], at: number): SendRecord {
  const record: SendRecord = { at, messages: sent };
  open.state.sends.push(record);
  writeState(open.state);
  return record;
}

export async function waitForSend(open: WorkshopLab, record: SendRecord, say: Say) {
  let last = -1;
  return waitUntilEnded(open.conn, open.deployment, record.messages, {
    sinceMs: record.at - 5_000,
    timeoutMs: 120_000,
    ...(profileOf(open.state.backend).lateLogs
      ? { shipLateLogs: () => shipLateLogs(open.conn, open.deployment.names.functionName) }
      : {}),
    onProgress: (ended, total) => {
      if (ended !== last) say(`  ${ended}/${total} messages ended`);
      last = ended;
    },
  });
}

/** Events of the last send (default), or of every send since `up`. */
export async function sendEvents(open: WorkshopLab, all: boolean): Promise<WorkerEvent[]> {
  const sends = labSends(open, all ? "all" : "last");
  const ids = new Set(sends.flatMap((s) => s.messages.map((m) => m.messageId)));
  const since = Math.min(...sends.map((s) => s.at)) - 5_000;
  return readEvents(open.conn, open.deployment.names.logGroup, since, ids);
}

/** Which of the lab's own sends to keep: the last `lab send`, or every one since `up`. */
export type SendsFilter = "last" | "all";

/** A stretch of the log group, by the log's timestamps (epoch ms, both ends included). */
export interface EventWindow {
  sinceMs: number;
  untilMs: number;
  /** Only the messages of the lab's own sends; without it, every message, whoever sent it. */
  sends?: SendsFilter;
}

/**
 * The worker's events in a window of the whole log group, as Logs Insights reads it: messages
 * sent by anyone (the AWS CLI, boto3, `lab send`), unless `sends` keeps only the lab's own.
 */
export async function windowEvents(open: WorkshopLab, window: EventWindow): Promise<WorkerEvent[]> {
  const ids = window.sends ? sentIds(open, window.sends) : "all";
  return readEvents(open.conn, open.deployment.names.logGroup, window.sinceMs, ids, window.untilMs);
}

/** The MessageIds of the lab's own sends. */
function sentIds(open: WorkshopLab, which: SendsFilter): Set<string> {
  return new Set(labSends(open, which).flatMap((s) => s.messages.map((m) => m.messageId)));
}

/** The last `lab send`, or every one since `up`; none yet is one line saying what to send. */
function labSends(open: WorkshopLab, which: SendsFilter): SendRecord[] {
  const sends = which === "all" ? open.state.sends : open.state.sends.slice(-1);
  if (sends.length === 0)
    throw new LabError('nothing sent yet: try "npx lab send --order-id ORDER-003 --copies 10"');
  return sends;
}

/**
 * Every event for one orderId (as the worker saw it) since `up` or `reset`, from every message in
 * the log group: copies sent with the AWS CLI belong to the order as much as `lab send`'s.
 */
export async function orderEvents(open: WorkshopLab, orderId: string): Promise<WorkerEvent[]> {
  const sinceMs = open.state.resetAt ?? open.state.upAt; // as experimentStart (lab-state.ts)
  const events = await windowEvents(open, { sinceMs, untilMs: Date.now() });
  return events.filter((e) => e.orderId === orderId);
}

/**
 * The last send as a report view, for the same reports the scenarios write. One phase with no
 * verdict and no checks: nobody said what to expect of a send, so it neither passed nor failed.
 */
export async function lastSendReport(open: WorkshopLab): Promise<ReportView> {
  const record = open.state.sends.at(-1);
  if (!record)
    throw new LabError('nothing sent yet: try "npx lab send --order-id ORDER-003 --copies 10"');
  const { conn, deployment } = open;
  const events = await sendEvents(open, false);
  const deadLettered = await deadLetterIds(conn, deployment.dlqUrl);
  const facts = await gatherPhaseFacts(conn, deployment, record.messages, events, deadLettered);
  const env = await readWorkerSettings(conn, deployment.names);
  const send = observationView(
    {
      name: `send of ${new Date(record.at).toISOString()}`,
      // What the worker runs with now; a send from this command uses no pollers.
      setup: { ...env, pollers: 0 },
      sent: facts.sent,
      observed: facts.observed,
      missing: unfinished(record.messages, events, deadLettered),
      timeline: events,
    },
    1,
    1,
  );
  return {
    scenario: "lab",
    title: "The last send",
    story: "What the worker did with the messages of the last `npx lab send`.",
    backend: open.state.backend,
    phases: [send],
  };
}
