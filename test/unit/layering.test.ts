// The pipeline's arrows point down: a module imports only from its own folder or from a folder
// below it in LAYERS. The worker, which attendees read on a projector, depends on contract/ only;
// of the harness only the explorer (harness/explore) runs the worker's own modules in-process.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Top to bottom: each may import from the ones after it, never from one before it. */
const LAYERS = [
  // The command line runs everything a user runs, the bench included (`npx lab bench`).
  "harness/cli",
  "bench",
  "harness/workshop",
  "harness/grade",
  "harness/explore",
  "harness/report",
  "scenarios",
  "harness/scenario",
  "harness/check",
  "harness/observe",
  "harness/drive",
  "harness/aws",
  "harness/backends",
  "harness/common",
  "contract",
];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/** The project files a module imports (static, re-exported or dynamic), relative to the root. */
function localImports(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)];
  return specifiers.map((m) =>
    path.relative(ROOT, path.resolve(ROOT, path.dirname(file), m[1] as string)),
  );
}

/** The layer a file belongs to: its harness/ subfolder, or its top folder. */
function layerOf(file: string): string {
  const [top, sub] = file.split(path.sep);
  return top === "harness" ? `harness/${sub}` : (top as string);
}

/** The one layer besides the tests that may import the worker: it runs the real guards. */
const RUNS_THE_WORKER = "harness/explore";

/** Every import that points up (or sideways out of the worker), as "from → to". */
function violations(files: { file: string; source: string }[]): string[] {
  const found: string[] = [];
  for (const { file, source } of files) {
    const from = layerOf(file);
    for (const target of localImports(file, source)) {
      const to = layerOf(target);
      if (from === to) continue;
      const allowed =
        from === "worker"
          ? to === "contract"
          : (from === RUNS_THE_WORKER && to === "worker") ||
            (LAYERS.indexOf(from) !== -1 && LAYERS.indexOf(to) > LAYERS.indexOf(from));
      if (!allowed) found.push(`${file} → ${target}`);
    }
  }
  return found;
}

/**
 * The first import circle found among the files (import type included: a circle of types still
 * ties the modules into one), as "a → b → a"; undefined when there is none.
 */
function importCircle(files: { file: string; source: string }[]): string | undefined {
  const imports = new Map(
    files.map(({ file, source }) => [
      file,
      localImports(file, source).map((target) => target.replace(/\.js$/, ".ts")),
    ]),
  );
  const state = new Map<string, "visiting" | "done">();
  const path_: string[] = [];
  const visit = (file: string): string | undefined => {
    if (state.get(file) === "done" || !imports.has(file)) return undefined;
    if (state.get(file) === "visiting") {
      return [...path_.slice(path_.indexOf(file)), file].join(" → ");
    }
    state.set(file, "visiting");
    path_.push(file);
    for (const target of imports.get(file) ?? []) {
      const circle = visit(target);
      if (circle) return circle;
    }
    path_.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of imports.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}

const tree = ["worker", ...LAYERS].flatMap((dir) =>
  sourceFiles(dir).map((file) => ({ file, source: readFileSync(path.join(ROOT, file), "utf8") })),
);

describe("layering", () => {
  test("every folder under harness/ is a known layer", () => {
    const folders = readdirSync(path.join(ROOT, "harness"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `harness/${entry.name}`);
    expect(folders.filter((f) => !LAYERS.includes(f))).toEqual([]);
  });

  test("no import points up, the worker imports contract/ only, and only the explorer imports the worker", () => {
    expect(tree.length).toBeGreaterThan(50);
    expect(violations(tree)).toEqual([]);
  });

  test("no import circle, import type included", () => {
    expect(importCircle(tree)).toBeUndefined();
  });

  test("every module is at most 300 lines: one job each", () => {
    const long = tree
      .map(({ file, source }) => ({ file, lines: source.split("\n").length - 1 }))
      .filter(({ lines }) => lines > 300)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  test("the circle check finds one through a type import", () => {
    expect(
      importCircle([
        { file: "harness/check/a.ts", source: 'import type { B } from "./b.js";' },
        { file: "harness/check/b.ts", source: 'import { c } from "./c.js";' },
        { file: "harness/check/c.ts", source: 'import type { A } from "./a.js";' },
      ]),
    ).toBe("harness/check/a.ts → harness/check/b.ts → harness/check/c.ts → harness/check/a.ts");
  });

  test("the rule catches an import that points up, and a worker reaching into the harness", () => {
    expect(
      violations([
        { file: "harness/aws/deploy.ts", source: 'import { x } from "../report/text.js";' },
        { file: "harness/drive/send.ts", source: 'const m = await import("../cli/exit.js");' },
        { file: "worker/index.ts", source: 'export { y } from "../harness/aws/names.js";' },
        { file: "worker/index.ts", source: 'import { z } from "../contract/settings.js";' },
      ]),
    ).toEqual([
      "harness/aws/deploy.ts → harness/report/text.js",
      "harness/drive/send.ts → harness/cli/exit.js",
      "worker/index.ts → harness/aws/names.js",
    ]);
  });

  test("only the explorer may import the worker, and it too imports only downwards", () => {
    expect(
      violations([
        {
          file: "harness/explore/copy.ts",
          source: 'import { lease } from "../../worker/guards/lease.js";',
        },
        {
          file: "harness/report/text.ts",
          source: 'import { createLog } from "../../worker/log.js";',
        },
        {
          file: "harness/cli/explore-cli.ts",
          source: 'import { off } from "../../worker/guards/off.js";',
        },
        { file: "harness/explore/output.ts", source: 'import { exitWith } from "../cli/exit.js";' },
        {
          file: "harness/explore/output.ts",
          source: 'import { htmlPage } from "../report/html/page.js";',
        },
      ]),
    ).toEqual([
      "harness/report/text.ts → worker/log.js",
      "harness/cli/explore-cli.ts → worker/guards/off.js",
      "harness/explore/output.ts → harness/cli/exit.js",
    ]);
  });
});
