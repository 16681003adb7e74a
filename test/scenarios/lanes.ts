// Which test file runs on which lanes of the shared lab (one resource prefix each), so that no
// two files ever reset the same lane. A file with several lanes spreads a scenario's phases
// over them. Sized so the longest file (the matrix) ends about when the others do.
export const LANES = {
  article: [0],
  /** slow-holder's four phases side by side, beside the article's scenarios. */
  holder: [22, 23, 24, 38],
  matrix: [1, 3, 7, 12, 13],
  browser: [2],
  /**
   * Six: two failure scenarios at once, each with its three phases side by side (each waits for
   * SQS's retries).
   */
  failures: [4, 8, 25, 26, 27, 28],
  fuzz: [5],
  load: [6],
  /** The scenarios beyond the article's failures: batches, FIFO, expiry, provider key, clock; two at once. */
  beyond: [9, 10, 11, 32, 33, 34],
  /**
   * npx lab grade on the fixtures: a lane per guard file graded (each its own bundle), two for
   * the one graded on every row.
   */
  grade: [14, 15, 16, 17, 18, 19, 20, 21],
  /** When the answer is lost (lost-answer, payment-timeout): both at once, phases side by side. */
  answers: [29, 30, 31, 35, 36, 37],
  /**
   * npx lab grade on the guards' own choices (grade.test.ts): a key of its own, graded on every
   * row (two), the ledger written by hand, a guard doing odd things.
   */
  gradeChoices: [39, 40, 41, 42],
} as const;

export const LANE_COUNT = Math.max(...Object.values(LANES).flat()) + 1;

/**
 * On LocalStack, how many of its lanes a file uses: a container per execution environment and
 * a slower DynamoDB make each run costlier there. Two while slow-holder's gap was timed (more
 * phases at once slowed calls past it); with the orderings held by failpoints, four: the matrix
 * took 126 s instead of 206 s, every cell as expected. The failure and beyond-the-article files
 * ran on one lane until December 2026: 221 s and 167 s, most of it waiting for redeliveries
 * with the machine at 10-40% for the last minute, so they take their three lanes too.
 */
export const LOCALSTACK_LANES: Partial<Record<keyof typeof LANES, number>> = {
  matrix: 4,
  failures: 3,
  beyond: 3,
  answers: 3,
  /** Every one: a lane per guard file graded, as on MiniStack. */
  grade: LANES.grade.length,
  gradeChoices: LANES.gradeChoices.length,
};

/**
 * The lanes a test file runs on: all of its own, or on LocalStack as many as LOCALSTACK_LANES
 * says. On LocalStack slow-holder takes the article's lane, after its four scenarios (as
 * scenarios.test.ts runs it there): a lane more costs a container per execution environment.
 */
export function lanesOf(file: keyof typeof LANES, onLocalStack: boolean): readonly number[] {
  if (onLocalStack && file === "holder") return LANES.article;
  const lanes = LANES[file];
  return onLocalStack ? lanes.slice(0, LOCALSTACK_LANES[file] ?? 1) : lanes;
}

/**
 * Every lane some file runs on, lane 0 first: the test setup deploys these and no others (on
 * LocalStack 22 of the 39 are unused, each a function, four tables, four queues and two mappings).
 */
export function lanesUsed(onLocalStack: boolean): number[] {
  const files = Object.keys(LANES) as (keyof typeof LANES)[];
  const used = new Set([0, ...files.flatMap((file) => lanesOf(file, onLocalStack))]);
  return [...used].sort((a, b) => a - b);
}
