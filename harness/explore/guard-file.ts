// A guard file's guard in this process, for the explorer (npx lab explore --guard-file, and
// npx lab grade): type-checked as the worker's bundle is, bundled on its own (its npm imports
// left to Node, which finds them in the project), and imported.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type BuildFailure, build } from "esbuild";
import type { Guard } from "../../worker/guards/guard.js";
import {
  buildErrorLine,
  type GuardFile,
  resolveGuardApi,
  typeCheckGuardFile,
} from "../aws/guard-file.js";
import { UsageError } from "../common/errors.js";
import { PROJECT_ROOT } from "../common/paths.js";

/**
 * Where the bundles go: inside the project's node_modules (its .cache, where tools keep theirs),
 * so their npm imports resolve from it. Not under LAB_HOME, which may be anywhere: the guide
 * check's, in the system's temp folder, found no @aws-sdk to import.
 */
export const GUARD_FILE_BUNDLES = path.join(
  PROJECT_ROOT,
  "node_modules",
  ".cache",
  "sqs-idempotency-lab",
  "guard-files",
);

const loaded = new Map<string, Promise<Guard>>();

/** The file's default export, checked to be a function; once per file and process. */
export function loadGuardFile(file: GuardFile): Promise<Guard> {
  let guard = loaded.get(file.path);
  if (!guard) {
    guard = load(file);
    loaded.set(file.path, guard);
  }
  return guard;
}

async function load(file: GuardFile): Promise<Guard> {
  // A guard file may build an SDK client when it loads, before a session starts: the SDK warns
  // then on Node 20 that its 2027 releases need Node 22; the lab pins its version.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  await typeCheckGuardFile(file);
  const code = await bundle(file);
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 12);
  const stem = file.name.replace(/\.(ts|mts|js|mjs)$/, "");
  const target = path.join(GUARD_FILE_BUNDLES, `${stem}-${hash}.mjs`);
  mkdirSync(GUARD_FILE_BUNDLES, { recursive: true });
  writeFileSync(target, code);
  const module = (await import(pathToFileURL(target).href)) as { default?: unknown };
  const guard = module.default;
  if (typeof guard !== "function") {
    const shown = guard === undefined ? "nothing" : `a ${typeof guard}`;
    throw new UsageError(
      `${path.relative(process.cwd(), file.path)}: its default export is ${shown}, not a guard; end the file with: export default defineGuard(async (input) => { … })`,
    );
  }
  return guard as Guard;
}

async function bundle(file: GuardFile): Promise<Uint8Array> {
  try {
    const result = await build({
      entryPoints: [file.path],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      write: false,
      // npm packages stay imports: Node resolves them from the bundle's place in the project.
      packages: "external",
      sourcemap: "inline",
      logLevel: "silent",
      plugins: [resolveGuardApi],
    });
    const output = result.outputFiles[0]?.contents;
    if (!output) throw new Error(`esbuild produced no output for ${file.path}`);
    return output;
  } catch (err) {
    const errors = (err as BuildFailure).errors;
    if (!errors) throw err;
    throw new UsageError(buildErrorLine(file, errors));
  }
}
