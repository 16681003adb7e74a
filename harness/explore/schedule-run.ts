// What one schedule is given (the guard, how many copies, the faults it may use) and what it
// gives back: its steps, the worker's lines, the choices that made it, and the checker's verdict.
import type { FailpointName } from "../../contract/failpoints.js";
import type { WorkerEvent } from "../observe/events.js";
import type { Budget } from "./budget.js";
import type { Choice } from "./choices.js";
import type { Explored } from "./guards.js";
import type { Step } from "./narration.js";
import type { EndState, Verdict } from "./properties.js";
import type { WentAround } from "./touched.js";

export interface ScheduleSpec {
  explored: Explored;
  copies: number;
  budget: Budget;
  failAt?: readonly FailpointName[];
}

export interface ScheduleRun {
  orderId: string;
  copies: number;
  steps: Step[];
  events: WorkerEvent[];
  trace: Choice[];
  messageIds: string[];
  bodies: string[];
  deadLettered: string[];
  /** Faults it used: deaths (crashes and timeouts), failed charges, clock jumps. */
  faults: number;
  end: EndState;
  verdict: Verdict;
  /** DynamoDB requests the copies made that no gate saw: the schedule did not choose them. */
  around: WentAround[];
}
