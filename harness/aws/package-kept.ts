// The worker's zip, kept on disk between commands and used again while every file it was built
// from is unchanged. `lab up`, `lab deploy` and `lab scenario` each package the worker, and each
// build bundles the AWS SDK (about half a second of esbuild's CPU); reading and hashing the files
// it came from takes a few milliseconds. Unchanged means the same bytes, not an older time: npm
// writes a package's files with the times in its tarball, so an SDK installed after a build can
// look older than it. Best effort: a kept zip that cannot be read or written is built again.
// Where: node_modules/.cache/sqs-idempotency-lab/worker/, beside the command line's bundles.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../common/paths.js";

export interface WorkerPackage {
  zip: Uint8Array;
  /** Base64 SHA-256 of the zip, the form Lambda reports as CodeSha256. */
  sha256: string;
  bundleBytes: number;
}

const KEPT = path.join(PROJECT_ROOT, "node_modules", ".cache", "sqs-idempotency-lab", "worker");

/** Besides the files esbuild read: what decides how they are bundled and zipped. */
const BUILT_WITH = [
  "harness/aws/build.ts",
  "harness/aws/guard-file.ts",
  "harness/aws/package-kept.ts",
  "node_modules/esbuild/package.json",
  "node_modules/fflate/package.json",
].map((file) => path.join(PROJECT_ROOT, file));

interface Kept {
  /** Each file the zip was built from, by its absolute path: the SHA-256 of its bytes. */
  inputs: Record<string, string>;
  sha256: string;
  bundleBytes: number;
}

/** The zip kept for this build (`key`: which guard, if any), if nothing it came from changed. */
export function keptPackage(key: string): WorkerPackage | undefined {
  try {
    const kept = JSON.parse(readFileSync(fileFor(key, ".json"), "utf8")) as Kept;
    for (const [file, hash] of Object.entries(kept.inputs)) {
      if (hashOf(file) !== hash) return undefined;
    }
    const zip = new Uint8Array(readFileSync(fileFor(key, ".zip")));
    if (zipSha256(zip) !== kept.sha256) return undefined; // another command's half-done write
    return { zip, sha256: kept.sha256, bundleBytes: kept.bundleBytes };
  } catch {
    return undefined; // none kept yet, or a file it came from is gone
  }
}

/** Keeps a zip just built from `inputs` (absolute paths) for the next command. */
export function keepPackage(key: string, pkg: WorkerPackage, inputs: readonly string[]): void {
  try {
    const kept: Kept = {
      inputs: Object.fromEntries([...inputs, ...BUILT_WITH].map((file) => [file, hashOf(file)])),
      sha256: pkg.sha256,
      bundleBytes: pkg.bundleBytes,
    };
    mkdirSync(KEPT, { recursive: true });
    // Each file whole or not at all: two commands may build at once (the same bytes).
    replace(fileFor(key, ".zip"), pkg.zip);
    replace(fileFor(key, ".json"), JSON.stringify(kept));
  } catch {
    // Not kept: the next command builds it again.
  }
}

export const zipSha256 = (zip: Uint8Array): string =>
  createHash("sha256").update(zip).digest("base64");

const hashOf = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Where the zip kept for `key` and what it came from are written. */
export const keptFiles = (key: string) => [fileFor(key, ".zip"), fileFor(key, ".json")];

function fileFor(key: string, extension: string): string {
  const name = key === "" ? "lab" : createHash("sha256").update(key).digest("hex").slice(0, 16);
  return path.join(KEPT, `${name}${extension}`);
}

function replace(file: string, contents: Uint8Array | string): void {
  const written = `${file}.${process.pid}`;
  writeFileSync(written, contents);
  try {
    renameSync(written, file);
  } catch {
    rmSync(written, { force: true }); // Windows: another command has it open; keep theirs
  }
}
