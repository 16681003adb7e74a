// The function's environment as the harness writes it: the worker's settings (through the
// contract both sides use) and the names of the tables it writes.
import type { LabNames } from "../../contract/names.js";
import {
  isGuardFileName,
  settingsToEnv,
  tablesToEnv,
  type WorkerSettings,
} from "../../contract/settings.js";

export function workerEnvironment(
  names: LabNames,
  settings: Partial<WorkerSettings>,
): Record<string, string> {
  return {
    ...tablesToEnv(names),
    ...settingsToEnv(settings),
    // MiniStack runs the function on the host's Node 20, where the SDK prints a multi-line
    // "upgrade to Node 22" warning into the function's logs at every cold start.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    // A guard file's bundle carries a source map: an error it throws names the file's own line.
    ...(settings.guard && isGuardFileName(settings.guard)
      ? { NODE_OPTIONS: "--enable-source-maps" }
      : {}),
  };
}
