// One schedule: N copies of one order (each its own SQS message), run through the real guard
// until every copy and every retry has ended, with every step chosen from outside. A step lets a
// parked copy go on, kills it where it stands, makes a failpoint throw, jumps the clock, or has
// SQS deliver a failed or crashed message again. Then the checker reads the tables.
//
// The parts: the queue (sqs.ts), what may happen next (choices.ts), the faults left
// (budget.ts), the story told (narration.ts), what a schedule is given and gives back
// (schedule-run.ts); this module takes the steps.
import type { WorkerConfig } from "../../contract/settings.js";
import { InjectedFault } from "../../worker/injected.js";
import { FAIL_AT, FaultBudget } from "./budget.js";
import { type Choice, Choices, type Chooser, type Option } from "./choices.js";
import { FakeClock } from "./clock.js";
import { deliver, lambdaContext } from "./copy.js";
import { Actor, type Gate, type Scope, Stage } from "./gates.js";
import { label, lost, Narration, rule, who } from "./narration.js";
import { type EndState, judge, type Verdict } from "./properties.js";
import type { ScheduleRun, ScheduleSpec } from "./schedule-run.js";
import type { Session } from "./session.js";
import { type Delivery, type Message, Queue } from "./sqs.js";
import { TouchedKeys, type WentAround } from "./touched.js";

/** Far more than any schedule takes: a loop here is a bug. */
const MAX_STEPS = 500;

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
  private readonly queue: Queue;
  private readonly budget: FaultBudget;
  private readonly choices: Choices;
  private readonly story: Narration;
  private readonly trace: Choice[] = [];
  private readonly touched: TouchedKeys;
  /** DynamoDB requests a copy made that no gate saw. */
  private readonly around: WentAround[] = [];
  private readonly config: WorkerConfig;
  private verdict: Verdict | undefined;
  private end: EndState | undefined;

  constructor(
    private readonly session: Session,
    private readonly spec: ScheduleSpec,
  ) {
    this.stage = new Stage(spec.explored.hangMs);
    this.budget = new FaultBudget(spec.budget);
    this.config = session.configFor(spec.explored);
    this.touched = new TouchedKeys(session.tables);
    this.orderId = session.nextOrderId(spec.explored);
    this.queue = new Queue(this.orderId, spec.copies, this.clock.now());
    this.story = new Narration(this.orderId, spec.explored.guard, (event) =>
      this.queue.byRequestId(event.requestId)?.said.push(event.type),
    );
    this.choices = new Choices({
      stage: this.stage,
      queue: this.queue,
      budget: this.budget,
      clock: this.clock,
      jumps: spec.explored.jumps,
      failAt: spec.failAt ?? FAIL_AT,
      ledger: session.tables.ledger,
      freshChargeIds: this.config.providerKey === "none",
      maxAttempts: session.retries.maxAttempts,
    });
  }

  private readonly scope: Scope = {
    now: () => this.clock.now(),
    reach: (actor, gate) => this.reach(actor, gate),
    calling: (actor, call) => {
      if (actor.state !== "dead") this.touched.note(call);
    },
    heard: (_actor, what) => this.story.note(what),
    wentAround: (actor, operation) =>
      this.around.push({ who: who(this.queue.delivery(actor)), operation }),
    exited: (actor, code) => this.exited(actor, code),
  };

  async run(choose: Chooser): Promise<void> {
    // Every copy is received at once, as SQS hands out the copies a producer sent together.
    for (const message of this.queue.messages) {
      this.story.begin("SQS", `delivers copy ${message.copy}`, 1);
      this.receive(message);
      await this.stage.quiet();
    }
    for (;;) {
      const options = this.choices.options();
      if (options.length === 0) break;
      let pick = 0;
      if (options.length > 1) {
        pick = choose(options);
        this.trace.push({ count: options.length, pick, label: label(options[pick] as Option) });
      }
      await this.take(options[pick] as Option, options.length);
      if (this.story.steps.length > MAX_STEPS) {
        throw new Error(`a schedule of ${this.orderId} took more than ${MAX_STEPS} steps`);
      }
    }
    const { chargeIds, powertoolsIds, unlogged } = this.touched;
    const state = await this.session.read({ orderId: this.orderId, chargeIds, powertoolsIds });
    this.end = {
      ledger: state.ledger,
      claim: state.claim,
      powertools: state.powertools,
      deadLettered: this.queue.deadLettered().length,
    };
    this.verdict = judge(this.end, this.story.events, unlogged);
  }

  result(): ScheduleRun {
    if (!this.end || !this.verdict) throw new Error("the schedule has not run");
    const { messages } = this.queue;
    return {
      orderId: this.orderId,
      copies: this.spec.copies,
      steps: this.story.steps,
      events: this.story.events,
      trace: this.trace,
      messageIds: messages.map((m) => m.messageId),
      bodies: messages.map((m) => m.body),
      deadLettered: this.queue.deadLettered().map((m) => m.messageId),
      faults: this.budget.used(),
      end: this.end,
      verdict: this.verdict,
      around: this.around,
    };
  }

  /** A failpoint where the only option would be to go on is passed without a step. */
  private reach(actor: Actor, gate: Gate): Promise<void> {
    // A copy that ended its own process goes nowhere: what its code still runs never settles.
    if (actor.state === "dead") return new Promise(() => {});
    const d = this.queue.delivery(actor);
    d.firstGate = d.firstGate === undefined;
    if (gate.point !== undefined) {
      const { choices } = this;
      const decisions = choices.mayCrash(gate) || choices.mayFail(gate) || choices.clockMayMove(d);
      if (!decisions) return Promise.resolve();
    }
    return this.stage.park(actor, gate);
  }

  private async take(option: Option, count: number): Promise<void> {
    const { story } = this;
    switch (option.kind) {
      case "go": {
        const d = this.queue.delivery(option.actor);
        const attempt = option.actor.gate?.attempt;
        story.begin(who(d), `${option.actor.gate?.name}: goes on`, count, { attempt });
        this.stage.go(option.actor);
        break;
      }
      case "crash": {
        const d = this.queue.delivery(option.actor);
        const gate = option.actor.gate as Gate;
        story.begin(who(d), `${gate.name}: crashes (killed, never resumes)`, count);
        this.budget.spend("deaths");
        this.die(d, gate, "crashed");
        break;
      }
      case "fail": {
        const d = this.queue.delivery(option.actor);
        const gate = option.actor.gate as Gate;
        story.begin(who(d), `${gate.name}: fails (the failpoint throws)`, count);
        this.budget.spend("fails");
        story.said(d, "failpoint", {
          point: gate.name,
          rule: rule(gate, "fail", d),
          action: "fail",
        });
        this.stage.fail(option.actor, new InjectedFault(`failpoint ${gate.name}: fail`));
        break;
      }
      case "lose": {
        const d = this.queue.delivery(option.actor);
        const gate = option.actor.gate as Gate;
        story.begin(who(d), `${gate.name}: goes on, ${lost(option.what)}`, count, {
          attempt: gate.attempt,
          loss: option.what,
        });
        this.budget.spend("losses");
        if (option.what === "payment") this.touched.answerLost(gate.call);
        gate.lose = option.what;
        this.stage.go(option.actor);
        break;
      }
      case "jump": {
        story.begin("clock", `+${option.ms} ms`, count);
        this.budget.spend("jumps");
        this.clock.advance(option.ms);
        this.timeOut();
        break;
      }
      case "redeliver": {
        const message = this.queue.message(option.copy);
        const late = Math.max(0, message.visibleAt - this.clock.now());
        story.begin(
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
    const d = this.queue.receive(
      message,
      this.clock.now(),
      (actorLabel) => new Actor(actorLabel, this.scope),
    );
    const { actor } = d;
    const { explored } = this.spec;
    this.stage.start(
      actor,
      () =>
        deliver({
          guard: explored.run,
          config: this.config,
          body: message.body,
          invocation: { messageId: message.messageId, requestId: d.requestId, attempt: d.attempt },
          dynamo: this.session.dynamo,
          context: lambdaContext(this.session.functionName, d.requestId, () =>
            Math.max(0, d.deadline - this.clock.now()),
          ),
          at: (point) => actor.scope.reach(actor, { name: point, point }),
          write: (event) => {
            if (actor.state !== "dead") this.story.record(event);
          },
          calls: () => actor.calls,
          attempts: () => actor.attempts,
        }),
      (result) => this.ended(d, "value" in result ? result.value : "failed"),
    );
  }

  private ended(d: Delivery, end: NonNullable<Delivery["end"]>): void {
    if (this.queue.ended(d, end) === "dead-lettered") {
      this.story.note(`copy ${d.message.copy} goes to the dead-letter queue`);
    }
  }

  /** Lambda stops an invocation at its deadline: a copy still parked past it never goes on. */
  private timeOut(): void {
    for (const actor of this.stage.parked()) {
      const d = this.queue.delivery(actor);
      if (this.clock.now() < d.deadline) continue;
      this.budget.spend("deaths");
      this.die(d, actor.gate as Gate, "timed out");
      this.story.note(`${who(d)} timed out at ${actor.gate?.name ?? "?"}: Lambda killed it`);
    }
  }

  /**
   * In Lambda, process.exit ends the runtime's process: the invocation ends with it, unanswered,
   * and SQS delivers the message again, as after a crash. Not a fault the explorer chose.
   */
  private exited(actor: Actor, code: unknown): void {
    const d = this.queue.delivery(actor);
    this.story.note(
      `${who(d)} calls process.exit(${code ?? ""}): the function's process ends, the invocation with it`,
    );
    this.stage.kill(actor);
    this.ended(d, "crashed");
  }

  private die(d: Delivery, gate: Gate, how: "crashed" | "timed out"): void {
    this.story.said(d, "failpoint", {
      point: gate.name,
      rule: rule(gate, "crash", d),
      action: "crash",
      ...(how === "timed out" ? { timedOut: true as const } : {}),
    });
    this.stage.kill(d.actor);
    this.ended(d, how);
  }
}
