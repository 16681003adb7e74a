// A guard of the user's own (docs/design.md §4, "Guard files"): found, type-checked the way the
// project is, and plugged into the worker's bundle in place of worker/guards/plugged-in.ts.
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "esbuild";
import type ts from "typescript";
import { type GuardFileName, isGuardFileName } from "../../contract/settings.js";
import { UsageError } from "../common/errors.js";
import { PROJECT_ROOT } from "../common/paths.js";

/** The name a guard file imports the guard API by (package.json "exports"). */
export const GUARD_API = "sqs-idempotency-lab/guard";
export const GUARD_API_FILE = path.join(PROJECT_ROOT, "worker", "guard-api.ts");

export interface GuardFile {
  /** Absolute. */
  path: string;
  /** Its base name: GUARD's value, and the `guard` of every log line. */
  name: GuardFileName;
}

/** A path the user gave, checked: it exists, it is a file, its name can travel in GUARD. */
export function guardFileAt(given: string): GuardFile {
  // npm run starts in the project's folder; a relative path means where the user typed it.
  const absolute = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  if (!existsSync(absolute) || !statSync(absolute).isFile())
    throw new UsageError(`guard file ${given}: no such file`);
  const name = path.basename(absolute);
  if (!isGuardFileName(name)) {
    throw new UsageError(
      `guard file ${given}: name it like my-guard.ts (letters, digits, . _ -; ending .ts, .mts, .js or .mjs)`,
    );
  }
  return { path: absolute, name };
}

/**
 * Type-checks the file with the project's compiler settings. A mistake is one line,
 * file:line:col and the compiler's message, as a UsageError (exit 2); the first one only, as a
 * beginner fixes them one at a time.
 */
export async function typeCheckGuardFile(file: GuardFile): Promise<void> {
  // Once per file and process: grade checks it for the worker's bundle and for the explorer's.
  if (typeChecked.has(file.path)) return;
  // Loaded here, not at the top: TypeScript is 9 MB of CommonJS, and every lab command that
  // imports this module for its path checks would parse it at start. Required, not imported:
  // through tsx's ESM loader the file took 0.75 s to load, required 0.3 s (Node 20).
  const ts: typeof import("typescript") = requireHere("typescript");
  const inProject = !path.relative(PROJECT_ROOT, file.path).startsWith("..");
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    typeRoots: [path.join(PROJECT_ROOT, "node_modules", "@types")],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    allowJs: true,
    allowImportingTsExtensions: true,
    // Outside the project, the guard API is found by its path instead of the package's name.
    ...(inProject ? {} : { paths: { [GUARD_API]: [GUARD_API_FILE] } }),
  };
  const program = ts.createProgram({ rootNames: [file.path], options, host: hostFor(ts, options) });
  // The guard file's mistakes, and those of files of its own it imports; not the lab's modules
  // it reaches through the guard API, which `npm run check` checks (0.3 s of each check).
  const root = program.getSourceFile(file.path); // by object: fileName has "/" on Windows too
  const own = program
    .getSourceFiles()
    .filter((f) => f === root || !(f.isDeclarationFile || isLabModule(f.fileName)));
  const first = ts
    .sortAndDeduplicateDiagnostics([
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...own.flatMap((f) => [
        ...program.getSyntacticDiagnostics(f),
        ...program.getSemanticDiagnostics(f),
      ]),
    ])
    .find((d) => d.category === ts.DiagnosticCategory.Error);
  if (first) throw new UsageError(diagnosticLine(ts, first));
  typeChecked.add(file.path);
}

const typeChecked = new Set<string>();

/** worker/, contract/ and packages: what the guard API brings in. TypeScript writes names with "/". */
const LAB_MODULES = ["worker", "contract"].map(
  (dir) => `${path.join(PROJECT_ROOT, dir).split(path.sep).join("/")}/`,
);
const isLabModule = (fileName: string) =>
  fileName.includes("/node_modules/") || LAB_MODULES.some((dir) => fileName.startsWith(dir));
const requireHere = createRequire(import.meta.url);

/**
 * A compiler host that parses each declaration file under node_modules (TypeScript's lib,
 * @types/node, the SDK's types) once per process: they are most of a check's second, and a
 * process that checks several files (the tests, a grade) would parse them again for each.
 */
function hostFor(ts: typeof import("typescript"), options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    // TypeScript writes every file name with forward slashes, on Windows too.
    if (!fileName.includes("/node_modules/")) return parse(fileName, language, ...rest);
    const key = `${fileName}\0${JSON.stringify(language)}`;
    let parsed = declarations.get(key);
    if (!parsed) {
      parsed = parse(fileName, language, ...rest);
      if (parsed) declarations.set(key, parsed);
    }
    return parsed;
  };
  return host;
}

const declarations = new Map<string, ts.SourceFile>();

function diagnosticLine(ts: typeof import("typescript"), d: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(d.messageText, " ").replace(/\s+/g, " ");
  if (!d.file || d.start === undefined) return `guard file: ${message}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  const where = path.relative(process.cwd(), d.file.fileName) || d.file.fileName;
  return `${where}:${line + 1}:${character + 1}: ${message}`;
}

/**
 * esbuild plug-in: worker/index.ts's import of ./guards/plugged-in.js gets the guard file's
 * default export, under the file's name (with resolveGuardApi beside it).
 */
export function plugIn(file: GuardFile): Plugin {
  return {
    name: "guard-file",
    setup(build) {
      build.onResolve({ filter: /\/plugged-in\.js$/ }, (args) =>
        args.importer.endsWith(path.join("worker", "index.ts"))
          ? { path: file.path, namespace: "guard-file" }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "guard-file" }, () => ({
        contents: [
          `import guard from ${JSON.stringify(file.path)};`,
          `export const pluggedIn = { name: ${JSON.stringify(file.name)}, guard };`,
        ].join("\n"),
        resolveDir: path.dirname(file.path),
        loader: "js",
      }));
    },
  };
}

/** esbuild plug-in: the guard API's name resolves to its file, wherever the guard file is. */
export const resolveGuardApi: Plugin = {
  name: "guard-api",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${GUARD_API}$`) }, () => ({ path: GUARD_API_FILE }));
  },
};

/** esbuild's errors about a guard file, as one line each place, like the compiler's. */
export function buildErrorLine(
  file: GuardFile,
  errors: { text: string; location: { file: string; line: number; column: number } | null }[],
): string {
  const [first] = errors;
  if (!first) return `${file.name}: esbuild failed`;
  if (/No matching export .* for import "default"/.test(first.text)) {
    return `${path.relative(process.cwd(), file.path)}: no default export; end the file with: export default defineGuard(async (input) => { … })`;
  }
  const at = first.location;
  return at ? `${at.file}:${at.line}:${at.column + 1}: ${first.text}` : first.text;
}

/** A path, not a guard's name: it has a folder separator or a script's extension. */
export const looksLikeGuardFile = (value: string): boolean =>
  /[\\/]/.test(value) || /\.(ts|mts|js|mjs)$/.test(value);
