// A schedule told as it runs: numbered steps (who moved, what happened, what the copies logged
// until every copy stood still again), and the log lines the explorer writes for a copy where the
// worker's own failpoints would have (a crash, a fail, a timeout).
import type { EventDetails, EventType } from "../../contract/events.js";
import type { WorkerEvent } from "../observe/events.js";
import type { Option } from "./choices.js";
import type { Gate, Loss } from "./gates.js";
import type { Delivery } from "./sqs.js";

export interface Step {
  n: number;
  /** "copy 1", "copy 2 (attempt 2)", "clock", "SQS". */
  who: string;
  what: string;
  /** The lines the copies logged until every copy was parked again. */
  events: WorkerEvent[];
  /** How many options there were; 1: nothing to choose. */
  options: number;
  /** What else the step made happen: a copy past its deadline killed, a message gone to the DLQ. */
  notes: string[];
  /** At a DynamoDB call: which of the SDK's attempts at it went (1: the first). */
  attempt?: number;
  /** What the network lost of it, if anything. */
  loss?: Loss;
}

/** The timeline's clock: one second per step, a millisecond per line within it. */
const STEP_CLOCK_START = Date.UTC(2026, 0, 1);

export class Narration {
  readonly steps: Step[] = [];
  readonly events: WorkerEvent[] = [];
  private step: Step | undefined;

  /** `heard`: every line, once it is stamped and kept (the schedule tracks who said what). */
  constructor(
    private readonly orderId: string,
    private readonly guard: WorkerEvent["guard"],
    private readonly heard: (event: WorkerEvent) => void,
  ) {}

  begin(who: string, what: string, options: number, at?: Pick<Step, "attempt" | "loss">): void {
    const n = this.steps.length + 1;
    this.step = { n, who, what, events: [], options, notes: [], ...at };
    this.steps.push(this.step);
  }

  /** Something else the current step made happen. */
  note(text: string): void {
    this.step?.notes.push(text);
  }

  /** A line a copy logged: stamped with the step it happened in. */
  record(event: WorkerEvent): void {
    const step = this.step as Step;
    event.ts = new Date(STEP_CLOCK_START + step.n * 1000 + step.events.length + 1).toISOString();
    step.events.push(event);
    this.events.push(event);
    this.heard(event);
  }

  /** A line the explorer writes for a copy, the way the worker's failpoints would have. */
  said<T extends EventType>(d: Delivery, type: T, details: EventDetails[T]): void {
    this.record({
      type,
      orderId: this.orderId,
      messageId: d.message.messageId,
      requestId: d.requestId,
      guard: this.guard,
      ts: "",
      ...details,
    } as WorkerEvent);
  }
}

/** The failpoint rule a fault stands for, as the worker's failpoint lines name it. */
export function rule(gate: Gate, action: string, d: Delivery): string {
  return `${gate.name}=${action}@copy${d.message.copy}@attempt${d.attempt}`;
}

export function who(d: Delivery): string {
  return d.attempt === 1
    ? `copy ${d.message.copy}`
    : `copy ${d.message.copy} (attempt ${d.attempt})`;
}

/** A loss, as a step says it. */
export function lost(what: Loss): string {
  switch (what) {
    case "request":
      return "its request lost";
    case "answer":
      return "its answer lost";
    case "payment":
      return "the payment's answer lost";
  }
}

/** A choice as the trace keeps it. */
export function label(option: Option): string {
  switch (option.kind) {
    case "go":
    case "crash":
    case "fail":
      return `${option.kind} ${option.actor.label} at ${option.actor.gate?.name}`;
    case "lose":
      return `lose the ${option.what} of ${option.actor.label} at ${option.actor.gate?.name}`;
    case "jump":
      return `jump ${option.ms}`;
    case "redeliver":
      return `redeliver copy ${option.copy}`;
  }
}
