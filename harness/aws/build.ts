// The worker as Lambda receives it: one esbuild bundle (the AWS SDK inside) in a zip.
import path from "node:path";
import { type BuildFailure, build } from "esbuild";
import { zipSync } from "fflate";
import { UsageError } from "../common/errors.js";
import { PROJECT_ROOT } from "../common/paths.js";
import {
  buildErrorLine,
  type GuardFile,
  plugIn,
  resolveGuardApi,
  typeCheckGuardFile,
} from "./guard-file.js";
import { keepPackage, keptPackage, type WorkerPackage, zipSha256 } from "./package-kept.js";

// A fixed timestamp keeps the zip byte-identical between builds, so deploy can tell
// "unchanged" from CodeSha256 and skip the upload.
const FIXED_MTIME = new Date("2026-01-01T00:00:00Z");

const cached = new Map<string, Promise<WorkerPackage>>();

/**
 * The worker, with a guard file plugged in if one is given: once per process, and built only when
 * a file it comes from changed since a command last built it (package-kept.ts).
 */
export function packageWorker(guardFile?: GuardFile): Promise<WorkerPackage> {
  const key = guardFile?.path ?? "";
  let pkg = cached.get(key);
  if (!pkg) {
    pkg = keptOrBuilt(guardFile);
    cached.set(key, pkg);
  }
  return pkg;
}

async function keptOrBuilt(guardFile?: GuardFile): Promise<WorkerPackage> {
  // A guard file is checked every time: its mistakes are the user's to see, kept bundle or not.
  if (guardFile) await typeCheckGuardFile(guardFile);
  // The plugged-in module is made from the file's path and name (guard-file.ts plugIn).
  const key = guardFile ? `${guardFile.name}\0${guardFile.path}` : "";
  const kept = keptPackage(key);
  if (kept) return kept;
  const { pkg, inputs } = await zipped(guardFile);
  keepPackage(key, pkg, inputs);
  return pkg;
}

/** One build, not memoised: what packageWorker keeps, and what the bundle test compares. */
export async function buildPackage(guardFile?: GuardFile): Promise<WorkerPackage> {
  if (guardFile) await typeCheckGuardFile(guardFile);
  return (await zipped(guardFile)).pkg;
}

/** The bundle in its zip, and the files esbuild read for it (absolute paths). */
async function zipped(guardFile?: GuardFile) {
  const result = await bundle(guardFile);
  const bundled = result.outputFiles[0]?.contents;
  if (!bundled) throw new Error("esbuild produced no output for worker/index.ts");
  const zip = zipSync({ "index.js": [bundled, { mtime: FIXED_MTIME }] }, { level: 9 });
  const pkg: WorkerPackage = { zip, sha256: zipSha256(zip), bundleBytes: bundled.byteLength };
  // Relative to the working folder, as esbuild names them; not the plugged-in module, which is
  // made from the key (its namespace, "guard-file:", is not a file).
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith("guard-file:"))
    .map((input) => path.resolve(input));
  return { pkg, inputs };
}

async function bundle(guardFile?: GuardFile) {
  try {
    return await esbuildWorker(guardFile);
  } catch (err) {
    const errors = (err as BuildFailure).errors;
    if (!guardFile || !errors) throw err;
    throw new UsageError(buildErrorLine(guardFile, errors));
  }
}

function esbuildWorker(guardFile?: GuardFile) {
  return build({
    entryPoints: [path.join(PROJECT_ROOT, "worker", "index.ts")],
    bundle: true,
    platform: "node",
    // The function is declared nodejs22.x; MiniStack runs it on the host's Node (22 or newer).
    target: "node22",
    format: "cjs",
    // The SDK's ES modules (its packages' "module"), not its CommonJS ("main"): esbuild drops what
    // the worker never calls (the other DynamoDB commands and their schemas), a third of the
    // bundle, which every new execution environment would load.
    mainFields: ["module", "main"],
    // Their `await import("node:http")` becomes a require: a dynamic import of a built-in goes
    // through Node's ES module loader, whose facade for node:http reads every export and so loads
    // undici (fetch), which the worker never uses, in each new execution environment.
    supported: { "dynamic-import": false },
    write: false,
    metafile: true,
    minify: true,
    legalComments: "none",
    logLevel: "silent",
    // A guard file's errors point into the file (worker/index.ts turns source maps on), and its
    // npm imports resolve from the project wherever the file is. The lab's own bundle has neither.
    ...(guardFile
      ? {
          plugins: [plugIn(guardFile), resolveGuardApi],
          sourcemap: "inline" as const,
          sourcesContent: false,
          nodePaths: [path.join(PROJECT_ROOT, "node_modules")],
        }
      : {}),
  });
}
