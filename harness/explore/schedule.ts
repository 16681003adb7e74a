// One schedule: N copies of one order (each its own SQS message), run through the real guard
// until every copy and every retry has ended, with every step chosen from outside. A step lets a
// parked copy go on, kills it where it stands, makes a failpoint throw, jumps the clock, or has
// SQS deliver a failed or crashed message again. Then the checker reads the tables.
//
// Choices are offered so that equivalent schedules are not run twice:
// - a copy parked at a failpoint is settled before anyone else moves: nothing there touches the
//   tables, so another copy's step commutes with it (only the clock does not: see clockMayMove);
// - a call only its own copy can touch (its charge's ledger item) goes before the others;
// - of copies that are copies (same attempt, same history, same gate) only the first is offered;
// - a crash is offered where it changes what the tables end up holding: before a call, and at
//   before-end, after the last one;
// - a failpoint with nothing to decide is passed at once.
import type { FailpointName } from "../../contract/failpoints.js";
import type { WorkerConfig } from "../../contract/settings.js";
import type { Outcome } from "../../worker/invocation.js";
import { orderBody } from "../drive/order-body.js";
import type { WorkerEvent } from "../observe/events.js";
import { type Budget, FAIL_AT } from "./budgets.js";
import { FakeClock } from "./clock.js";
import { deliver, lambdaContext } from "./copy.js";
import { Actor, type CallInfo, type Gate, type Scope, Stage } from "./gates.js";
import { EXPLORE_TIMINGS, type Explored } from "./guards.js";
import { type EndState, judge, type Verdict } from "./properties.js";
import type { Session } from "./session.js";

// The fault budget and where charges fail live with the explorer's sizes, which the command line
// reads without loading the explorer.
export { type Budget, DEFAULT_BUDGET, FAIL_AT } from "./budgets.js";

export interface ScheduleSpec {
  explored: Explored;
  copies: number;
  budget: Budget;
  failAt?: readonly FailpointName[];
}

/** An SQS message: one copy of the order, delivered up to maxReceiveCount times. */
interface Message {
  copy: number;
  messageId: string;
  body: string;
  receives: number;
  /** queued: sent, not yet received; waiting: back in the queue after a failure, invisible until visibleAt. */
  state: "queued" | "in flight" | "waiting" | "deleted" | "dead-lettered";
  visibleAt: number;
}

/** One delivery of a message: one invocation, with its own deadline. */
interface Delivery {
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

export type Option =
  | { kind: "go"; actor: Actor }
  | { kind: "crash"; actor: Actor }
  | { kind: "fail"; actor: Actor }
  | { kind: "jump"; ms: number }
  | { kind: "redeliver"; copy: number };

/** Picks one of the options (there are always at least two). */
export type Chooser = (options: readonly Option[]) => number;

/** A choice point as it was met: how many options, which was taken, what it said. */
export interface Choice {
  count: number;
  pick: number;
  label: string;
}

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
}

/** Far more than any schedule takes: a loop here is a bug. */
const MAX_STEPS = 500;
/** The timeline's clock: one second per step, a millisecond per line within it. */
const STEP_CLOCK_START = Date.UTC(2026, 0, 1);

const isSettled = (end: Delivery["end"]) => end === "charged" || end === "skipped";

export async function runSchedule(
  session: Session,
  spec: ScheduleSpec,
  choose: Chooser,
): Promise<ScheduleRun> {
  const schedule = new Schedule(session, spec);
  await schedule.run(choose);
  return schedule.result();
}

class Schedule {
  private readonly stage: Stage;
  private readonly clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  private readonly orderId: string;
  private readonly messages: Message[];
  private readonly deliveries = new Map<Actor, Delivery>();
  private readonly events: WorkerEvent[] = [];
  private readonly steps: Step[] = [];
  private readonly trace: Choice[] = [];
  private readonly budget: Budget;
  private readonly config: WorkerConfig;
  private readonly touched = { chargeIds: [] as string[], powertoolsIds: [] as string[] };
  private readonly timeoutMs = EXPLORE_TIMINGS.functionTimeoutSeconds * 1000;
  private readonly visibilityMs = EXPLORE_TIMINGS.visibilityTimeoutSeconds * 1000;
  private step: Step | undefined;
  private verdict: Verdict | undefined;
  private end: EndState | undefined;

  constructor(
    private readonly session: Session,
    private readonly spec: ScheduleSpec,
  ) {
    this.stage = new Stage(spec.explored.hangMs);
    this.budget = { ...spec.budget };
    this.config = session.configFor(spec.explored);
    this.orderId = session.nextOrderId(spec.explored);
    // Short ids that say which copy they are: the timeline shows a messageId's first 8 characters.
    const tag = Number(this.orderId.split("-").at(-1)).toString(36);
    this.messages = Array.from({ length: spec.copies }, (_, i) => ({
      copy: i + 1,
      messageId: `copy${i + 1}-${tag}`,
      body: orderBody({ orderId: this.orderId }),
      receives: 0,
      state: "queued",
      visibleAt: this.clock.now(),
    }));
  }

  private readonly scope: Scope = {
    now: () => this.clock.now(),
    reach: (actor, gate) => this.reach(actor, gate),
    calling: (_actor, call) => this.note(call),
  };

  async run(choose: Chooser): Promise<void> {
    // Every copy is received at once, as SQS hands out the copies a producer sent together.
    for (const message of this.messages) {
      this.begin("SQS", `delivers copy ${message.copy}`, 1);
      this.receive(message);
      await this.stage.quiet();
    }
    for (;;) {
      const options = this.options();
      if (options.length === 0) break;
      let pick = 0;
      if (options.length > 1) {
        pick = choose(options);
        const label = this.label(options[pick] as Option);
        this.trace.push({ count: options.length, pick, label });
      }
      await this.take(options[pick] as Option, options.length);
      if (this.steps.length > MAX_STEPS) {
        throw new Error(`a schedule of ${this.orderId} took more than ${MAX_STEPS} steps`);
      }
    }
    const state = await this.session.read({ orderId: this.orderId, ...this.touched });
    this.end = {
      ledger: state.ledger,
      claim: state.claim,
      powertools: state.powertools,
      deadLettered: this.messages.filter((m) => m.state === "dead-lettered").length,
    };
    this.verdict = judge(this.end, this.events);
  }

  result(): ScheduleRun {
    if (!this.end || !this.verdict) throw new Error("the schedule has not run");
    return {
      orderId: this.orderId,
      copies: this.spec.copies,
      steps: this.steps,
      events: this.events,
      trace: this.trace,
      messageIds: this.messages.map((m) => m.messageId),
      bodies: this.messages.map((m) => m.body),
      deadLettered: this.messages
        .filter((m) => m.state === "dead-lettered")
        .map((m) => m.messageId),
      faults: this.faultsUsed(),
      end: this.end,
      verdict: this.verdict,
    };
  }

  // ─── What may happen next ────────────────────────────────────────────────────────────

  private options(): Option[] {
    const parked = this.stage.parked();
    const waiting = this.messages.filter((m) => m.state === "waiting");
    if (parked.length === 0) {
      // Nothing else can happen but SQS handing a message back.
      return this.distinctMessages(waiting).map(
        (m): Option => ({ kind: "redeliver", copy: m.copy }),
      );
    }
    const atPoint = parked.find((a) => a.gate?.point !== undefined);
    if (!atPoint) {
      // A call nobody else can touch goes first: taking it later ends up the same.
      const alone = parked.find((a) => this.touchesOnlyItsOwn(a.gate as Gate));
      if (alone) {
        return [
          { kind: "go", actor: alone },
          ...(this.mayCrash(alone.gate as Gate) ? [{ kind: "crash", actor: alone } as const] : []),
        ];
      }
    }
    const movers = atPoint ? [atPoint] : this.distinct(parked);
    const gateOf = (a: Actor) => a.gate as Gate;
    // The clock moves between calls, or before a copy's first one: see clockMayMove.
    const clockMoves: Option[] =
      atPoint && !this.delivery(atPoint).firstGate
        ? []
        : [
            ...(this.left("jumps", 1)
              ? this.spec.explored.jumps.map((ms): Option => ({ kind: "jump", ms }))
              : []),
            ...this.distinctMessages(waiting).map(
              (m): Option => ({ kind: "redeliver", copy: m.copy }),
            ),
          ].filter((o) => {
            const killed = this.killedBy(o);
            const cost = killed + (o.kind === "jump" ? 1 : 0);
            return (
              (killed === 0 || this.left("deaths", killed)) &&
              (cost === 0 || this.left("total", cost))
            );
          });
    return [
      ...movers.map((actor): Option => ({ kind: "go", actor })),
      ...movers
        .filter((a) => this.mayCrash(gateOf(a)))
        .map((actor): Option => ({ kind: "crash", actor })),
      ...movers
        .filter((a) => this.mayFail(gateOf(a)))
        .map((actor): Option => ({ kind: "fail", actor })),
      ...clockMoves,
    ];
  }

  /**
   * The copies are copies: two deliveries received at the same time, at the same attempt, that
   * have done and said the same so far and stand at the same gate are interchangeable, so only
   * the first of them is offered (a schedule with the two swapped ends up the same).
   */
  private distinct(actors: Actor[]): Actor[] {
    const seen = new Set<string>();
    return actors.filter((actor) => {
      const d = this.delivery(actor);
      const signature = [d.attempt, d.receivedAt, actor.gate?.name, actor.calls, ...d.said].join(
        "|",
      );
      if (seen.has(signature)) return false;
      seen.add(signature);
      return true;
    });
  }

  /** The same for messages waiting to come back: their next delivery starts from nothing. */
  private distinctMessages(waiting: Message[]): Message[] {
    const seen = new Set<string>();
    return waiting.filter((m) => {
      const signature = `${m.receives}|${m.visibleAt}`;
      if (seen.has(signature)) return false;
      seen.add(signature);
      return true;
    });
  }

  /**
   * A call that touches only keys no other copy can: the ledger item of a charge (a fresh
   * chargeId each, unless the provider keys its charges). It commutes with every other step;
   * a crash before it, and the clock moving before it, are still offered (as a crash here).
   */
  private touchesOnlyItsOwn(gate: Gate): boolean {
    const keys = gate.call?.keys ?? [];
    const { ledger } = this.session.tables;
    const fresh = this.config.providerKey === "none";
    return fresh && keys.length > 0 && keys.every((k) => k.table === ledger);
  }

  /** Before a call, or after the last one (before-end): elsewhere a crash ends up the same. */
  private mayCrash(gate: Gate): boolean {
    return this.left("deaths", 1) && (gate.point === undefined || gate.point === "before-end");
  }

  private mayFail(gate: Gate): boolean {
    const points = this.spec.failAt ?? FAIL_AT;
    return this.left("fails", 1) && gate.point !== undefined && points.includes(gate.point);
  }

  /**
   * Whether the clock may move while this copy stands at this failpoint. The worker reads the
   * clock only to build a call (leaseUntil, :now, Powertools' expiries), so a jump between two of
   * a copy's calls ends up the same wherever it falls between them, except before its first call:
   * only there can a jump come after the copy started and before it read the clock.
   */
  private clockMayMove(d: Delivery): boolean {
    if (!d.firstGate) return false;
    const jumps = this.left("jumps", 1) && this.spec.explored.jumps.length > 0;
    return jumps || this.messages.some((m) => m.state === "waiting");
  }

  /** How many parked copies a jump or a redelivery would take past their deadline. */
  private killedBy(option: Option): number {
    const to =
      option.kind === "jump"
        ? this.clock.now() + option.ms
        : option.kind === "redeliver"
          ? Math.max(this.clock.now(), (this.messages[option.copy - 1] as Message).visibleAt)
          : this.clock.now();
    return this.stage.parked().filter((a) => this.delivery(a).deadline <= to).length;
  }

  /** Whether `n` more faults of this kind fit the budget, the total cap included. */
  private left(kind: "deaths" | "fails" | "jumps" | "total", n: number): boolean {
    const total = this.spec.budget.total;
    const withinTotal = total === undefined || this.faultsUsed() + n <= total;
    return withinTotal && (kind === "total" || this.budget[kind] >= n);
  }

  private faultsUsed(): number {
    const { deaths, fails, jumps } = this.spec.budget;
    return deaths - this.budget.deaths + (fails - this.budget.fails) + (jumps - this.budget.jumps);
  }

  /** A failpoint where the only option would be to go on is passed without a step. */
  private reach(actor: Actor, gate: Gate): Promise<void> {
    const d = this.delivery(actor);
    d.firstGate = d.firstGate === undefined;
    if (gate.point !== undefined) {
      const decisions = this.mayCrash(gate) || this.mayFail(gate) || this.clockMayMove(d);
      if (!decisions) return Promise.resolve();
    }
    return this.stage.park(actor, gate);
  }

  // ─── Taking a step ───────────────────────────────────────────────────────────────────

  private async take(option: Option, count: number): Promise<void> {
    switch (option.kind) {
      case "go": {
        const d = this.delivery(option.actor);
        this.begin(this.who(d), `${option.actor.gate?.name}: goes on`, count);
        this.stage.go(option.actor);
        break;
      }
      case "crash": {
        const d = this.delivery(option.actor);
        const gate = option.actor.gate as Gate;
        this.begin(this.who(d), `${gate.name}: crashes (killed, never resumes)`, count);
        this.budget.deaths--;
        this.die(d, gate, "crashed");
        break;
      }
      case "fail": {
        const d = this.delivery(option.actor);
        const gate = option.actor.gate as Gate;
        this.begin(this.who(d), `${gate.name}: fails (the failpoint throws)`, count);
        this.budget.fails--;
        this.said(d, "failpoint", { point: gate.name, rule: this.rule(gate, "fail", d) });
        this.stage.fail(option.actor, new Error(`failpoint ${gate.name}: fail`));
        break;
      }
      case "jump": {
        this.begin("clock", `+${option.ms} ms`, count);
        this.budget.jumps--;
        this.clock.advance(option.ms);
        this.timeOut();
        break;
      }
      case "redeliver": {
        const message = this.messages[option.copy - 1] as Message;
        const late = Math.max(0, message.visibleAt - this.clock.now());
        this.begin(
          "SQS",
          `delivers copy ${message.copy} again (attempt ${message.receives + 1}) after its visibility timeout: clock +${late} ms`,
          count,
        );
        this.clock.advanceTo(message.visibleAt);
        this.timeOut();
        this.receive(message);
        break;
      }
    }
    await this.stage.quiet();
  }

  private receive(message: Message): void {
    message.receives += 1;
    message.state = "in flight";
    const attempt = message.receives;
    const requestId = `${message.messageId}-attempt${attempt}`;
    const actor = new Actor(`copy ${message.copy} attempt ${attempt}`, this.scope);
    const receivedAt = this.clock.now();
    const d: Delivery = {
      message,
      attempt,
      requestId,
      actor,
      receivedAt,
      deadline: receivedAt + this.timeoutMs,
      said: [],
    };
    this.deliveries.set(actor, d);
    const { explored } = this.spec;
    this.stage.start(
      actor,
      () =>
        deliver({
          guard: explored.run,
          config: this.config,
          body: message.body,
          invocation: { messageId: message.messageId, requestId, attempt },
          dynamo: this.session.dynamo,
          context: lambdaContext(this.session.functionName, requestId, () =>
            Math.max(0, d.deadline - this.clock.now()),
          ),
          at: (point) => actor.scope.reach(actor, { name: point, point }),
          write: (event) => this.record(event),
          calls: () => actor.calls,
        }),
      (result) => {
        d.end = "value" in result ? result.value : "failed";
        if (isSettled(d.end)) message.state = "deleted";
        else this.comesBack(d);
      },
    );
  }

  /** Lambda stops an invocation at its deadline: a copy still parked past it never goes on. */
  private timeOut(): void {
    for (const actor of this.stage.parked()) {
      const d = this.delivery(actor);
      if (this.clock.now() < d.deadline) continue;
      this.budget.deaths--;
      this.die(d, actor.gate as Gate, "timed out");
      this.step?.notes.push(
        `${this.who(d)} timed out at ${actor.gate?.name ?? "?"}: Lambda killed it`,
      );
    }
  }

  private die(d: Delivery, gate: Gate, how: "crashed" | "timed out"): void {
    this.said(d, "failpoint", {
      point: gate.name,
      rule: this.rule(gate, "crash", d),
      ...(how === "timed out" ? { timedOut: true } : {}),
    });
    this.stage.kill(d.actor);
    d.end = how;
    this.comesBack(d);
  }

  /** Failed, crashed or timed out: SQS delivers it again after the visibility timeout, or the DLQ. */
  private comesBack(d: Delivery): void {
    const { message } = d;
    if (message.receives >= EXPLORE_TIMINGS.maxReceiveCount) {
      message.state = "dead-lettered";
      this.step?.notes.push(`copy ${message.copy} goes to the dead-letter queue`);
      return;
    }
    message.state = "waiting";
    message.visibleAt = d.receivedAt + this.visibilityMs;
  }

  // ─── Bookkeeping ─────────────────────────────────────────────────────────────────────

  private begin(who: string, what: string, options: number): void {
    this.step = { n: this.steps.length + 1, who, what, events: [], options, notes: [] };
    this.steps.push(this.step);
  }

  /** A line a copy logged: stamped with the step it happened in. */
  private record(event: WorkerEvent): void {
    const step = this.step as Step;
    event.ts = new Date(STEP_CLOCK_START + step.n * 1000 + step.events.length + 1).toISOString();
    step.events.push(event);
    this.events.push(event);
    for (const d of this.deliveries.values()) {
      if (d.requestId === event.requestId) d.said.push(event.type);
    }
  }

  /** A line the explorer writes for a copy, the way the worker's failpoints would have. */
  private said(d: Delivery, type: WorkerEvent["type"], details: Record<string, unknown>): void {
    this.record({
      type,
      orderId: this.orderId,
      messageId: d.message.messageId,
      requestId: d.requestId,
      guard: this.spec.explored.guard,
      ts: "",
      ...details,
    });
  }

  private rule(gate: Gate, action: string, d: Delivery): string {
    return `${gate.name}=${action}@copy${d.message.copy}@attempt${d.attempt}`;
  }

  private note(call: CallInfo): void {
    for (const { table, key } of call.keys) {
      if (table === this.session.tables.ledger) this.touched.chargeIds.push(key);
      if (table === this.session.tables.powertools) this.touched.powertoolsIds.push(key);
    }
  }

  private delivery(actor: Actor): Delivery {
    const d = this.deliveries.get(actor);
    if (!d) throw new Error(`${actor.label} is not a delivery of this schedule`);
    return d;
  }

  private who(d: Delivery): string {
    return d.attempt === 1
      ? `copy ${d.message.copy}`
      : `copy ${d.message.copy} (attempt ${d.attempt})`;
  }

  private label(option: Option): string {
    switch (option.kind) {
      case "go":
      case "crash":
      case "fail":
        return `${option.kind} ${option.actor.label} at ${option.actor.gate?.name}`;
      case "jump":
        return `jump ${option.ms}`;
      case "redeliver":
        return `redeliver copy ${option.copy}`;
    }
  }
}

/** Replays a schedule from the options it picked (a ScheduleRun's trace); after them, the first. */
export function following(picks: readonly number[]): Chooser {
  let i = 0;
  return (options) => {
    const pick = picks[i++] ?? 0;
    if (pick >= options.length) {
      throw new Error(
        `choice ${i} has ${options.length} options; the schedule asks for option ${pick + 1}`,
      );
    }
    return pick;
  };
}
