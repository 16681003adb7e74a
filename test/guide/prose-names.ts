// The names the guides' prose quotes in backticks, checked against the repository: a function, a
// path or a flag that was renamed in the code and not in the prose is named here. The samples
// are compared with a real run (run-guide.ts); the prose around them is compared with this.
//
// A span is checked when it is plainly code: a path under one of the project's own folders
// (`worker/store.ts`), a flag of the lab's commands (`--seed 1`, `npx lab send --copies 4`, the
// script of `npm run grade`), or a name written the way code writes names (`putIfAbsent`,
// `charge_applied`, `RECORD_TTL_SECONDS`, `claims.complete`, `charge()`). Plain words (`off`,
// `CLAIMED`), values, other programs' commands (`npm ci --offline`) and files the lab writes at
// run time (`.lab/body.json`) are not names of this repository, and are left alone.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type ProseNameKind = "path" | "flag" | "script" | "name" | "id" | "copy";

export interface ProseName {
  /** 1-based line of the guide where the backticked span starts. */
  line: number;
  /** The span as written. */
  span: string;
  kind: ProseNameKind;
  /** What must exist: the path, the flag, the script or the identifier. */
  name: string;
}

/** The backticked spans outside code blocks and comments, each code name in them once. */
export function proseNames(markdown: string): ProseName[] {
  const prose = blankCodeBlocks(markdown);
  const found: ProseName[] = [];
  for (const match of prose.matchAll(/(`+)([^`]+?)\1(?!`)/g)) {
    const line = prose.slice(0, match.index).split("\n").length;
    // A span may wrap onto the next line, inside a quote block too.
    const span = (match[2] ?? "").replace(/\n[>\s]*/g, " ").trim();
    for (const [kind, name] of namesIn(span)) found.push({ line, span, kind, name });
  }
  return found;
}

/** Fenced blocks and HTML comments become empty lines, so line numbers stay the guide's. */
function blankCodeBlocks(markdown: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, "");
  return markdown
    .replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, blank)
    .replace(/<!--[\s\S]*?-->/g, blank);
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
/** camelCase, PascalCase with a second capital, snake_case or UPPER_SNAKE: written as code. */
const CODE_LIKE = /^(?:[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Za-z]+_[A-Za-z_]+)$/;
const FLAG = /^--[a-z][\w-]*/;
const PATH = /^[\w.-]+\/[\w./-]*$/;
/** The lab's own commands: their flags and scripts are the repository's. */
const LAB_COMMAND = /^(?:npx(?:\.cmd)? lab|npm(?:\.cmd)? run(?: -s)?) /;

function namesIn(span: string): [ProseNameKind, string][] {
  const words = span.split(/\s+/);
  const first = words[0] ?? "";
  if (FLAG.test(first)) return [["flag", (FLAG.exec(first) as RegExpExecArray)[0]]];
  if (LAB_COMMAND.test(`${span} `)) {
    const names: [ProseNameKind, string][] = [];
    const script = /^npm(?:\.cmd)? run(?: -s)? ([\w:-]+)/.exec(span)?.[1];
    if (script) names.push(["script", script]);
    for (const word of words) {
      const flag = FLAG.exec(word)?.[0];
      if (flag) names.push(["flag", flag]);
      else if (PATH.test(word)) names.push(["path", word.replace(/\/$/, "")]);
    }
    return names;
  }
  // A call with its arguments, `complete(orderId, by: Invocation)`: the function is the name.
  const callee = /^([A-Za-z_$][\w$.]*)\(.*\)$/.exec(span)?.[1];
  if (callee && span !== `${callee}()`) return namesIn(`${callee}()`);
  if (words.length > 1 || /["'{}<>…]/.test(span)) return [];
  if (PATH.test(span)) return [["path", span.replace(/\/$/, "")]];
  if (/\.(?:ts|mts|js|mjs|json|md|html|log|yml)(?::\d+)*$/.test(span)) return [];
  // `NAME=value`: the name is the code.
  const code = span.split("=")[0] ?? "";
  const names = new Set<string>();
  for (const m of code.matchAll(IDENTIFIER)) {
    const word = m[0];
    const member = m.index > 0 && code[m.index - 1] === "." && /\w/.test(code[m.index - 2] ?? "");
    if (CODE_LIKE.test(word) || member) names.add(word);
  }
  if (/^[A-Za-z_$][\w$]*\(\)$/.test(code)) names.add(code.slice(0, -2));
  return [...names].map((name) => ["name", name]);
}

/** What the repository has: its files and folders, its code's identifiers and text, its scripts. */
export interface Repository {
  paths: Set<string>;
  identifiers: Set<string>;
  source: string;
  scripts: Set<string>;
}

const SOURCE = /\.(?:ts|mts|mjs|js|json|yml)$/;
const NOT_SOURCE = new Set(["node_modules", ".git", ".lab", "package-lock.json"]);
/** This check and its tests name, on purpose, functions that do not exist. */
const THIS_CHECK = new Set(["test/guide/prose-names.ts", "test/unit/prose-names.test.ts"]);

/** The repository as the prose may name it: every file and folder, and the words of its code. */
export function readRepository(root: string): Repository {
  const paths = new Set<string>();
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (NOT_SOURCE.has(entry.name)) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      paths.add(rel);
      if (entry.isDirectory()) walk(rel);
      else if (SOURCE.test(entry.name) && !THIS_CHECK.has(rel))
        texts.push(readFileSync(path.join(root, rel), "utf8"));
    }
  };
  walk("");
  const source = texts.join("\n");
  const identifiers = new Set(source.match(IDENTIFIER) ?? []);
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  return { paths, identifiers, source, scripts: new Set(Object.keys(pkg.scripts ?? {})) };
}

/** The names the prose quotes that the repository does not have. */
export function missingNames(names: ProseName[], repo: Repository): ProseName[] {
  const topLevel = new Set([...repo.paths].map((p) => p.split("/")[0]));
  return names.filter(({ kind, name }) => {
    if (kind === "path") return topLevel.has(name.split("/")[0]) && !repo.paths.has(name);
    if (kind === "script") return !repo.scripts.has(name);
    if (kind === "flag") return !new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(repo.source);
    return !repo.identifiers.has(name);
  });
}

/**
 * What the prose quotes from the samples and no sample of the guide shows: a short id (8 hex
 * digits, as the tables print them, `116875b1…`), or a copy of a send ("copy 3 of 10", "cópia 3
 * de 10", which `lab send` prints as `[3/10]`).
 */
export function quotesNotInSamples(markdown: string): ProseName[] {
  const samples = [...markdown.matchAll(/^```text\n([\s\S]*?)^```/gm)].map((m) => m[1]).join("\n");
  const prose = blankCodeBlocks(markdown);
  const lineOf = (index: number) => prose.slice(0, index).split("\n").length;
  const missing: ProseName[] = [];
  for (const match of prose.matchAll(/`([0-9a-f]{8})…?`/g)) {
    const id = match[1] as string;
    if (/\d/.test(id) && !samples.includes(id))
      missing.push({
        line: lineOf(match.index),
        span: match[0].slice(1, -1),
        kind: "id",
        name: id,
      });
  }
  for (const match of prose.matchAll(/\b(?:copy|cópia)\s+(\d+)\s+(?:of|de)\s+(\d+)\b/g)) {
    const copy = `[${match[1]}/${match[2]}]`;
    if (!samples.includes(copy))
      missing.push({
        line: lineOf(match.index),
        span: match[0].replace(/\s+/g, " "),
        kind: "copy",
        name: copy,
      });
  }
  return missing;
}
