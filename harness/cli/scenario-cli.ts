// npm run scenario <name> [-- --json | --list]
// Exit codes: 0 every check passed, 1 a check failed, 2 usage error, 3 the lab could not run.
import { parseArgs } from "node:util";
import { findScenario, SCENARIOS } from "../../scenarios/index.js";
import { LabError, UsageError } from "../errors.js";
import { openLab } from "../lab.js";
import { renderScenario } from "../report.js";
import { runScenario } from "../run.js";
import { say } from "../say.js";
import { closest } from "./closest.js";

const USAGE = "usage: npm run scenario <name> [-- --json]   |   npm run scenario -- --list";

function listing(): string {
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  return SCENARIOS.map((s) => `  ${s.name.padEnd(width)}  ${s.title}`).join("\n");
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        json: { type: "boolean" };
        list: { type: "boolean" };
        help: { type: "boolean"; short: "h" };
      };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        list: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(`${USAGE}\n\nScenarios:\n${listing()}`);
    return 0;
  }
  if (values.list) {
    if (values.json)
      console.log(
        JSON.stringify(
          SCENARIOS.map(({ name, title, story }) => ({ name, title, story })),
          null,
          2,
        ),
      );
    else console.log(listing());
    return 0;
  }
  const [name, ...extra] = positionals;
  if (!name) throw new UsageError(`name a scenario.\n${USAGE}\n\nScenarios:\n${listing()}`);
  if (extra.length > 0)
    throw new UsageError(`one scenario at a time; got ${positionals.join(", ")}\n${USAGE}`);
  const scenario = findScenario(name);
  if (!scenario) {
    const hint = closest(
      name,
      SCENARIOS.map((s) => s.name),
    );
    throw new UsageError(
      `unknown scenario "${name}"${hint.length ? ` (did you mean ${hint.join(" or ")}?)` : ""}\n\nScenarios:\n${listing()}`,
    );
  }

  const opened = await openLab(say);
  const stopOnSignal = () => {
    say("interrupted: stopping the backend");
    void opened.close().finally(() => process.exit(130));
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  try {
    const result = await runScenario(scenario, opened.lab, say);
    console.log(values.json ? JSON.stringify(result, null, 2) : renderScenario(result));
    return result.pass ? 0 : 1;
  } finally {
    await opened.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`scenario: ${err.message}`);
      process.exit(2);
    }
    if (err instanceof LabError) {
      console.error(`scenario: ${err.message}`);
      process.exit(3);
    }
    console.error(`scenario: unexpected error: ${(err as Error).stack ?? String(err)}`);
    process.exit(3);
  },
);
