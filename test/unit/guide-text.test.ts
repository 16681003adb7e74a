// How the guide check reads a guide and compares a printed sample with a run's output.
import { describe, expect, test } from "vitest";
import {
  guideSteps,
  normalize,
  refreshedSample,
  unmatchedLines,
  withSamples,
} from "../guide/guide-text.js";

const guide = [
  "## 1. Guard off", //                         1
  "",
  "```sh",
  "npx lab send --order-id ORDER-001 --copies 2   # two copies",
  "```",
  "",
  "```text",
  "  [1/2] MessageId 698c719c-c22f-43d0-88f0-d92ddd3b81c3  body {}",
  "  [2/2] MessageId d1802ca0-0ac3-48bf-8a7b-93d5be90b6d1  body {}",
  "lab   1/2 messages ended",
  "all 2 ended in 1.9 s: npx lab insights",
  "```",
  "",
  "<!-- guide: not checked: npm's output -->",
  "```sh",
  "npm ci",
  "```",
  "```text",
  "added 261 packages in 30s",
  "```",
].join("\n");

describe("reading a guide", () => {
  test("each command block with the output block beneath it, its part and its directive", () => {
    const steps = guideSteps(guide);
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({
      part: "1",
      line: 3,
      commands: ["npx lab send --order-id ORDER-001 --copies 2"],
      sample: { open: 7, close: 12 },
    });
    expect(steps[0]?.notChecked).toBeUndefined();
    expect(steps[1]?.notChecked).toBe("npm's output");
  });

  test("a block whose last command fails on purpose says with which code; the others exit 0", () => {
    const steps = guideSteps(
      [
        "## 16. Write your own guard",
        "<!-- guide: exits 1 -->",
        "```sh",
        "npm run grade -- exercises/my-guard.ts",
        "```",
        "",
        "```text",
        "✗ racing copies",
        "```",
        "",
        "```sh",
        "npm run grade -- exercises/answers/3-fenced-lease.ts",
        "```",
      ].join("\n"),
    );
    expect(steps.map((s) => s.exits)).toEqual([1, undefined]);
    expect(steps[0]?.sample?.lines).toEqual(["✗ racing copies"]);
  });
});

describe("comparing a sample with a run", () => {
  const sample = guideSteps(guide)[0]?.sample;
  if (!sample) throw new Error("no sample");

  test("ids, times and padding differ, counts do not: it matches", () => {
    const run = [
      "  [2/2] MessageId 0b6e1c59-5d7e-4a7c-9a53-1f0b1f6a2c11      body {}",
      "  [1/2] MessageId 2f7a0c1d-2222-4b3b-8c4c-000000000000  body {}",
      "all 2 ended in 12.4 s: npx lab insights",
    ];
    expect(unmatchedLines(sample, run)).toEqual([]);
  });

  test("a count that changed is reported with its guide line", () => {
    const run = [
      "  [1/2] MessageId 2f7a0c1d-2222-4b3b-8c4c-000000000000  body {}",
      "  [2/2] MessageId 0b6e1c59-5d7e-4a7c-9a53-1f0b1f6a2c11  body {}",
      "all 3 ended in 1.9 s: npx lab insights",
    ];
    expect(unmatchedLines(sample, run)).toEqual([
      { line: 11, text: "all 2 ended in 1.9 s: npx lab insights" },
    ]);
  });

  test("where counts vary (a natural race) numbers are not compared, words are", () => {
    const [race] = guideSteps(
      [
        "### 4. Racing copies",
        "<!-- guide: counts vary: a natural race -->",
        "```sh",
        "npx lab scenario racing-copies",
        "```",
        "",
        "```text",
        "  │ ORDER-004 │ 10 │ 5 │ 5 │ 0 │ ✗ duplicated │",
        "  ledger items 5 · dead-lettered 0 · max concurrent invocations 5",
        "```",
      ].join("\n"),
    );
    if (!race?.sample) throw new Error("no sample");
    expect(race.countsVary).toBe("a natural race");
    const busy = [
      "  │ ORDER-004 │ 10 │ 4 │ 4 │ 0 │ ✗ duplicated │",
      "  ledger items 4 · dead-lettered 0 · max concurrent invocations 4",
    ];
    expect(unmatchedLines(race.sample, busy, true)).toEqual([]);
    expect(unmatchedLines(race.sample, busy, false).map((m) => m.line)).toEqual([8, 9]);
    const anotherVerdict = ["  │ ORDER-004 │ 10 │ 1 │ 1 │ 0 │ ✓ exactly once │", busy[1] ?? ""];
    expect(unmatchedLines(race.sample, anotherVerdict, true).map((m) => m.line)).toEqual([8]);
  });

  test("each line of the run is used once: two sample lines need two run lines", () => {
    const run = ["  [1/2] MessageId 2f7a0c1d-2222-4b3b-8c4c-000000000000  body {}"];
    expect(unmatchedLines(sample, run).map((m) => m.line)).toEqual([9, 11]);
  });

  test("masks: a timeline row of another run normalises to the same line", () => {
    expect(
      normalize(
        "│ 13:50:35.911 │ process_end    │ 83e3a3c2  │ ORDER-001 │ outcome=charged durationMs=1074 │",
      ),
    ).toBe(
      normalize(
        "│ 09:01:02.003 │ process_end │ 0a1b2c3d │ ORDER-001 │ outcome=charged durationMs=998 │",
      ),
    );
    expect(normalize("lab is up: ministack 1.5.33 at http://127.0.0.1:38945")).toBe(
      normalize("lab is up: ministack 1.5.33 at http://127.0.0.1:40271"),
    );
    expect(normalize("charges 4")).not.toBe(normalize("charges 5"));
  });
});

describe("refreshing a sample from a run", () => {
  const run = [
    "Phase 1/2: guard off",
    "  ✓ charges: 4",
    "  ✓ messages: 4",
    "Phase 2/2: claim",
    "  ✓ charges: 1",
    "PASS guard-off: every check held (2.1 s)",
    "lab   3/6 messages ended",
  ];

  test("a sample that showed it all becomes the whole output, less the speed-dependent lines", () => {
    expect(refreshedSample(run.slice(0, 5), run).lines).toEqual(run.slice(0, 6));
  });

  test("an excerpt keeps its lines, each replaced by the run's line that matches it", () => {
    const old = [
      "Phase 1/2: guard off",
      "…",
      "  ✓ charges: 3",
      "PASS guard-off: every check held (9.9 s)",
    ];
    expect(refreshedSample(old, run)).toEqual({
      lines: [
        "Phase 1/2: guard off",
        "…",
        "  ✓ charges: 4",
        "PASS guard-off: every check held (2.1 s)",
      ],
      dropped: [],
    });
  });

  test("a line with nothing like it in the run is dropped, and said", () => {
    const old = ["Phase 1/2: guard off", "…", "  a line the lab no longer prints at all"];
    expect(refreshedSample(old, run)).toEqual({
      lines: ["Phase 1/2: guard off", "…"],
      dropped: ["  a line the lab no longer prints at all"],
    });
  });

  test("written back between the fences, the rest of the guide untouched", () => {
    const step = guideSteps(guide)[0];
    const updated = withSamples(guide, new Map([[step?.sample?.open ?? 0, ["new line"]]]));
    expect(updated.split("\n").slice(5, 9)).toEqual(["", "```text", "new line", "```"]);
    expect(updated.split("\n").at(-2)).toBe("added 261 packages in 30s");
  });
});
