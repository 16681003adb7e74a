// npm run grade -- <guard file or lab guard> [--html <file>] [--budget small|default] [--row <name>]…
// A guard against the guard matrix's failure modes and the interleaving explorer, in one report.
// Exit codes: 0 every graded row held and the explorer found no failure, 1 not, 2 a usage error
// (a guard file that does not compile, or exports no function, included), 3 the lab could not run.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { guardColumn } from "../../scenarios/guard-matrix.js";
import { DEFAULT_PREFIX } from "../aws/names.js";
import { EXIT, LabError, UsageError } from "../common/errors.js";
import { labRegion } from "../common/region.js";
import { say } from "../common/say.js";
import { openSession, type Session } from "../explore/session.js";
import {
  GRADE_BUDGETS,
  type GradeBudget,
  gradedFrom,
  gradeGuard,
  prepareGraded,
} from "../grade/grade.js";
import { gradeView } from "../grade/view.js";
import { textGrade } from "../report/grade-view.js";
import { htmlGrade } from "../report/html/grade-page.js";
import { closeOnSignal, openLab } from "../scenario/open-lab.js";
import { runCommand } from "./exit.js";
import { lanesFor } from "./lanes.js";

const USAGE =
  "usage: npm run grade -- <guard file, or off|naive|claim|lease|powertools> [--html <file>] [--budget small|default] [--row <failure mode>]… [--seed N]";

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        html: { type: "string" };
        budget: { type: "string" };
        row: { type: "string"; multiple: true };
        seed: { type: "string" };
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
        html: { type: "string" },
        budget: { type: "string" },
        row: { type: "string", multiple: true },
        seed: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}; ${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return EXIT.held;
  }
  const [given, ...extra] = positionals;
  if (!given) throw new UsageError(`name a guard file or a guard of the lab; ${USAGE}`);
  if (extra.length > 0) throw new UsageError(`one guard at a time; got ${positionals.join(", ")}`);
  const budget = (values.budget ?? "default") as GradeBudget;
  if (!(budget in GRADE_BUDGETS)) {
    throw new UsageError(
      `--budget is ${Object.keys(GRADE_BUDGETS).join(" or ")}, got "${values.budget}"`,
    );
  }
  if (values.html !== undefined && values.html.trim() === "")
    throw new UsageError("--html needs a file name");
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 31))
    throw new UsageError(`--seed is a whole number from 0 to 2147483647, got "${values.seed}"`);

  // Everything that can be wrong with the file is found before an emulator starts (exit 2).
  const graded = gradedFrom(given);
  const explored = await prepareGraded(graded);
  const column = guardColumn(graded.name);
  const opened = await openLab(
    say,
    (backend) => lanesFor(column, backend, true),
    graded.file ? { guardFile: graded.file } : {},
  );
  closeOnSignal(opened, say);
  let session: Session | undefined;
  try {
    const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
    session = await openSession(opened.backend.endpoint, { prefix, region: labRegion() });
    const result = await gradeGuard(opened.lanes, graded, explored, {
      budget,
      session,
      ...(seed === undefined ? {} : { seed }),
      ...(values.row ? { rows: values.row } : {}),
      say,
    });
    const view = gradeView(result);
    console.log(textGrade(view));
    if (values.html !== undefined) writeHtml(values.html, htmlGrade(view));
    return result.pass ? EXIT.held : EXIT.checkFailed;
  } finally {
    await session?.close();
    await opened.close();
  }
}

/** The HTML report, beside the text; where it went is said on stderr. */
function writeHtml(file: string, html: string): void {
  // npm run changes to the package root; a relative name means where the user typed it.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, html);
  } catch (err) {
    throw new LabError(`could not write the HTML report to ${target}: ${(err as Error).message}`);
  }
  say(`HTML report written to ${target}`);
}

runCommand("grade", () => main(process.argv.slice(2)));
