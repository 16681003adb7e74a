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
import { LabError, talkingTo, UsageError } from "../common/errors.js";
import type { Say } from "../common/say.js";
import { resetState } from "../drive/reset.js";
import type { SentMessage } from "../drive/send.js";
import { shipLateLogs } from "../observe/late-logs.js";
import { waitUntilEnded } from "../observe/observe.js";
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
  backend.keep?.();
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
