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
const PART = /^##\s+([\d–-]+)\.|^##\s+(Wrap-up|Encerramento)/;

/** The guide's command blocks (```sh), in order, each with the ```text block that follows it. */
export function guideSteps(markdown: string): GuideStep[] {
  const lines = markdown.split("\n");
  const steps: GuideStep[] = [];
  let part = "intro";
  let notChecked: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const heading = PART.exec(line);
    if (heading) part = heading[1] ?? "wrap-up";
    const marker = NOT_CHECKED.exec(line.trim());
    if (marker) notChecked = marker[1];
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
      });
      notChecked = undefined;
    } else if (fence[1] === "text" && steps.length > 0 && followsCommand(lines, i, steps)) {
      const step = steps[steps.length - 1] as GuideStep;
      step.sample = { open: i + 1, close: end + 1, lines: lines.slice(i + 1, end) };
      if (notChecked) step.notChecked = notChecked;
      notChecked = undefined;
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
    if (line !== "" && !NOT_CHECKED.test(line)) return false;
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

/** The sample's lines that no line of the run matches (each run line is used once). */
export function unmatchedLines(sample: Sample, actual: string[]): Mismatch[] {
  const pool = new Map<string, number>();
  for (const line of actual) {
    if (isTimingLine(line)) continue;
    const key = normalize(line);
    pool.set(key, (pool.get(key) ?? 0) + 1);
  }
  const missing: Mismatch[] = [];
  sample.lines.forEach((text, i) => {
    if (isElision(text) || text.trim() === "" || isTimingLine(text)) return;
    const key = normalize(text);
    const left = pool.get(key) ?? 0;
    if (left > 0) pool.set(key, left - 1);
    else missing.push({ line: sample.open + 1 + i, text });
  });
  return missing;
}

/**
 * A new sample from a run, shaped like the old one: as many lines from the start and from the
 * end as the old one showed around its "…"; a middle stretch is kept where its first line is
 * found again. A sample without "…" becomes the whole output.
 */
export function refreshedSample(old: string[], actual: string[]): string[] {
  const trimmed = trimBlank(actual.filter((line) => !isTimingLine(line)));
  const segments = splitOnElision(old);
  if (segments.length === 1) return trimmed;
  const head = segments[0] as string[];
  const tail = segments[segments.length - 1] as string[];
  const out = trimmed.slice(0, head.length);
  let from = head.length;
  for (const middle of segments.slice(1, -1)) {
    const first = middle[0];
    const at =
      first === undefined
        ? -1
        : trimmed.findIndex((l, i) => i >= from && normalize(l) === normalize(first));
    if (at < 0) continue;
    out.push(ELISION, ...trimmed.slice(at, at + middle.length));
    from = at + middle.length;
  }
  const tailStart = Math.max(from, trimmed.length - tail.length);
  if (tailStart > from) out.push(ELISION);
  out.push(...trimmed.slice(tailStart));
  return out;
}

function splitOnElision(lines: string[]): string[][] {
  const segments: string[][] = [[]];
  for (const line of lines) {
    if (isElision(line)) segments.push([]);
    else (segments[segments.length - 1] as string[]).push(line);
  }
  return segments;
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
