// The queue as the copies meet it: one SQS message per copy of the order, each delivered up to
// maxReceiveCount times. A delivery that fails, crashes or times out comes back after the
// visibility timeout, counted from when it was received; past maxReceiveCount it goes to the DLQ.
import type { Outcome } from "../../worker/invocation.js";
import { orderBody } from "../drive/order-body.js";
import type { Actor } from "./gates.js";
import { EXPLORE_TIMINGS } from "./guards.js";

/** An SQS message: one copy of the order, delivered up to maxReceiveCount times. */
export interface Message {
  copy: number;
  messageId: string;
  body: string;
  receives: number;
  /** queued: sent, not yet received; waiting: back in the queue after a failure, invisible until visibleAt. */
  state: "queued" | "in flight" | "waiting" | "deleted" | "dead-lettered";
  visibleAt: number;
}

/** One delivery of a message: one invocation, with its own deadline. */
export interface Delivery {
  message: Message;
  attempt: number;
  requestId: string;
  actor: Actor;
  receivedAt: number;
  deadline: number;
  /** The types of the lines it logged so far. */
  said: string[];
  /** True while it stands at the first gate it reached; undefined before it reached one. */
  firstGate?: boolean;
  end?: Outcome | "crashed" | "timed out";
}

const TIMEOUT_MS = EXPLORE_TIMINGS.functionTimeoutSeconds * 1000;
const VISIBILITY_MS = EXPLORE_TIMINGS.visibilityTimeoutSeconds * 1000;

export const isSettled = (end: Delivery["end"]) => end === "charged" || end === "skipped";

export class Queue {
  readonly messages: Message[];
  private readonly deliveries = new Map<Actor, Delivery>();

  constructor(orderId: string, copies: number, now: number) {
    // Short ids that say which copy they are: the timeline shows a messageId's first 8 characters.
    const tag = Number(orderId.split("-").at(-1)).toString(36);
    this.messages = Array.from({ length: copies }, (_, i) => ({
      copy: i + 1,
      messageId: `copy${i + 1}-${tag}`,
      body: orderBody({ orderId }),
      receives: 0,
      state: "queued",
      visibleAt: now,
    }));
  }

  message(copy: number): Message {
    return this.messages[copy - 1] as Message;
  }

  /** A message handed to an invocation: `makeActor` names it from its requestId. */
  receive(message: Message, now: number, makeActor: (label: string) => Actor): Delivery {
    message.receives += 1;
    message.state = "in flight";
    const attempt = message.receives;
    const actor = makeActor(`copy ${message.copy} attempt ${attempt}`);
    const d: Delivery = {
      message,
      attempt,
      requestId: `${message.messageId}-attempt${attempt}`,
      actor,
      receivedAt: now,
      deadline: now + TIMEOUT_MS,
      said: [],
    };
    this.deliveries.set(actor, d);
    return d;
  }

  /** The invocation ended: settled, its message is deleted; otherwise it comes back. */
  ended(d: Delivery, end: NonNullable<Delivery["end"]>): "deleted" | "waiting" | "dead-lettered" {
    d.end = end;
    if (isSettled(end)) {
      d.message.state = "deleted";
      return "deleted";
    }
    return this.comesBack(d);
  }

  /** Failed, crashed or timed out: SQS delivers it again after the visibility timeout, or the DLQ. */
  private comesBack(d: Delivery): "waiting" | "dead-lettered" {
    const { message } = d;
    if (message.receives >= EXPLORE_TIMINGS.maxReceiveCount) {
      message.state = "dead-lettered";
      return "dead-lettered";
    }
    message.state = "waiting";
    message.visibleAt = d.receivedAt + VISIBILITY_MS;
    return "waiting";
  }

  delivery(actor: Actor): Delivery {
    const d = this.deliveries.get(actor);
    if (!d) throw new Error(`${actor.label} is not a delivery of this schedule`);
    return d;
  }

  /** The delivery that logs under this requestId. */
  byRequestId(requestId: unknown): Delivery | undefined {
    for (const d of this.deliveries.values()) if (d.requestId === requestId) return d;
    return undefined;
  }

  waiting(): Message[] {
    return this.messages.filter((m) => m.state === "waiting");
  }

  deadLettered(): Message[] {
    return this.messages.filter((m) => m.state === "dead-lettered");
  }
}
