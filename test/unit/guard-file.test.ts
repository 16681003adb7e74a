// Guard files (docs/design.md §4): found, type-checked, bundled into the worker, and what the
// worker says about a guard that throws or returns something else. The bundle runs here, loaded
// in a Node process of its own, as the function runs it; the guards below make no AWS call.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { namesFor } from "../../contract/names.js";
import { type GuardChoice, settingsFromEnv } from "../../contract/settings.js";
import { buildPackage, packageWorker } from "../../harness/aws/build.js";
import { guardFileAt, typeCheckGuardFile } from "../../harness/aws/guard-file.js";
import { workerEnvironment } from "../../harness/aws/worker-env.js";
import { UsageError } from "../../harness/common/errors.js";
import { PROJECT_ROOT } from "../../harness/common/paths.js";
import { tempFolder } from "../temp-folder.js";

const broken = (name: string) => path.join(PROJECT_ROOT, "test", "fixtures", "broken-guards", name);
const tmp = () => tempFolder("lab-guard-file-");

/** Where `needle` starts in a file, as "line:col" (1-based), the way compilers count. */
function positionOf(file: string, needle: string): string {
  const lines = readFileSync(file, "utf8").split("\n");
  const line = lines.findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`${needle} is not in ${file}`);
  return `${line + 1}:${(lines[line] as string).indexOf(needle) + 1}`;
}

async function failureOf(work: () => unknown): Promise<Error> {
  try {
    await work();
  } catch (err) {
    return err as Error;
  }
  throw new Error("it did not fail");
}

/**
 * The worker with this guard file in it, run on one record in a Node process of its own, with the
 * environment the function gets (worker-env.ts): its log lines.
 */
async function runOnce(file: string, guard: string) {
  const pkg = await buildPackage(guardFileAt(file));
  const dir = tmp();
  writeFileSync(path.join(dir, "index.js"), unzipSync(pkg.zip)["index.js"] ?? new Uint8Array());
  const record = {
    messageId: "m-1",
    body: '{"orderId":"ORDER-1","customerId":"CUSTOMER-1","amount":150}',
    attributes: { ApproximateReceiveCount: "1" },
    messageAttributes: {},
  };
  const context = "{ awsRequestId: 'r-1', getRemainingTimeInMillis: () => 3000 }";
  writeFileSync(
    path.join(dir, "run.cjs"),
    `require("./index.js").handler({ Records: [${JSON.stringify(record)}] }, ${context});\n`,
  );
  const { stdout } = spawnSync(process.execPath, [path.join(dir, "run.cjs")], {
    encoding: "utf8",
    timeout: 30_000,
    env: {
      PATH: process.env.PATH,
      ...workerEnvironment(namesFor("p"), { guard: guard as GuardChoice }),
      // Nothing here calls AWS; were it to, it would meet a closed port on this machine.
      AWS_ENDPOINT_URL: "http://127.0.0.1:9",
      AWS_REGION: "us-east-1",
    },
  });
  const lines = stdout.split("\n").filter((l) => l.startsWith("{"));
  return lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.type === "process_end");
}

describe("a guard file, found and checked", () => {
  test("a path that is not there: one line, a usage error", () => {
    expect(() => guardFileAt("./no/such/guard.ts")).toThrow(
      new UsageError("guard file ./no/such/guard.ts: no such file"),
    );
  });

  test("a name that cannot travel in GUARD is refused, saying what a name may be", () => {
    const file = path.join(tmp(), "my guard.ts");
    writeFileSync(file, "export default async () => 'skipped';\n");
    expect(() => guardFileAt(file)).toThrow(/name it like my-guard\.ts/);
  });

  test("a type error: one line, the file's own line and column, and the compiler's words", async () => {
    const file = broken("type-error.ts");
    const err = await failureOf(() => buildPackage(guardFileAt(file)));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).not.toContain("\n");
    const where = positionOf(file, "async ({ charge })");
    expect(err.message).toMatch(
      new RegExp(
        `^test/fixtures/broken-guards/type-error\\.ts:${where}: .*'number' is not assignable to type 'Outcome'`,
      ),
    );
  });

  test("a type error in a file the guard file imports: one line, that file's line and column", async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, "amounts.ts"), 'export const cents: number = "150";\n');
    const guard = path.join(dir, "with-helper.ts");
    writeFileSync(
      guard,
      [
        'import { defineGuard } from "sqs-idempotency-lab/guard";',
        'import { cents } from "./amounts.ts";',
        "export default defineGuard(async ({ charge }) => {",
        "  if (cents > 0) await charge();",
        '  return "charged";',
        "});",
        "",
      ].join("\n"),
    );
    const err = await failureOf(() => typeCheckGuardFile(guardFileAt(guard)));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(
      /amounts\.ts:1:14: Type 'string' is not assignable to type 'number'/,
    );
  });

  test("no default export: one line saying how to end the file", async () => {
    const err = await failureOf(() => buildPackage(guardFileAt(broken("no-default.ts"))));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(
      /no-default\.ts: no default export; end the file with: export default defineGuard/,
    );
  });

  test("GUARD takes a guard file's name, and refuses a path", () => {
    expect(settingsFromEnv({ GUARD: "my-guard.ts" }).guard).toBe("my-guard.ts");
    expect(() => settingsFromEnv({ GUARD: "../my-guard.ts" })).toThrow(/a guard file's name/);
  });

  test("source maps on for a guard file's function only; the lab's own bundle carries none", async () => {
    const names = namesFor("p");
    expect(workerEnvironment(names, { guard: "my-guard.ts" }).NODE_OPTIONS).toBe(
      "--enable-source-maps",
    );
    expect(workerEnvironment(names, { guard: "lease" }).NODE_OPTIONS).toBeUndefined();
    const own = unzipSync((await packageWorker()).zip)["index.js"] ?? new Uint8Array();
    expect(Buffer.from(own).toString("utf8")).not.toContain("sourceMappingURL");
  });
});

describe("a guard file in the worker", () => {
  test("one that throws: the copy fails, and process_end names the file and the line", async () => {
    const file = broken("throws.ts");
    const end = await runOnce(file, "throws.ts");
    expect(end).toMatchObject({
      outcome: "failed",
      guard: "throws.ts",
      error: "cannot charge ORDER-1 yet",
      at: `throws.ts:${positionOf(file, "new Error")}`,
    });
  });

  test("one outside the project, returning what is not an outcome: says what it returned", async () => {
    const file = path.join(tmp(), "maybe.ts");
    writeFileSync(
      file,
      [
        'import { defineGuard } from "sqs-idempotency-lab/guard";',
        "// @ts-expect-error: not an outcome, on purpose",
        'export default defineGuard(async () => "maybe");',
        "",
      ].join("\n"),
    );
    const end = await runOnce(file, "maybe.ts");
    expect(end).toMatchObject({
      outcome: "failed",
      error: 'the guard returned "maybe", not an outcome',
    });
  });

  test("GUARD naming a file the bundle does not carry: every record fails, saying so", async () => {
    const end = await runOnce(broken("throws.ts"), "other.ts");
    expect(end).toMatchObject({
      outcome: "failed",
      error: expect.stringMatching(
        /GUARD=other\.ts names a guard file, but this function was built with throws\.ts/,
      ),
    });
  });
});
