// The command line runs from a bundle, built once with esbuild and rebuilt when one of the files
// it was built from changes, instead of transpiling its TypeScript at every start (tsx).
//
// Where: node_modules/.cache/sqs-idempotency-lab/cli/, so the bundle's npm imports (kept as
// imports, or for the AWS SDK as requires, not bundled) resolve from the project's node_modules,
// as the explorer's guard bundles do. Each build goes to a folder of its own; `current.json`
// names the one to run and the files it came from (esbuild's metafile), and is replaced by a
// rename: two commands that start at once each build a whole folder, and the one that renames
// last is the one run after; neither can see a half-written bundle. The commands' lazy imports
// stay lazy: ESM with esbuild's splitting, one chunk per dynamic import. Files end .mjs: under
// node_modules no package.json says "module".
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const CLI_BUNDLES = path.join(ROOT, "node_modules", ".cache", "sqs-idempotency-lab", "cli");
const CURRENT = path.join(CLI_BUNDLES, "current.json");
const ENTRY = "harness/cli/lab-cli.ts";
/** Besides the sources: this builder, and what decides how they compile and resolve. */
const BUILT_WITH = ["bin/cli-bundle.mjs", "package.json", "tsconfig.json"];
/** A build this much older than a new one is removed with it (a command may still run from it). */
const KEEP_OLD_MS = 60 * 60 * 1000;

/** The URL of the command line's entry module: the bundle, built first if missing or stale. */
export async function labEntry() {
  const current = readCurrent();
  if (current && isFresh(current)) return entryUrl(current);
  return entryUrl(await buildBundle(current));
}

function readCurrent() {
  try {
    return JSON.parse(readFileSync(CURRENT, "utf8"));
  } catch {
    return undefined; // never built, or written by something else: build
  }
}

/** Fresh: every file it was built from is still there, none changed since the build began. */
function isFresh(current) {
  try {
    for (const file of [...current.inputs, ...BUILT_WITH]) {
      if (statSync(path.join(ROOT, file)).mtimeMs > current.startedMs) return false;
    }
    statSync(path.join(CLI_BUNDLES, current.dir, current.entry));
    return true;
  } catch {
    return false; // a file was removed or renamed, or the bundle itself is gone
  }
}

const entryUrl = (current) =>
  pathToFileURL(path.join(CLI_BUNDLES, current.dir, current.entry)).href;

async function buildBundle(previous) {
  const started = Date.now();
  // Noticeable only the first time and after a change: tell a person why the command is slow to
  // start. Only a person: a program reading stderr (a test, the guide's check, a script) gets
  // what the command says and nothing else.
  const slow = process.stderr.isTTY
    ? setTimeout(
        () =>
          process.stderr.write(
            "lab: building the command line (once, until its sources change)…\n",
          ),
        300,
      )
    : undefined;
  const { build } = await import("esbuild");
  const dir = `build-${started}-${process.pid}`;
  const out = path.join(CLI_BUNDLES, dir);
  try {
    const { metafile } = await build({
      absWorkingDir: ROOT,
      entryPoints: { "lab-cli": ENTRY },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      outdir: out,
      outExtension: { ".js": ".mjs" },
      chunkNames: "chunks/[name]-[hash]",
      plugins: [requireSdk],
      // Each file's own `require`, for the SDK stubs below.
      banner: {
        js: 'import { createRequire as labCreateRequire } from "node:module"; const require = labCreateRequire(import.meta.url);',
      },
      metafile: true,
      logLevel: "silent",
    }).catch((err) => {
      throw new Error(`could not build the command line: ${firstError(err)}`, { cause: err });
    });
    const current = {
      dir,
      entry: "lab-cli.mjs",
      startedMs: started,
      inputs: Object.keys(metafile.inputs).filter((input) => !input.startsWith(`${SDK}:`)),
    };
    const written = `${CURRENT}.${process.pid}`;
    writeFileSync(written, JSON.stringify(current));
    try {
      renameSync(written, CURRENT);
    } catch {
      // Windows refuses to replace a file another process has open: this command runs from its
      // own build, and the next start finds current.json as it was (and builds again if stale).
      rmSync(written, { force: true });
    }
    removeOldBuilds(dir, previous?.dir, started);
    return current;
  } finally {
    clearTimeout(slow);
  }
}

const SDK = "required-sdk";
/**
 * The AWS SDK's packages are CommonJS with no "exports" map. Imported by an ES module, each is
 * parsed again at every start for the names it exports (Node's cjs-module-lexer), about a sixth
 * of `npx lab status`; required, it loads as CommonJS does. Each import of one becomes a stub
 * that requires it, and the stub's require is left to Node. A guard file the explorer imports
 * gets the same module objects, from require's cache.
 */
const requireSdk = {
  name: "require-sdk",
  setup(build) {
    build.onResolve({ filter: /^@(aws-sdk|smithy)\// }, (args) =>
      args.namespace === SDK
        ? { path: args.path, external: true }
        : { path: args.path, namespace: SDK },
    );
    build.onLoad({ filter: /.*/, namespace: SDK }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/** esbuild's first error as file:line:col and its words (a source that does not parse). */
function firstError(err) {
  const first = err?.errors?.[0];
  if (!first) return err instanceof Error ? err.message : String(err);
  const at = first.location
    ? `${first.location.file}:${first.location.line}:${first.location.column + 1}: `
    : "";
  return `${at}${first.text}`;
}

function removeOldBuilds(kept, replaced, now) {
  for (const entry of readdirSync(CLI_BUNDLES, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === kept || entry.name === replaced) continue;
    const at = path.join(CLI_BUNDLES, entry.name);
    try {
      if (now - statSync(at).mtimeMs > KEEP_OLD_MS) rmSync(at, { recursive: true, force: true });
    } catch {
      // another command removed it first
    }
  }
}

mkdirSync(CLI_BUNDLES, { recursive: true });
