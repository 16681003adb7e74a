// `npx lab` checks what it was given before it loads what talks to the emulator: a typo or
// --help answers in a quarter of a second, not half (the AWS SDK is most of a start). The lab
// command's static imports, followed from harness/cli/lab-cli.ts, must not reach the heavy
// packages; its commands import them when they run.
import path from "node:path";
import { build } from "esbuild";
import { expect, test } from "vitest";
import { PROJECT_ROOT } from "../../harness/common/paths.js";

const HEAVY =
  /^(@aws-sdk\/|@smithy\/|@aws-lambda-powertools\/|typescript$|testcontainers|@testcontainers\/|esbuild$|playwright-core)/;

/** The packages a module loads at start: its static imports, and theirs, through project files. */
async function packagesAtStart(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [path.join(PROJECT_ROOT, entry)],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of metafile.inputs[file]?.imports ?? []) {
      if (edge.kind !== "import-statement") continue; // a dynamic import() loads when it runs
      if (edge.external) packages.add(edge.path);
      else visit(edge.path);
    }
  };
  visit(path.relative(process.cwd(), path.join(PROJECT_ROOT, entry)).split(path.sep).join("/"));
  expect(seen.size).toBeGreaterThan(10); // the walk found the CLI's own modules
  return [...packages].sort();
}

test("npx lab loads no AWS SDK, TypeScript, testcontainers or esbuild before a command runs", async () => {
  const atStart = await packagesAtStart("harness/cli/lab-cli.ts");
  expect(atStart).toContain("commander");
  expect(atStart.filter((name) => HEAVY.test(name))).toEqual([]);
});
