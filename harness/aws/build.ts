// The worker as Lambda receives it: one esbuild bundle (the AWS SDK inside) in a zip.
import { createHash } from "node:crypto";
import path from "node:path";
import { build } from "esbuild";
import { zipSync } from "fflate";
import { PROJECT_ROOT } from "../common/paths.js";

export interface WorkerPackage {
  zip: Uint8Array;
  /** Base64 SHA-256 of the zip, the form Lambda reports as CodeSha256. */
  sha256: string;
  bundleBytes: number;
}

// A fixed timestamp keeps the zip byte-identical between builds, so deploy can tell
// "unchanged" from CodeSha256 and skip the upload.
const FIXED_MTIME = new Date("2026-01-01T00:00:00Z");

let cached: Promise<WorkerPackage> | undefined;

export function packageWorker(): Promise<WorkerPackage> {
  cached ??= buildPackage();
  return cached;
}

/** One build, not memoised: what packageWorker caches, and what the bundle test compares. */
export async function buildPackage(): Promise<WorkerPackage> {
  const result = await build({
    entryPoints: [path.join(PROJECT_ROOT, "worker", "index.ts")],
    bundle: true,
    platform: "node",
    // The function is declared nodejs22.x; MiniStack runs it on the host's Node (20 here).
    target: "node20",
    format: "cjs",
    write: false,
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  const bundle = result.outputFiles[0]?.contents;
  if (!bundle) throw new Error("esbuild produced no output for worker/index.ts");
  const zip = zipSync({ "index.js": [bundle, { mtime: FIXED_MTIME }] }, { level: 9 });
  return {
    zip,
    sha256: createHash("sha256").update(zip).digest("base64"),
    bundleBytes: bundle.byteLength,
  };
}
