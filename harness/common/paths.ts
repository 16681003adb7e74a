import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file so commands work from any directory. */
export const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Everything the lab writes for itself: the MiniStack venv, logs, build output, state. */
export const LAB_DIR = process.env.LAB_HOME
  ? path.resolve(process.env.LAB_HOME)
  : path.join(PROJECT_ROOT, ".lab");
