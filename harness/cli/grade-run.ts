// What `npx lab grade` does once its flags are read (commands/grade.ts): everything that can be
// wrong with the guard found before an emulator starts, then the column and the explorer side by
// side on a lab of its own, stopped at the end or on Ctrl-C.
import { guardColumn } from "../../scenarios/guard-column.js";
import { DEFAULT_PREFIX } from "../aws/names.js";
import { EXIT, UsageError } from "../common/errors.js";
import { cleanUpOnInterrupt } from "../common/interrupt.js";
import { labRegion } from "../common/region.js";
import { say } from "../common/say.js";
import { openSession, type Session } from "../explore/session.js";
import { type GradeBudget, gradedFrom, gradeGuard, prepareGraded } from "../grade/grade.js";
import { gradeView } from "../grade/view.js";
import { textGrade } from "../report/grade-view.js";
import { htmlGrade } from "../report/html/grade-page.js";
import { type OwnedLab, openLab } from "../scenario/open-lab.js";
import { lanesFor } from "./lanes.js";
import { writeHtml } from "./write-html.js";

const USAGE =
  "usage: npx lab grade <guard file, or off|naive|claim|lease|powertools> [--html <file>] [--budget small|default] [--row <failure mode>]… [--seed N]";

/** The flags, as commands/grade.ts reads them. */
export interface GradeOptions {
  html?: string;
  budget: GradeBudget;
  row?: string[];
  seed?: number;
}

export async function gradeRun(
  given: string | undefined,
  more: string[],
  options: GradeOptions,
): Promise<number> {
  if (!given) throw new UsageError(`name a guard file or a guard of the lab; ${USAGE}`);
  if (more.length > 0)
    throw new UsageError(`one guard at a time; got ${[given, ...more].join(", ")}`);

  // Everything that can be wrong with the file is found before an emulator starts (exit 2).
  const graded = gradedFrom(given);
  const explored = await prepareGraded(graded);
  const column = guardColumn(graded.name);
  let opened: OwnedLab | undefined;
  let session: Session | undefined;
  const stop = async () => {
    await session?.close();
    await opened?.close();
  };
  // Before anything starts: an interrupt while MiniStack starts or the lab deploys stops it too.
  cleanUpOnInterrupt(say, "deleting the explorer's tables and stopping the backend", stop);
  opened = await openLab(
    say,
    (backend) => lanesFor(column, backend, true),
    graded.file ? { guardFile: graded.file } : {},
  );
  try {
    const prefix = process.env.LAB_PREFIX || DEFAULT_PREFIX;
    session = await openSession(opened.backend.endpoint, { prefix, region: labRegion() });
    const result = await gradeGuard(opened.lanes, graded, explored, {
      budget: options.budget,
      session,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.row ? { rows: options.row } : {}),
      say,
    });
    const view = gradeView(result);
    console.log(textGrade(view));
    if (options.html !== undefined) writeHtml(options.html, htmlGrade(view));
    return result.pass ? EXIT.held : EXIT.checkFailed;
  } finally {
    await stop();
  }
}
