// Before a run: who delivers (the event source mapping, or harness pollers) and how (the
// mapping's batch size, the queue's clock), empty state, and the worker's settings, with warm
// environments when they changed. Scenario phases and the load bench start the same way.
import type { WorkerSettings } from "../../contract/settings.js";
import type { DeployedLab } from "../aws/lab.js";
import {
  applyWorkerSettings,
  setMappingIfNeeded,
  setQueueVisibilityIfNeeded,
} from "../aws/switches.js";
import { phaseClocks } from "../aws/timings.js";
import { invokeEmptyBatches } from "./empty-batches.js";
import { resetState } from "./reset.js";

/** How messages reach the worker in a run. */
export interface Delivery {
  /** Which queue the run sends to: the standard one, or the FIFO one (with its own mapping). */
  queue?: "standard" | "fifo";
  /** 0: the event source mapping delivers; P > 0: P harness pollers do, to race for real. */
  pollers: number;
  /** The mapping's batch size: 1 (each copy its own invocation) unless a run says. */
  batchSize?: number;
  /**
   * The queue's visibility timeout for this run, set after the mapping exists, as a person
   * could with SetQueueAttributes (AWS checks it against the function timeout only when a
   * mapping is created or updated). Unset: the deployed value.
   */
  visibilitySeconds?: number;
  /**
   * The function timeout a run needs, when its invocations do more than the backend's default
   * allows for (ten records in one invocation, a held copy), as it needs it on MiniStack;
   * phaseClocks scales it to the backend, never below its default. Unless visibilitySeconds
   * says otherwise, the queue's clock is raised to match, as AWS requires of a mapping's queue.
   */
  functionTimeoutSeconds?: number;
}

/**
 * Returns how many environments are known warm for these settings: those it started (`warm`:
 * one per harness poller, else one for the first copy; the workload starts more as its sends
 * need them, see warmAhead), or one when the settings were already in place.
 */
export async function prepareRun(
  lab: DeployedLab,
  settings: Partial<WorkerSettings>,
  delivery: Delivery,
  warm = delivery.pollers > 0 ? delivery.pollers : 1,
): Promise<number> {
  const { conn, deployment } = lab;
  const { pollers, batchSize = 1 } = delivery;
  // Harness pollers and the event source mapping must not both consume the queue.
  await setMappingIfNeeded(conn, deployment.mappingId, { enabled: pollers === 0, batchSize });
  const clocks = phaseClocks(lab.backend, delivery);
  const timeout = clocks.functionTimeoutSeconds;
  await setQueueVisibilityIfNeeded(conn, deployment.queueUrl, clocks.visibilityTimeoutSeconds);
  await resetState(conn, deployment);
  if (!(await applyWorkerSettings(conn, deployment.names, settings, timeout))) return 1;
  // New settings mean new environments: start them now, not while the copies wait (a cold
  // start on a busy machine can outlast the visibility timeout).
  await invokeEmptyBatches(conn, deployment.names.functionName, warm);
  return warm;
}
