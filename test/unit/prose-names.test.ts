// The guide check's prose half: the names the guides quote in backticks must be the
// repository's, and the ids they quote must be on a sample's screen (test/guide/prose-names.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import {
  missingNames,
  proseNames,
  quotesNotInSamples,
  type Repository,
  readRepository,
} from "../guide/prose-names.js";

const PROSE_DOCS = [
  "docs/workshop.md",
  "docs/workshop.pt-BR.md",
  "docs/guard-api.md",
  "docs/guard-api.pt-BR.md",
  "exercises/hints.md",
  "exercises/hints.pt-BR.md",
  "README.md",
];

describe("the names the prose quotes", () => {
  const prose = [
    "**Why.** `claims.putIfAbsent` in `worker/store.ts` writes `CLAIMED`; `charge()` logs", // 1
    "`charge_applied` when `RECORD_TTL_SECONDS` allows, then `npm run grade -- exercises/my-guard.ts --seed 1`",
    "and `npx lab send --copies 4`; `npm ci --offline` and `.lab/body.json` are not ours;", // 3
    "`completeLease(orderId, owner, by: Invocation, ttlSeconds)` is a call.",
    "> a span that wraps, `npm run", // 5
    ">   explore`, inside a quote block.",
    "```ts",
    "await claims.renamedInCodeOnly();",
    "```",
    "<!-- `notInTheRepo` -->",
  ].join("\n");
  const repo: Repository = {
    paths: new Set(["worker", "worker/store.ts", "exercises", "exercises/my-guard.ts"]),
    identifiers: new Set([
      "claims",
      "putIfAbsent",
      "completeLease",
      "charge",
      "charge_applied",
      "RECORD_TTL_SECONDS",
    ]),
    source: 'program.option("--seed <n>"); program.option("--copies <n>");',
    scripts: new Set(["grade", "explore"]),
  };

  test("code names, paths, flags and scripts, outside code blocks and comments", () => {
    const found = proseNames(prose).map(({ line, kind, name }) => `${line} ${kind} ${name}`);
    // `claims` is a plain word; `.lab/body.json` is found, but is no folder of the repository's.
    expect(found).toEqual([
      "1 name putIfAbsent",
      "1 path worker/store.ts",
      "1 name charge",
      "2 name charge_applied",
      "2 name RECORD_TTL_SECONDS",
      "2 script grade",
      "2 path exercises/my-guard.ts",
      "2 flag --seed",
      "3 flag --copies",
      "3 path .lab/body.json",
      "4 name completeLease",
      "5 script explore",
    ]);
  });

  test("all of them in the repository: nothing is missing", () => {
    expect(missingNames(proseNames(prose), repo)).toEqual([]);
  });

  test("a function renamed in the code, a moved file, a dropped flag: each named, with its line", () => {
    const renamed: Repository = {
      ...repo,
      paths: new Set(["worker", "exercises", "exercises/my-guard.ts"]),
      identifiers: new Set([
        "claims",
        "putItemIfAbsent",
        "charge",
        "charge_applied",
        "RECORD_TTL_SECONDS",
      ]),
      source: 'program.option("--copies <n>");',
      scripts: new Set(),
    };
    const missing = missingNames(proseNames(prose), renamed).map((m) => `${m.line} ${m.name}`);
    expect(missing).toEqual([
      "1 putIfAbsent",
      "1 worker/store.ts",
      "2 grade",
      "2 --seed",
      "4 completeLease",
      "5 explore",
    ]);
  });

  test("an id or a copy number the prose quotes must be on a sample's screen", () => {
    const guide = [
      "```text",
      "  [3/10] MessageId 116875b1-3810-43a3-b1fb-fa1242d9ade5",
      "│ 116875b1 │ claim_won │",
      "```",
      "`116875b1…` won, copy 3 of 10; `05ed2a0a` did not, nor copy 2 of 10",
      "(a cópia 3 de 10 ganhou, a cópia 2\nde 10 não)",
    ];
    expect(quotesNotInSamples(guide.join("\n")).map((m) => `${m.line} ${m.name}`)).toEqual([
      "5 05ed2a0a",
      "5 [2/10]",
      "6 [2/10]",
    ]);
  });

  test("this check's own made-up names are not read as the repository's", () => {
    // Were they, a function renamed in the code would still be "found" here, in the examples.
    expect(readRepository(PROJECT_ROOT).identifiers.has("putItemIfAbsent")).toBe(false);
  });

  test("the guides, the guard API pages, the hints and the README name only what exists", () => {
    const repository = readRepository(PROJECT_ROOT);
    const missing = PROSE_DOCS.flatMap((doc) => {
      const markdown = readFileSync(path.join(PROJECT_ROOT, doc), "utf8");
      const quotes = doc.startsWith("docs/workshop") ? quotesNotInSamples(markdown) : [];
      return [...missingNames(proseNames(markdown), repository), ...quotes].map(
        (m) => `${doc}:${m.line}: ${m.kind} ${m.name}`,
      );
    });
    expect(missing).toEqual([]);
  });
});
