// The lab's switches, flipped without a redeploy: the worker's settings (the function's
// environment) and whether the event source mapping delivers.
import {
  GetEventSourceMappingCommand,
  GetFunctionConfigurationCommand,
  UpdateEventSourceMappingCommand,
  UpdateFunctionConfigurationCommand,
  waitUntilFunctionUpdatedV2,
} from "@aws-sdk/client-lambda";
import { GetQueueAttributesCommand, SetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import type { LabNames } from "../../contract/names.js";
import { settingsFromEnv, type WorkerSettings } from "../../contract/settings.js";
import { LabError } from "../common/errors.js";
import { sleep } from "../common/sleep.js";
import type { Connection } from "./connection.js";
import { WAIT } from "./timings.js";
import { workerEnvironment } from "./worker-env.js";

/**
 * The article's set-idempotency.ps1: change the worker's environment without a redeploy, and
 * its timeout if one is given.
 */
export async function setWorkerSettings(
  conn: Connection,
  names: LabNames,
  settings: Partial<WorkerSettings>,
  timeoutSeconds?: number,
): Promise<void> {
  await conn.lambda.send(
    new UpdateFunctionConfigurationCommand({
      FunctionName: names.functionName,
      Environment: { Variables: workerEnvironment(names, settings) },
      Timeout: timeoutSeconds,
    }),
  );
  await waitUntilFunctionUpdatedV2(
    { client: conn.lambda, ...WAIT },
    { FunctionName: names.functionName },
  );
}

/** Turns the event source mapping on or off, and waits until the emulator says it is. */
export async function setMappingEnabled(
  conn: Connection,
  mappingId: string,
  enabled: boolean,
): Promise<void> {
  await conn.lambda.send(
    new UpdateEventSourceMappingCommand({ UUID: mappingId, Enabled: enabled }),
  );
  await waitForMappingState(conn, mappingId, enabled ? "Enabled" : "Disabled");
}

/**
 * Stops the mappings delivering, and waits until they have; one already off costs one read. An
 * enabled mapping polls its queue even while nothing is sent: on LocalStack, 56 idle mappings
 * (a test run's lanes) kept its process at 44% of a core, and at 0% once they were off.
 */
export async function stopDelivering(conn: Connection, mappingIds: string[]): Promise<void> {
  await Promise.all(
    mappingIds.map(async (mappingId) => {
      const { State } = await conn.lambda.send(
        new GetEventSourceMappingCommand({ UUID: mappingId }),
      );
      if (State !== "Disabled") await setMappingEnabled(conn, mappingId, false);
    }),
  );
}

export async function waitForMappingState(
  conn: Connection,
  mappingId: string,
  state: string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  let seen: string | undefined;
  while (Date.now() < deadline) {
    ({ State: seen } = await conn.lambda.send(
      new GetEventSourceMappingCommand({ UUID: mappingId }),
    ));
    if (seen === state) return;
    await sleep(200);
  }
  throw new LabError(
    `event source mapping ${mappingId} stayed ${seen} instead of ${state} for 30 s`,
  );
}

/** The worker's current settings, read back from the function's environment. */
export async function readWorkerSettings(
  conn: Connection,
  names: LabNames,
): Promise<WorkerSettings> {
  const { Environment } = await conn.lambda.send(
    new GetFunctionConfigurationCommand({ FunctionName: names.functionName }),
  );
  return settingsFromEnv(Environment?.Variables ?? {});
}

/**
 * Applies settings and the function timeout only where they differ; true when they did (which
 * restarts every environment).
 */
export async function applyWorkerSettings(
  conn: Connection,
  names: LabNames,
  settings: Partial<WorkerSettings>,
  timeoutSeconds: number,
): Promise<boolean> {
  const wanted = workerEnvironment(names, settings);
  const { Environment, Timeout } = await conn.lambda.send(
    new GetFunctionConfigurationCommand({ FunctionName: names.functionName }),
  );
  const current = Environment?.Variables ?? {};
  const same =
    Timeout === timeoutSeconds &&
    Object.keys(wanted).length === Object.keys(current).length &&
    Object.entries(wanted).every(([k, v]) => current[k] === v);
  if (!same) await setWorkerSettings(conn, names, settings, timeoutSeconds);
  return !same;
}

/** What a run needs of the event source mapping: whether it delivers, and how many at once. */
export interface MappingWanted {
  enabled: boolean;
  batchSize: number;
}

/**
 * Brings the mapping to `wanted` with one read and at most one update (Enabled and BatchSize
 * together when both differ; AWS, MiniStack and LocalStack take both in one call). When it was
 * turned on or off, waits until the emulator says it is; a new batch size is used from the next
 * poll.
 */
export async function setMappingIfNeeded(
  conn: Connection,
  mappingId: string,
  wanted: MappingWanted,
): Promise<void> {
  const { State, BatchSize } = await conn.lambda.send(
    new GetEventSourceMappingCommand({ UUID: mappingId }),
  );
  const flip = (State === "Enabled") !== wanted.enabled;
  const resize = BatchSize !== wanted.batchSize;
  if (!flip && !resize) return;
  await conn.lambda.send(
    new UpdateEventSourceMappingCommand({
      UUID: mappingId,
      ...(flip ? { Enabled: wanted.enabled } : {}),
      ...(resize ? { BatchSize: wanted.batchSize } : {}),
    }),
  );
  if (flip) await waitForMappingState(conn, mappingId, wanted.enabled ? "Enabled" : "Disabled");
}

/** Sets the queue's visibility timeout unless it already is; the next receive uses it. */
export async function setQueueVisibilityIfNeeded(
  conn: Connection,
  queueUrl: string,
  seconds: number,
): Promise<void> {
  const { Attributes } = await conn.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["VisibilityTimeout"] }),
  );
  if (Attributes?.VisibilityTimeout === String(seconds)) return;
  await conn.sqs.send(
    new SetQueueAttributesCommand({
      QueueUrl: queueUrl,
      Attributes: { VisibilityTimeout: String(seconds) },
    }),
  );
}
