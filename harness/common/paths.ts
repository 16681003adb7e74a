import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The package's name in its package.json: how the root is told from other folders. */
const PACKAGE_NAME = "sqs-idempotency-lab";

/**
 * The folder of this package's package.json, above `from`. Walked up to, not computed as "../..":
 * the command line runs from a bundle under node_modules/.cache, where this module's own place
 * says nothing about where the project is.
 */
export function packageRootAbove(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: unknown;
      };
      if (json.name === PACKAGE_NAME) return dir;
    } catch {
      // no package.json here, or not readable: look further up
    }
    if (path.dirname(dir) === dir) {
      throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
    }
  }
}

/** The repository root, found from this file so commands work from any directory. */
export const PROJECT_ROOT = packageRootAbove(path.dirname(fileURLToPath(import.meta.url)));

/** Everything the lab writes for itself: the MiniStack venv, logs, build output, state. */
export const LAB_DIR = process.env.LAB_HOME
  ? path.resolve(process.env.LAB_HOME)
  : path.join(PROJECT_ROOT, ".lab");
