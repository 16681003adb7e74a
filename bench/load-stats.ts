// The load bench's arithmetic, apart from the emulator: its options' bounds, the messages it
// sends, and what it reads back from the log lines and the ledger (exactly once, throughput,
// latency, cost).
import type { LedgerItem } from "../contract/ledger.js";
import type { GuardName } from "../contract/settings.js";
import type { Say } from "../harness/common/say.js";
import { orderBody } from "../harness/drive/order-body.js";
import type { WorkerEvent } from "../harness/observe/events.js";
import { invocationSpans } from "../harness/observe/invocations.js";
import { invocationIntervals, maxConcurrency } from "../harness/observe/overlap.js";
import type { CpuUse } from "./cpu.js";

export const DEFAULT_SEED = 20260914;

export interface LoadArgs {
  orders: number;
  copies: number;
  guards: GuardName[];
  json: boolean;
}

/** The flags' bounds and defaults (`npx lab bench load`). */
export const MAX_ORDERS = 10_000;
export const MAX_LOAD_COPIES = 100;
export const DEFAULT_ORDERS = 200;
export const DEFAULT_LOAD_COPIES = 5;

/** LOAD-0001, LOAD-0002, …: as wide as the largest number needs, at least four digits. */
export function loadOrderId(index: number, orders: number): string {
  return `LOAD-${String(index).padStart(Math.max(4, String(orders).length), "0")}`;
}

/** mulberry32: a small seeded generator, so every run sends the copies in the same order. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with the seeded generator; the input is left as it was. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seeded(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** N orders × C copies, each an order body at 150.00, shuffled so copies of one order spread out. */
export function loadMessages(
  orders: number,
  copies: number,
  seed: number,
): { body: string; intendedOrderId: string }[] {
  const messages = [];
  for (let i = 1; i <= orders; i++) {
    const orderId = loadOrderId(i, orders);
    const body = orderBody({
      orderId,
      customerId: `CUSTOMER-${orderId.slice(5)}`,
      amount: 150,
    });
    for (let copy = 0; copy < copies; copy++) messages.push({ body, intendedOrderId: orderId });
  }
  return shuffled(messages, seed);
}

/** Long enough for a slow machine, bounded so a stuck run ends: a minute plus 0.3 s a message. */
export const loadTimeoutMs = (messages: number) => 60_000 + messages * 300;

export interface ExactlyOnce {
  once: number;
  twiceOrMore: number;
  never: number;
}

/** The checker: how many of the intended orders the ledger charged once, twice or more, never. */
export function exactlyOnce(
  orderIds: readonly string[],
  ledger: readonly LedgerItem[],
): ExactlyOnce {
  const charges = new Map<string, number>(orderIds.map((id) => [id, 0]));
  for (const item of ledger) {
    const n = charges.get(item.orderId);
    if (n !== undefined) charges.set(item.orderId, n + 1);
  }
  const counts = [...charges.values()];
  return {
    once: counts.filter((n) => n === 1).length,
    twiceOrMore: counts.filter((n) => n >= 2).length,
    never: counts.filter((n) => n === 0).length,
  };
}

/** Nearest rank: the smallest value with at least p% of the values at or below it. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export interface Cost {
  /** Messages in this role. */
  messages: number;
  mean: number;
  max: number;
}

export interface LoadStats {
  /** From the first process_start to the last process_end, in ms. */
  windowMs: number;
  /** Messages per second over that window. */
  throughput: number;
  /**
   * First deliveries only (attempt 1), per second from the first start to the last of their
   * ends: the pace before any retry waits out the visibility timeout.
   */
  firstDeliveries: { invocations: number; windowMs: number; throughput: number };
  p50Ms: number | undefined;
  p99Ms: number | undefined;
  /**
   * DynamoDB calls per message, summed over its deliveries (a copy turned away busy and then
   * skipped pays for both), by how it ended: winner = charged, duplicate = skipped.
   */
  calls: { winner: Cost | undefined; duplicate: Cost | undefined };
  /** Deliveries that ended failed (claim_busy and the like): each one comes back later. */
  failedDeliveries: number;
  /** Invocations open at once: the most, and on average over the window. */
  concurrency: { max: number; mean: number };
}

function cost(values: number[]): Cost | undefined {
  if (values.length === 0) return undefined;
  return {
    messages: values.length,
    mean: values.reduce((a, b) => a + b, 0) / values.length,
    max: Math.max(...values),
  };
}

/** What the log lines say about one guard's run of `messages` messages. */
export function loadStats(events: readonly WorkerEvent[], messages: number): LoadStats {
  const starts = events.filter((e) => e.type === "process_start").map((e) => Date.parse(e.ts));
  const ends = events.filter((e) => e.type === "process_end");
  const endTimes = ends.map((e) => Date.parse(e.ts));
  const windowMs =
    starts.length && endTimes.length ? Math.max(...endTimes) - Math.min(...starts) : 0;
  const durations = ends.map((e) => Number(e.durationMs)).filter(Number.isFinite);

  const perMessage = new Map<string, { calls: number; outcome: unknown }>();
  for (const e of ends) {
    const seen = perMessage.get(e.messageId) ?? { calls: 0, outcome: undefined };
    seen.calls += Number(e.dynamoCalls) || 0;
    seen.outcome = e.outcome; // events are oldest first: the last delivery decides
    perMessage.set(e.messageId, seen);
  }
  const callsOf = (outcome: string) =>
    [...perMessage.values()].filter((m) => m.outcome === outcome).map((m) => m.calls);

  const first = invocationSpans([...events]).filter((s) => s.ended && s.attempt === 1);
  const firstMs = first.length
    ? Math.max(...first.map((s) => s.endMs)) - Math.min(...first.map((s) => s.startMs))
    : 0;
  const intervals = invocationIntervals([...events]);
  const busyMs = intervals.reduce((n, i) => n + (i.end - i.start), 0);
  return {
    windowMs,
    throughput: windowMs > 0 ? messages / (windowMs / 1000) : 0,
    firstDeliveries: {
      invocations: first.length,
      windowMs: firstMs,
      throughput: firstMs > 0 ? first.length / (firstMs / 1000) : 0,
    },
    p50Ms: percentile(durations, 50),
    p99Ms: percentile(durations, 99),
    calls: { winner: cost(callsOf("charged")), duplicate: cost(callsOf("skipped")) },
    failedDeliveries: ends.filter((e) => e.outcome === "failed").length,
    concurrency: {
      max: maxConcurrency(intervals),
      mean: windowMs > 0 ? busyMs / windowMs : 0,
    },
  };
}

/** a ÷ b, or undefined when there is nothing to compare with. */
export const ratio = (a: number, b: number | undefined) =>
  b === undefined || b === 0 ? undefined : a / b;

/** What a load run is asked to do (runLoad in load.ts). */
export interface LoadOptions {
  orders: number;
  copies: number;
  guards: GuardName[];
  /** The shuffle's seed: the same seed sends the copies in the same order. */
  seed?: number;
  say?: Say;
  /** The emulator's process group, to measure the CPU it uses (Linux only). */
  emulatorPid?: number;
}

/** What a load run found for one guard: what runLoad returns and load-report.ts prints. */
export interface GuardLoad extends ExactlyOnce, LoadStats {
  guard: GuardName;
  orders: number;
  messages: number;
  /** Ledger items for these orders. */
  charges: number;
  deadLettered: number;
  /** Messages that had not ended when the wait gave up (0 unless it timed out). */
  notEnded: number;
  sendMs: number;
  cpu: CpuUse;
  /** From the first message sent until the last had ended. */
  waitMs: number;
  /** Throughput divided by off's, and by powertools', when those ran. */
  vsOff: number | null;
  vsPowertools: number | null;
}
