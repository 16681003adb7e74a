// The workshop guides as data: each command block with the output block printed beneath it, and
// how a printed sample is compared with what a real run printed. Pure; test/guide/run-guide.ts
// runs the commands.
//
// A sample may leave lines out with a line that is just "…". What varies from run to run (ids,
// ports, clock times, durations, versions) is masked on both sides, and runs of spaces (a
// table's padding follows its widest cell) count as one. Each line of a sample must match a line
// of the run, each run line used once; the order of lines is not compared, since copies that run
// at the same time log in an order no run repeats.

export interface GuideStep {
  /** 1-based line of the command block's opening fence. */
  line: number;
  /** The part of the guide ("0", "1", "4–9", ...), from the last `## N.` heading. */
  part: string;
  commands: string[];
  /** The output block printed beneath it, if any. */
  sample?: Sample;
  /** Why the sample is not compared (`<!-- guide: not checked: reason -->` above either block). */
  notChecked?: string;
  /**
   * Why the sample's numbers are not compared, its words are (`<!-- guide: counts vary: reason
   * -->` above either block): a natural race, whose overlap depends on the machine's load.
   */
  countsVary?: string;
  /**
   * The exit code the block's last command ends with when the lesson is that it fails
   * (`<!-- guide: exits N -->` above the block, e.g. a grade with ✗ rows); 0 unless said.
   */
  exits?: number;
}

export interface Sample {
  /** 1-based lines of the output block's fences: the text is between them. */
  open: number;
  close: number;
  lines: string[];
}

export const ELISION = "…";

/** "…" alone, or inside a box (`    │ …`): lines left out of a sample. */
const isElision = (line: string) => line.replace(/[│\s]/g, "") === ELISION;

/**
 * Lines a run prints or not depending on how fast the machine is: progress while waiting, and a
 * step's "still working" and "done in" lines (shown only past a second). Neither side's count.
 */
const TIMING_LINES = [/^lab\s+\d+\/\d+ messages ended$/, /^lab .*…$/, /^lab .*: done in [\d.]+ s$/];
export const isTimingLine = (line: string) => TIMING_LINES.some((p) => p.test(line.trim()));

const FENCE = /^```(\w*)\s*$/;
const NOT_CHECKED = /^<!-- guide: not checked: (.+?) -->$/;
const COUNTS_VARY = /^<!-- guide: counts vary: (.+?) -->$/;
const EXITS = /^<!-- guide: exits (\d+) -->$/;
const PART = /^##\s+([\d–-]+)\.|^##\s+(Wrap-up|Encerramento)/;

/** The guide's command blocks (```sh), in order, each with the ```text block that follows it. */
export function guideSteps(markdown: string): GuideStep[] {
  const lines = markdown.split("\n");
  const steps: GuideStep[] = [];
  let part = "intro";
  let notChecked: string | undefined;
  let countsVary: string | undefined;
  let exits: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const heading = PART.exec(line);
    if (heading) part = heading[1] ?? "wrap-up";
    const marker = NOT_CHECKED.exec(line.trim());
    if (marker) notChecked = marker[1];
    const varyMarker = COUNTS_VARY.exec(line.trim());
    if (varyMarker) countsVary = varyMarker[1];
    const exitMarker = EXITS.exec(line.trim());
    if (exitMarker) exits = Number(exitMarker[1]);
    const fence = FENCE.exec(line);
    if (!fence) continue;
    const end = closingFence(lines, i);
    if (fence[1] === "sh") {
      const commands = lines.slice(i + 1, end).filter((c) => c.trim() && !c.trim().startsWith("#"));
      steps.push({
        line: i + 1,
        part,
        commands: commands.map(stripComment),
        ...(notChecked ? { notChecked } : {}),
        ...(countsVary ? { countsVary } : {}),
        ...(exits === undefined ? {} : { exits }),
      });
      notChecked = undefined;
      countsVary = undefined;
      exits = undefined;
    } else if (fence[1] === "text" && steps.length > 0 && followsCommand(lines, i, steps)) {
      const step = steps[steps.length - 1] as GuideStep;
      step.sample = { open: i + 1, close: end + 1, lines: lines.slice(i + 1, end) };
      if (notChecked) step.notChecked = notChecked;
      if (countsVary) step.countsVary = countsVary;
      notChecked = undefined;
      countsVary = undefined;
    }
    i = end;
  }
  return steps;
}

function closingFence(lines: string[], open: number): number {
  for (let j = open + 1; j < lines.length; j++) if (/^```\s*$/.test(lines[j] ?? "")) return j;
  throw new Error(`the code block opened on line ${open + 1} is never closed`);
}

/** An output block belongs to the command block just above it, with only blank lines between. */
function followsCommand(lines: string[], textOpen: number, steps: GuideStep[]): boolean {
  const last = steps[steps.length - 1] as GuideStep;
  if (last.sample) return false;
  for (let j = textOpen - 1; j >= 0; j--) {
    const line = (lines[j] ?? "").trim();
    if (line === "```") return true; // the command block's closing fence
    if (line !== "" && ![NOT_CHECKED, COUNTS_VARY, EXITS].some((m) => m.test(line))) return false;
  }
  return false;
}

/** `npx lab up   # comment` → `npx lab up`; a `#` inside quotes stays. */
function stripComment(command: string): string {
  return command.replace(/\s+#\s[^'"]*$/, "").trim();
}

/** What differs between two honest runs, replaced by a name for it. */
const MASKS: [RegExp, string][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>"],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, "<timestamp>"],
  [/\b\d{2}:\d{2}:\d{2}(\.\d{3})?\b/g, "<time>"],
  [/(127\.0\.0\.1|localhost):\d+/g, "$1:<port>"],
  [/ministack-\d+\.log/g, "ministack-<port>.log"],
  [/\bpid \d+/g, "pid <pid>"],
  [/\b\d+ KB zip\b/g, "<size> KB zip"],
  [/\b(durationMs|waitedMs|ms)=\d+/g, "$1=<ms>"],
  // Retries while a lease is busy vary with timing; the lessons count events, not calls.
  [/\bdynamoCalls=\d+/g, "dynamoCalls=<n>"],
  [/\b1\d{12}\b/g, "<epoch ms>"],
  [/\b1\d{9}\b/g, "<epoch s>"],
  // fifo-dedup's order ids carry a run suffix: MiniStack's purge keeps deduplication ids.
  [/\b(ORDER-\d+)-[0-9a-f]{4}\b/g, "$1-<run>"],
  [/\b\d+(\.\d+)? ?(ms|s)\b/g, "<duration>"],
  [/\bv\d+\.\d+\.\d+\b/g, "v<version>"],
  [/\b[0-9a-f]{8}\b/g, "<id>"],
];

/** A line as the comparison sees it: masked, padding collapsed, table rules shortened. */
export function normalize(line: string): string {
  let out = line;
  for (const [pattern, name] of MASKS) out = out.replace(pattern, name);
  return out
    .replace(/─+/g, "─")
    .replace(/[ \t]+/g, " ")
    .trim();
}

export interface Mismatch {
  /** 1-based line in the guide. */
  line: number;
  text: string;
}

/**
 * The sample's lines that no line of the run matches (each run line is used once). Where counts
 * vary (a natural race), every number is masked too: the words and verdicts must still match.
 */
export function unmatchedLines(sample: Sample, actual: string[], countsVary = false): Mismatch[] {
  const keyOf = (line: string) =>
    countsVary ? normalize(line).replace(/\d+/g, "<n>") : normalize(line);
  const pool = new Map<string, number>();
  for (const line of actual) {
    if (isTimingLine(line)) continue;
    const key = keyOf(line);
    pool.set(key, (pool.get(key) ?? 0) + 1);
  }
  const missing: Mismatch[] = [];
  sample.lines.forEach((text, i) => {
    if (isElision(text) || text.trim() === "" || isTimingLine(text)) return;
    const key = keyOf(text);
    const left = pool.get(key) ?? 0;
    if (left > 0) pool.set(key, left - 1);
    else missing.push({ line: sample.open + 1 + i, text });
  });
  return missing;
}

/**
 * A new sample from a run, as close to the old one as the run allows. A sample that showed the
 * whole output (no "…", most of its lines) becomes the whole new output. An excerpt keeps its
 * shape: each of its lines is replaced by the run's line it matches (masked), or else by the
 * most similar line after the one before it (a count or a word that changed); a line with
 * nothing like it in the run is dropped and named in `dropped`. "…" lines stay.
 */
export function refreshedSample(
  old: string[],
  actual: string[],
): { lines: string[]; dropped: string[] } {
  const run = trimBlank(actual.filter((line) => !isTimingLine(line)));
  const shown = old.filter((l) => l.trim() !== "" && !isTimingLine(l));
  const excerpt = shown.some(isElision) || shown.length < run.length * 0.6;
  if (!excerpt) return { lines: run, dropped: [] };
  const used = new Set<number>();
  const lines: string[] = [];
  const dropped: string[] = [];
  let cursor = 0;
  for (const line of old) {
    if (isElision(line) || line.trim() === "") {
      if (lines.at(-1) !== line) lines.push(line);
      continue;
    }
    if (isTimingLine(line)) continue;
    const at = bestMatch(line, run, cursor, used);
    if (at === undefined) {
      dropped.push(line);
      continue;
    }
    used.add(at);
    lines.push(run[at] as string);
    cursor = at + 1;
  }
  return { lines: trimBlank(lines), dropped };
}

/** The run line equal to `line` once masked (after `from` first, then anywhere), else the most similar after `from`. */
function bestMatch(
  line: string,
  run: string[],
  from: number,
  used: Set<number>,
): number | undefined {
  const key = normalize(line);
  const free = (i: number) => !used.has(i);
  const equalAfter = run.findIndex((l, i) => i >= from && free(i) && normalize(l) === key);
  if (equalAfter >= 0) return equalAfter;
  const equalAnywhere = run.findIndex((l, i) => free(i) && normalize(l) === key);
  if (equalAnywhere >= 0) return equalAnywhere;
  let best: number | undefined;
  let bestScore = 0.6; // below this, it is another line, not this one changed
  run.forEach((l, i) => {
    if (i < from || !free(i)) return;
    const score = similarity(key, normalize(l));
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/** The share of words two lines have in common (a table's cells count as words). */
function similarity(a: string, b: string): number {
  const words = (s: string) => s.split(/[\s│]+/).filter(Boolean);
  const left = words(a);
  const right = new Map<string, number>();
  for (const w of words(b)) right.set(w, (right.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of left) {
    const n = right.get(w) ?? 0;
    if (n > 0) {
      common++;
      right.set(w, n - 1);
    }
  }
  return common / Math.max(left.length, words(b).length, 1);
}

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start]?.trim()) start++;
  while (end > start && !lines[end - 1]?.trim()) end--;
  return lines.slice(start, end);
}

/** The guide with its samples replaced: `samples` maps an output block's opening line to its new lines. */
export function withSamples(markdown: string, samples: Map<number, string[]>): string {
  const lines = markdown.split("\n");
  const opens = [...samples.keys()].sort((a, b) => b - a); // from the end, so lines keep their numbers
  for (const open of opens) {
    const close = closingFence(lines, open - 1);
    lines.splice(open, close - open, ...(samples.get(open) as string[]));
  }
  return lines.join("\n");
}
