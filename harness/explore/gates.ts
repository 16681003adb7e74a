// Gates: the places a copy stops until the explorer lets it go on. A copy reaches a gate before
// each DynamoDB call it makes (client.ts) and at each of the worker's failpoints (`at(point)`).
// Between two gates it runs on its own, its real HTTP call included, so the emulator sees one
// operation at a time, in the order the explorer chose: given the same choices, a run is the same.
//
// The stage knows only who is running, who is parked where, who finished and who died. What may
// happen next, and what it means, is the schedule's business (schedule.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import type { FailpointName } from "../../contract/failpoints.js";

export interface Gate {
  /** "PutItem claims", "TransactWriteItems charges+claims", or a failpoint's name. */
  name: string;
  /** Set at a failpoint: where the worker called `at(point)`. */
  point?: FailpointName;
  /** Set before a DynamoDB call: what it is about to do, and to which keys. */
  call?: CallInfo;
  /** Set before a DynamoDB call: which of the SDK's attempts at it this is (1: the first). */
  attempt?: number;
  /** Set by the schedule before it lets the copy go on: what the network loses of this attempt. */
  lose?: Loss;
}

/**
 * request: it never reaches DynamoDB, nothing is applied, the SDK sees a network error;
 * answer: DynamoDB applies it, then the answer is lost, the SDK sees a network error;
 * payment: the charge goes through, then its answer times out, thrown to the guard.
 */
export type Loss = "request" | "answer" | "payment";

/** What the schedule gives each copy: its clock, and what happens when it reaches a gate. */
export interface Scope {
  now(): number;
  /** Resolves when the copy may go on, rejects for a fail, never settles for a crash. */
  reach(actor: Actor, gate: Gate): Promise<void>;
  /** A DynamoDB call the copy is about to make (before its gate): what it writes, and where. */
  calling(actor: Actor, call: CallInfo): void;
  /** What happened to one attempt of a call, for the story: its answer, lost, or the SDK's retry. */
  heard(actor: Actor, what: string): void;
  /** A DynamoDB request the copy made that no gate saw (operation: "PutItem", …). */
  wentAround(actor: Actor, operation: string): void;
  /** The copy's own code called process.exit(code): its process, and the invocation, end there. */
  exited(actor: Actor, code: unknown): void;
}

export interface CallInfo {
  /** PutItem, GetItem, UpdateItem, DeleteItem, TransactWriteItems, … */
  operation: string;
  /** Every (table, key) the call names, keys as strings. */
  keys: { table: string; key: string }[];
}

export type ActorState = "running" | "parked" | "finished" | "dead";

/** One delivery of a message: one run of the worker's code for it. */
export class Actor {
  state: ActorState = "running";
  gate: Gate | undefined;
  /** DynamoDB calls it made (process_end's dynamoCalls). */
  calls = 0;
  /** The SDK attempts those calls took, retries included (process_end's dynamoAttempts). */
  attempts = 0;
  wake: { go: () => void; fail: (err: Error) => void } | undefined;

  constructor(
    readonly label: string,
    readonly scope: Scope,
  ) {}
}

const current = new AsyncLocalStorage<Actor>();

/** The copy whose code is running here, if any. */
export const currentActor = (): Actor | undefined => current.getStore();

/** Its clock, when the caller is a copy (clock.ts puts it into Date.now). */
export const copyNow = (): number | undefined => current.getStore()?.scope.now();

/** A copy that ran this long without reaching a gate or ending is stuck: a bug, not a schedule. */
const HANG_MS = 60_000;

/**
 * A copy ran longer than the stage allows without reaching a gate or ending: for a guard file,
 * a guard that never returns (Lambda would have timed it out), said in words.
 */
export class CopyHung extends Error {
  override name = "CopyHung";
  constructor(
    readonly copies: string[],
    readonly ms: number,
  ) {
    super(`${copies.join(", ")} ran ${ms} ms without a gate`);
  }
}

export class Stage {
  private readonly actors: Actor[] = [];
  private poke: (() => void) | undefined;

  /** hangMs: how long a copy may run between two gates (real time) before it counts as hung. */
  constructor(private readonly hangMs = HANG_MS) {}

  /** Starts a copy; `ended` hears how its code ended, unless it died first. */
  start<T>(
    actor: Actor,
    body: () => Promise<T>,
    ended: (result: { value: T } | { error: unknown }) => void,
  ): void {
    this.actors.push(actor);
    const finish = (result: { value: T } | { error: unknown }) => {
      if (actor.state === "dead") return;
      actor.state = "finished";
      actor.gate = undefined;
      ended(result);
      this.wakeDriver();
    };
    current.run(actor, body).then(
      (value) => finish({ value }),
      (error: unknown) => finish({ error }),
    );
  }

  /** Called by the copy itself: it stops here until go(), fail() or kill(). */
  park(actor: Actor, gate: Gate): Promise<void> {
    actor.state = "parked";
    actor.gate = gate;
    const parked = new Promise<void>((go, fail) => {
      actor.wake = { go, fail };
    });
    this.wakeDriver();
    return parked;
  }

  go(actor: Actor): void {
    this.resume(actor).go();
  }

  /** The copy goes on with an error thrown where it stands (a failpoint's "fail"). */
  fail(actor: Actor, err: Error): void {
    this.resume(actor).fail(err);
  }

  /**
   * It never goes on: no catch, no finally, no process_end, as a killed process. A copy killed
   * while it runs (its own process.exit) unwinds, but reaches no gate and logs nothing more.
   */
  kill(actor: Actor): void {
    actor.state = "dead";
    actor.wake = undefined;
    this.wakeDriver();
  }

  parked(): Actor[] {
    return this.actors.filter((a) => a.state === "parked");
  }

  /** Every copy started so far, in the order they started. */
  all(): readonly Actor[] {
    return this.actors;
  }

  /** Waits until no copy is running: each is parked at a gate, finished, or dead. */
  async quiet(): Promise<void> {
    const started = performance.now();
    while (this.actors.some((a) => a.state === "running")) {
      const running = this.actors.filter((a) => a.state === "running").map((a) => a.label);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new CopyHung(running, this.hangMs)),
          Math.max(1, this.hangMs - (performance.now() - started)),
        );
        this.poke = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private resume(actor: Actor) {
    const { wake } = actor;
    if (actor.state !== "parked" || !wake) throw new Error(`${actor.label} is not parked`);
    actor.state = "running";
    actor.gate = undefined;
    actor.wake = undefined;
    return wake;
  }

  private wakeDriver(): void {
    const poke = this.poke;
    this.poke = undefined;
    poke?.();
  }
}
