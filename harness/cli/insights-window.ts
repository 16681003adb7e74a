// `lab insights`' window over the log group, as Logs Insights asks for one: --since / --until
// (ISO-8601, or HH:MM[:SS] today in local time), --last <duration> or --since-send <n>, and
// --sends to keep only the lab's own sends; --tail keeps the last stretch of it by the worker's
// own clock. A bad value is a usage error (exit 2) naming what is wrong.
import { InvalidArgumentError } from "commander";
import { UsageError } from "../common/errors.js";
import type { WorkerEvent } from "../observe/events.js";
import { textWindow } from "../report/text.js";
import type { EventWindow, SendsFilter } from "../workshop/lab-events.js";
import { experimentStart } from "../workshop/lab-state.js";
import type { WorkshopLab } from "../workshop/workshop.js";

const TIME_FORMS =
  "use ISO-8601 (2026-09-01T08:05:00, with Z or +02:00 if not local) or HH:MM[:SS] today";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** A time as epoch ms: ISO-8601 (local time unless it has Z or an offset), or HH:MM[:SS] today. */
export function parseTime(value: string, now: Date = new Date()): number {
  const text = value.trim();
  const clock = CLOCK.exec(text);
  if (clock) {
    const [h, m, s] = [clock[1], clock[2], clock[3] ?? "0"].map(Number) as [number, number, number];
    if (h > 23 || m > 59 || s > 59) throw notATime(value);
    const today = new Date(now);
    today.setHours(h, m, s, 0);
    return today.getTime();
  }
  const iso = ISO.exec(text);
  if (!iso) throw notATime(value);
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = iso
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const ms = Number((iso[7] ?? "0").padEnd(3, "0"));
  const zone = iso[8];
  // Date would roll 2026-02-30 over to March 2: a day that does not exist is a mistake.
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59) {
    throw notATime(value);
  }
  if (zone === undefined) return new Date(y, mo - 1, d, h, mi, s, ms).getTime();
  return Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMinutes(zone) * 60_000;
}

/** "Z", "+02:00" or "-0300" as minutes east of UTC. */
function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return zone.startsWith("-") ? -minutes : minutes;
}

const notATime = (value: string) =>
  new InvalidArgumentError(`"${value}" is not a time; ${TIME_FORMS}`);

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration such as 90s, 5m, 1h or 2d, as ms. */
export function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  if (!match) throw new InvalidArgumentError(`"${value}" is not a duration; use e.g. 90s, 5m, 1h`);
  const [, amount, unit = ""] = match;
  if (unit === "") {
    throw new InvalidArgumentError(`"${value}" needs a unit: s, m, h or d (90s, 5m, 1h)`);
  }
  const per = UNITS[unit.toLowerCase()];
  if (per === undefined) {
    throw new InvalidArgumentError(
      `unknown unit "${unit}" in "${value}"; use s, m, h or d (90s, 5m, 1h)`,
    );
  }
  const ms = Number(amount) * per;
  if (ms <= 0) throw new InvalidArgumentError(`"${value}" is no time at all; use e.g. 5m`);
  return ms;
}

/** --since-send's number: the first `lab send` since `up` is 1. */
export function parseSendNumber(value: string): number {
  const n = Number(value.trim());
  if (Number.isInteger(n) && n >= 1) return n;
  throw new InvalidArgumentError(
    `"${value}" is not a send's number: 1 is the first \`lab send\` since up, 2 the next`,
  );
}

export function parseSends(value: string): SendsFilter {
  if (value === "last" || value === "all") return value;
  throw new InvalidArgumentError(
    `"${value}" is not a choice: last (the last lab send) or all (every lab send since up)`,
  );
}

/** The insights options as commander hands them over, already parsed one by one. */
export interface WindowOptions {
  since?: number;
  until?: number;
  /** --last, in ms. */
  last?: number;
  /** --since-send: the window starts when the lab's n-th send (since `up`) began. */
  sinceSend?: number;
  sends?: SendsFilter;
  /** The old flag: the same as --sends all. */
  all?: boolean;
  /** --tail, in ms: then only the lines whose `ts` is this close to the newest line's. */
  tail?: number;
}

/** The window the options ask for, with what they leave out filled in. */
export interface ResolvedWindow extends EventWindow {
  /** The start is the experiment's (`up`, or the last `reset`), not a time the user gave. */
  sinceUp: boolean;
  /** The end is this command's own time. */
  untilNow: boolean;
  /** The start is when this `lab send` began (--since-send), said so in the heading. */
  sinceSend?: number;
}

/**
 * Options that contradict each other, found before the lab is touched: both ends of the
 * window, or two ways of saying where it starts.
 */
export function checkWindowOptions(options: WindowOptions): void {
  const starts = (["since", "last", "sinceSend"] as const).filter((o) => options[o] !== undefined);
  if (starts.length > 1) {
    const [first, second] = starts.map((o) => (o === "sinceSend" ? "--since-send" : `--${o}`));
    throw new UsageError(
      `${first} and ${second} both say where the window starts: give one of them`,
    );
  }
  if (options.all && options.sends === "last") {
    throw new UsageError("--all means --sends all, which --sends last contradicts: give one");
  }
  if (options.since !== undefined && options.until !== undefined) {
    orderedOrThrow(options.since, options.until, "--since", "--until");
  }
}

/**
 * The window: --since (or --last before the end, or --since-send's send) to --until; by default
 * from the experiment's start (`start`: when `up` or the last `reset` ran) to now. Every message,
 * unless --sends (or --all) keeps only the lab's own sends. `sendsAt` is when each `lab send`
 * since `up` began, in order: a send waits for every copy it sent to end (unless --no-wait), so
 * a window from the start of send n holds every invocation of sends n, n+1 … and none before it.
 */
export function resolveWindow(
  options: WindowOptions,
  start: number,
  now: number = Date.now(),
  sendsAt: number[] = [],
): ResolvedWindow {
  checkWindowOptions(options);
  const untilMs = options.until ?? now;
  const sinceMs =
    options.since ??
    (options.last !== undefined
      ? untilMs - options.last
      : options.sinceSend !== undefined
        ? sendStart(sendsAt, options.sinceSend)
        : start);
  const sinceUp =
    options.since === undefined && options.last === undefined && options.sinceSend === undefined;
  const from = sinceUp
    ? "the start (when `up` or `reset` ran)"
    : options.last !== undefined
      ? "--last"
      : options.sinceSend !== undefined
        ? "--since-send"
        : "--since";
  orderedOrThrow(sinceMs, untilMs, from, options.until === undefined ? "now" : "--until");
  const sends = options.sends ?? (options.all ? "all" : undefined);
  return {
    sinceMs,
    untilMs,
    sinceUp,
    untilNow: options.until === undefined,
    ...(options.sinceSend === undefined ? {} : { sinceSend: options.sinceSend }),
    ...(sends ? { sends } : {}),
  };
}

/** When the n-th `lab send` since `up` began; a send that never happened is a usage error. */
function sendStart(sendsAt: number[], n: number): number {
  const at = sendsAt[n - 1];
  if (at !== undefined) return at;
  const count = sendsAt.length;
  const made =
    count === 0
      ? "nothing was sent with `lab send` since up"
      : `there ${count === 1 ? "has been 1 `lab send`" : `have been ${count} \`lab send\`s`} since up: give 1${count === 1 ? "" : ` to ${count}`}`;
  throw new UsageError(`--since-send ${n}: ${made}`);
}

function orderedOrThrow(sinceMs: number, untilMs: number, start: string, end: string): void {
  if (sinceMs < untilMs) return;
  const at = (ms: number) => new Date(ms).toString().slice(4, 24);
  throw new UsageError(
    `${start} (${at(sinceMs)}) is not before ${end} (${at(untilMs)}): the window would be empty`,
  );
}

/**
 * --tail: the lines whose `ts` (when the worker wrote them) falls in the last `ms` before the
 * newest line's. AWS stamps a Lambda's line (@timestamp) when it is written, so a window there
 * can open after an invocation's process_start and hold its process_end; MiniStack stamps every
 * line of an invocation when it returns, so a window by the log's timestamps (--since, --until,
 * --last) keeps or drops an invocation whole. Counted back from the newest line, not from now,
 * the same log always gives the same stretch, however late the command runs.
 */
export function lastStretch(
  events: WorkerEvent[],
  ms: number,
): { fromMs: number; toMs: number; events: WorkerEvent[] } | undefined {
  const times = events.map((e) => Date.parse(e.ts));
  const newest = Math.max(...times.filter(Number.isFinite));
  if (!Number.isFinite(newest)) return undefined; // nothing logged: no newest line to count from
  const fromMs = newest - ms;
  return {
    fromMs,
    toMs: newest,
    events: events.filter((_, i) => (times[i] ?? Number.NaN) >= fromMs),
  };
}

/** The heading with --tail's stretch said before its counts, in the timeline's clock (ts, UTC). */
export function withTail(
  heading: string,
  ms: number,
  stretch: { fromMs: number; toMs: number } | undefined,
): string {
  const ts = (at: number) => new Date(at).toISOString().slice(11, 23);
  const what = `lines whose ts is in the last ${Number((ms / 1000).toFixed(3))} s before the newest`;
  const clause = stretch
    ? `${what}, ts ${ts(stretch.fromMs)} to ${ts(stretch.toMs)} UTC`
    : `${what} (none)`;
  const counts = heading.lastIndexOf(" (");
  return `${heading.slice(0, counts)}, ${clause}${heading.slice(counts)}`;
}

/** The events `lab insights` shows for these options, and the line saying what they cover. */
export async function insightsEvents(
  open: WorkshopLab,
  options: WindowOptions,
): Promise<{ heading: string; events: WorkerEvent[] }> {
  const start = experimentStart(open.state);
  const window = resolveWindow(
    options,
    start.at,
    Date.now(),
    open.state.sends.map((s) => s.at),
  );
  // Loaded here, not at the top: `lab insights` checks its options before it loads the AWS SDK.
  const { windowEvents } = await import("../workshop/lab-events.js");
  const read = await windowEvents(open, window);
  const stretch = options.tail === undefined ? undefined : lastStretch(read, options.tail);
  const events = options.tail === undefined ? read : (stretch?.events ?? []);
  const heading = textWindow(
    {
      logGroup: open.deployment.names.logGroup,
      ...window,
      sinceReset: window.sinceUp && start.by === "reset",
    },
    events,
  );
  return {
    heading: options.tail === undefined ? heading : withTail(heading, options.tail, stretch),
    events,
  };
}
