// `lab insights`' window options: the times and durations a person types, the defaults (since
// `up`, until now), the filters on the lab's own sends, and the one line a bad value gets.
import { spawnSync } from "node:child_process";
import { InvalidArgumentError } from "commander";
import { describe, expect, test } from "vitest";
import {
  checkWindowOptions,
  lastStretch,
  parseDuration,
  parseSendNumber,
  parseSends,
  parseTime,
  resolveWindow,
  withTail,
} from "../../harness/cli/insights-window.js";
import { UsageError } from "../../harness/common/errors.js";
import type { WorkerEvent } from "../../harness/observe/events.js";
import { textWindow } from "../../harness/report/text.js";
import { experimentStart, type SavedLab } from "../../harness/workshop/lab-state.js";
import { npxLab } from "../node-tsx.js";
import { tempFolder } from "../temp-folder.js";

// Local time throughout, as the user's clock reads it: the expectations are built the same way.
const NOW = new Date(2026, 8, 1, 8, 10, 0); // 1 September 2026, 08:10 local
const local = (h: number, m: number, s = 0, ms = 0) => new Date(2026, 8, 1, h, m, s, ms).getTime();

describe("parseTime", () => {
  test.each([
    ["08:05", local(8, 5)],
    ["8:05:30", local(8, 5, 30)],
    ["23:59:59", local(23, 59, 59)],
    ["2026-09-01T08:05:00", local(8, 5)],
    ["2026-09-01 08:05", local(8, 5)],
    ["2026-09-01T08:05:00.250", local(8, 5, 0, 250)],
    ["2026-09-01", local(0, 0)], // a day alone is its local midnight, not UTC's
    ["2026-09-01T08:05:00Z", Date.UTC(2026, 8, 1, 8, 5)],
    ["2026-09-01T08:05:00.123Z", Date.UTC(2026, 8, 1, 8, 5, 0, 123)],
    ["2026-09-01T10:05:00+02:00", Date.UTC(2026, 8, 1, 8, 5)],
    ["2026-09-01T05:05-0300", Date.UTC(2026, 8, 1, 8, 5)],
  ])("%s", (text, expected) => {
    expect(parseTime(text, NOW)).toBe(expected);
  });

  test("what JavaScript's Date takes, round-tripped, is taken the same way", () => {
    const iso = new Date(Date.UTC(2026, 8, 1, 8, 5, 7, 89)).toISOString();
    expect(parseTime(iso, NOW)).toBe(Date.UTC(2026, 8, 1, 8, 5, 7, 89));
  });

  test.each([
    "noon",
    "",
    "24:00",
    "08:60",
    "8",
    "2026-02-30T08:00", // Date would quietly make it March 2
    "2026-13-01",
    "2026-09-01T08:05:61",
    "01/09/2026",
    "yesterday 08:00",
  ])("%j is not a time", (text) => {
    expect(() => parseTime(text, NOW)).toThrow(InvalidArgumentError);
    expect(() => parseTime(text, NOW)).toThrow(/is not a time; use ISO-8601 .* or HH:MM\[:SS\]/);
  });
});

describe("parseDuration", () => {
  test.each([
    ["90s", 90_000],
    ["5m", 300_000],
    ["1h", 3_600_000],
    ["1.5h", 5_400_000],
    ["2d", 172_800_000],
    ["10M", 600_000],
    ["0.5s", 500], // --tail's stretch is often under a second
  ])("%s", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each([
    ["5x", /unknown unit "x" in "5x"; use s, m, h or d/],
    ["5min", /unknown unit "min"/],
    ["90", /"90" needs a unit/],
    ["0s", /no time at all/],
    ["soon", /"soon" is not a duration/],
    ["-5m", /"-5m" is not a duration/],
  ])("%s is refused", (text, message) => {
    expect(() => parseDuration(text)).toThrow(message);
  });
});

describe("parseSends", () => {
  test("last and all, nothing else", () => {
    expect(parseSends("last")).toBe("last");
    expect(parseSends("all")).toBe("all");
    expect(() => parseSends("first")).toThrow(/"first" is not a choice: last .* or all/);
  });
});

describe("parseSendNumber", () => {
  test("1 is the first send; nothing but a whole number from 1", () => {
    expect(parseSendNumber("1")).toBe(1);
    expect(parseSendNumber(" 12 ")).toBe(12);
    for (const bad of ["0", "-1", "2.5", "two", ""]) {
      expect(() => parseSendNumber(bad)).toThrow(InvalidArgumentError);
      expect(() => parseSendNumber(bad)).toThrow(/is not a send's number: 1 is the first/);
    }
  });
});

describe("resolveWindow", () => {
  const upAt = local(8, 1, 5);
  const now = local(8, 9, 40);

  test("by default: since up, until now, every message", () => {
    expect(resolveWindow({}, upAt, now)).toEqual({
      sinceMs: upAt,
      untilMs: now,
      sinceUp: true,
      untilNow: true,
    });
  });

  test("--since and --until replace the defaults", () => {
    const window = resolveWindow({ since: local(8, 3), until: local(8, 5) }, upAt, now);
    expect(window).toMatchObject({ sinceMs: local(8, 3), untilMs: local(8, 5), sinceUp: false });
    expect(window.untilNow).toBe(false);
  });

  test("--last counts back from --until, or from now", () => {
    expect(resolveWindow({ last: 90_000 }, upAt, now).sinceMs).toBe(now - 90_000);
    expect(resolveWindow({ last: 60_000, until: local(8, 5) }, upAt, now).sinceMs).toBe(
      local(8, 4),
    );
  });

  test("--sends keeps the lab's own sends; --all is --sends all", () => {
    expect(resolveWindow({ sends: "last" }, upAt, now).sends).toBe("last");
    expect(resolveWindow({ sends: "all" }, upAt, now).sends).toBe("all");
    expect(resolveWindow({ all: true }, upAt, now).sends).toBe("all");
    expect(resolveWindow({ all: true, sends: "all" }, upAt, now).sends).toBe("all");
    expect(resolveWindow({}, upAt, now)).not.toHaveProperty("sends");
  });

  test("--since-send starts the window when that send began, and the heading says which", () => {
    const sendsAt = [local(8, 2), local(8, 4, 30), local(8, 7)];
    const window = resolveWindow({ sinceSend: 2 }, upAt, now, sendsAt);
    expect(window).toEqual({
      sinceMs: local(8, 4, 30),
      untilMs: now,
      sinceUp: false,
      untilNow: true,
      sinceSend: 2,
    });
    expect(resolveWindow({ sinceSend: 3, sends: "all" }, upAt, now, sendsAt)).toMatchObject({
      sinceMs: local(8, 7),
      sends: "all",
    });
    expect(() => resolveWindow({ sinceSend: 2, until: local(8, 3) }, upAt, now, sendsAt)).toThrow(
      /--since-send .* is not before --until/,
    );
    expect(resolveWindow({ sinceSend: 1, until: local(8, 5) }, upAt, now, sendsAt)).toMatchObject({
      sinceMs: local(8, 2),
      untilMs: local(8, 5),
      untilNow: false,
    });
  });

  test.each([
    [
      [local(8, 2), local(8, 3)],
      3,
      /--since-send 3: there have been 2 `lab send`s since up: give 1 to 2/,
    ],
    [[local(8, 2)], 2, /--since-send 2: there has been 1 `lab send` since up: give 1$/],
    [[], 1, /--since-send 1: nothing was sent with `lab send` since up/],
  ])("a send that never happened (%j, --since-send %i) is a usage error", (sendsAt, n, message) => {
    expect(() => resolveWindow({ sinceSend: n }, upAt, now, sendsAt)).toThrow(UsageError);
    expect(() => resolveWindow({ sinceSend: n }, upAt, now, sendsAt)).toThrow(message);
  });

  test.each([
    [{ since: local(8, 5), until: local(8, 3) }, /--since .* is not before --until/],
    [{ since: local(8, 5), until: local(8, 5) }, /--since .* is not before --until/],
    [{ since: local(9, 0) }, /--since .* is not before now/],
    [{ until: local(8, 0) }, /the start \(when `up` or `reset` ran\) .* is not before --until/],
    [{ since: local(8, 2), last: 60_000 }, /--since and --last both say where the window starts/],
    [{ since: local(8, 2), sinceSend: 1 }, /--since and --since-send both say where the window/],
    [{ last: 60_000, sinceSend: 1 }, /--last and --since-send both say where the window starts/],
    [
      { all: true, sends: "last" as const },
      /--all means --sends all, which --sends last contradicts/,
    ],
  ])("%j is a usage error", (options, message) => {
    expect(() => resolveWindow(options, upAt, now)).toThrow(UsageError);
    expect(() => resolveWindow(options, upAt, now)).toThrow(message);
  });

  test("contradictions between options are found without the lab (no upAt needed)", () => {
    expect(() => checkWindowOptions({ since: local(8, 5), until: local(8, 3) })).toThrow(
      UsageError,
    );
    expect(() => checkWindowOptions({ since: local(8, 3), until: local(8, 5) })).not.toThrow();
  });
});

describe("textWindow", () => {
  const event = (messageId: string): WorkerEvent => ({
    type: "process_start",
    orderId: "ORDER-1",
    messageId,
    requestId: "r",
    guard: "off",
    ts: "",
    attempt: 1,
  });

  test("says which stretch and which messages the views cover", () => {
    const today = new Date();
    const at = (h: number, m: number, s: number) =>
      new Date(today.getFullYear(), today.getMonth(), today.getDate(), h, m, s).getTime();
    const heading = textWindow(
      {
        logGroup: "/aws/lambda/x-worker",
        sinceMs: at(8, 1, 5),
        untilMs: at(8, 9, 40),
        sinceUp: true,
        untilNow: true,
      },
      [event("a"), event("b"), event("a")],
    );
    expect(heading).toBe(
      "log group /aws/lambda/x-worker: 08:01:05 (up) to 08:09:40 (now), every message (2 messages, 3 events)",
    );
    const lastSend = textWindow(
      { logGroup: "g", sinceMs: at(8, 1, 5), untilMs: at(8, 2, 0), sends: "last" },
      [event("a")],
    );
    expect(lastSend).toBe(
      "log group g: 08:01:05 to 08:02:00, the last lab send (1 message, 1 event)",
    );
    const sinceReset = textWindow(
      {
        logGroup: "g",
        sinceMs: at(8, 5, 0),
        untilMs: at(8, 6, 0),
        sinceUp: true,
        sinceReset: true,
      },
      [],
    );
    expect(sinceReset).toBe(
      "log group g: 08:05:00 (reset) to 08:06:00, every message (0 messages, 0 events)",
    );
    const fromSend = textWindow(
      { logGroup: "g", sinceMs: at(8, 1, 5), untilMs: at(8, 2, 0), sinceSend: 2, untilNow: true },
      [event("a"), event("b")],
    );
    expect(fromSend).toBe(
      "log group g: 08:01:05 (send 2) to 08:02:00 (now), every message (2 messages, 2 events)",
    );
  });

  test("a time on another day carries its date", () => {
    const longAgo = (h: number, m: number, s = 0) => new Date(2020, 0, 2, h, m, s).getTime();
    const heading = textWindow(
      { logGroup: "g", sinceMs: longAgo(8, 1, 5), untilMs: longAgo(8, 2), sends: "all" },
      [],
    );
    expect(heading).toBe(
      "log group g: 2020-01-02 08:01:05 to 2020-01-02 08:02:00, every lab send since up (0 messages, 0 events)",
    );
  });
});

describe("--tail: the last stretch by the worker's ts, counted back from the newest line", () => {
  // One copy of the article's kind: it starts, works WORK_MS, charges and ends, with a quick
  // duplicate that started and skipped meanwhile.
  const at = (ms: number) => new Date(Date.UTC(2026, 8, 1, 8, 5, 0, ms)).toISOString();
  const line = (type: WorkerEvent["type"], messageId: string, ms: number): WorkerEvent =>
    ({
      type,
      orderId: "ORDER-003",
      messageId,
      requestId: "r",
      guard: "claim",
      ts: at(ms),
    }) as WorkerEvent;
  const log = [
    line("process_start", "winner", 0),
    line("claim_won", "winner", 50),
    line("process_start", "loser", 60),
    line("claim_lost", "loser", 70),
    line("process_end", "loser", 70),
    line("charge_applied", "winner", 1050),
    line("process_end", "winner", 1060),
  ];

  test("keeps the ends of invocations that began before it, not their starts", () => {
    const stretch = lastStretch(log, 500);
    expect(stretch?.events.map((e) => `${e.type} ${e.messageId}`)).toEqual([
      "charge_applied winner",
      "process_end winner",
    ]);
    expect(stretch).toMatchObject({
      fromMs: Date.parse(at(560)),
      toMs: Date.parse(at(1060)),
    });
  });

  test("the newest line wherever it comes in the list; the stretch's edge is inclusive", () => {
    const stretch = lastStretch([...log].reverse(), 990);
    expect(stretch?.events.map((e) => `${e.type} ${e.messageId}`)).toEqual([
      "process_end winner",
      "charge_applied winner",
      "process_end loser",
      "claim_lost loser",
    ]);
  });

  test("long enough, it is the whole log; with no line there is no stretch", () => {
    expect(lastStretch(log, 60_000)?.events).toHaveLength(log.length);
    expect(lastStretch([], 500)).toBeUndefined();
  });

  test("the heading says the stretch before its counts, in the timeline's clock", () => {
    const heading =
      "log group g: 08:01:05 (up) to 08:09:40 (now), every message (1 message, 2 events)";
    expect(withTail(heading, 500, lastStretch(log, 500))).toBe(
      "log group g: 08:01:05 (up) to 08:09:40 (now), every message, lines whose ts is in the last 0.5 s before the newest, ts 08:05:00.560 to 08:05:01.060 UTC (1 message, 2 events)",
    );
    expect(
      withTail(
        "log group g: 08:01:05 to 08:02:00, the last lab send (0 messages, 0 events)",
        3000,
        undefined,
      ),
    ).toBe(
      "log group g: 08:01:05 to 08:02:00, the last lab send, lines whose ts is in the last 3 s before the newest (none) (0 messages, 0 events)",
    );
  });
});

describe("npx lab insights with a bad window", () => {
  const home = tempFolder("lab-insights-"); // no lab is up here
  const lab = (...args: string[]) =>
    spawnSync(...npxLab(args), {
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, LAB_HOME: home },
    });

  test.each([
    [["--last", "5x"], /unknown unit "x" in "5x"/],
    [["--since", "noon"], /"noon" is not a time/],
    [["--since", "2026-09-01T08:05", "--until", "2026-09-01T08:00"], /is not before --until/],
    [["--sends", "some"], /"some" is not a choice/],
    [["--tail", "500"], /"500" needs a unit/],
    [["--since-send", "0"], /"0" is not a send's number/],
    [["--since-send", "2", "--last", "5m"], /--last and --since-send both say/],
  ])("%j exits 2 with one line, before looking for a lab", (args, message) => {
    const result = lab("insights", ...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("where the default window starts", () => {
  const lab: SavedLab = {
    backend: {
      name: "ministack",
      emulator: "ministack",
      version: "1.5.33",
      endpoint: "http://127.0.0.1:4566",
    },
    prefix: "p",
    upAt: 1_000,
    sends: [],
  };
  test("at up, until a reset; then at the last reset", () => {
    expect(experimentStart(lab)).toEqual({ at: 1_000, by: "up" });
    expect(experimentStart({ ...lab, resetAt: 5_000 })).toEqual({ at: 5_000, by: "reset" });
    expect(resolveWindow({}, experimentStart({ ...lab, resetAt: 5_000 }).at, 9_000).sinceMs).toBe(
      5_000,
    );
  });
});
