// Before a run: who delivers (the event source mapping, or harness pollers), empty state, and
// the worker's settings, with warm environments when they changed. Scenario phases and the load
// bench start the same way.
import type { WorkerSettings } from "../../contract/settings.js";
import type { DeployedLab } from "../aws/lab.js";
import { applyWorkerSettings, setMappingEnabledIfNeeded } from "../aws/switches.js";
import { mappingConcurrency } from "../backends/emulators.js";
import { invokeEmptyBatches } from "./empty-batches.js";
import { resetState } from "./reset.js";

export async function prepareRun(
  lab: DeployedLab,
  settings: Partial<WorkerSettings>,
  pollers: number,
): Promise<void> {
  const { conn, deployment } = lab;
  // Harness pollers and the event source mapping must not both consume the queue.
  await setMappingEnabledIfNeeded(conn, deployment.mappingId, pollers === 0);
  await resetState(conn, deployment);
  if (await applyWorkerSettings(conn, deployment.names, settings)) {
    // New settings mean new environments: start as many as will run at once now, not while the
    // copies wait (a cold start on a busy machine can outlast the visibility timeout).
    const warm = pollers > 0 ? pollers : mappingConcurrency(lab.backend);
    await invokeEmptyBatches(conn, deployment.names.functionName, warm);
  }
}
