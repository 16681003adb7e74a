// What may happen next in a schedule, offered so that equivalent schedules are not run twice:
// - a copy parked at a failpoint is settled before anyone else moves: nothing there touches the
//   tables, so another copy's step commutes with it (only the clock does not: see clockMayMove);
// - a call only its own copy can touch (its charge's ledger item) goes before the others;
// - of copies that are copies (same attempt, same history, same gate) only the first is offered;
// - a crash is offered where it changes what the tables end up holding: before a call, and at
//   before-end, after the last one;
// - a failpoint with nothing to decide is passed at once;
// - a loss the SDK's retry hides (a lost request, a read's lost answer) is the copy waiting, so it
//   is offered only where the losses left could take every attempt the SDK has left.
import type { FailpointName } from "../../contract/failpoints.js";
import type { FaultBudget } from "./budget.js";
import type { FakeClock } from "./clock.js";
import type { Actor, Gate, Loss, Stage } from "./gates.js";
import type { Delivery, Message, Queue } from "./sqs.js";

export type Option =
  | { kind: "go"; actor: Actor }
  | { kind: "crash"; actor: Actor }
  | { kind: "fail"; actor: Actor }
  | { kind: "lose"; actor: Actor; what: Loss }
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

/** What the choices are made from: the schedule's parts, read, never changed here. */
export interface World {
  stage: Stage;
  queue: Queue;
  budget: FaultBudget;
  clock: FakeClock;
  /** How far the clock may jump (Explored.jumps). */
  jumps: readonly number[];
  failAt: readonly FailpointName[];
  /** The charges ledger's table name. */
  ledger: string;
  /** Whether every charge gets a fresh chargeId (no provider idempotency key). */
  freshChargeIds: boolean;
  /** The SDK's attempts at a call, the first included (the worker's maxAttempts). */
  maxAttempts: number;
}

/** The chargeId worker/ledger.ts makes for a charge without a provider key: a random UUID. */
const FRESH_CHARGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Calls that change a table: their answer lost is not the same as their request lost. */
const WRITES = new Set([
  "PutItem",
  "UpdateItem",
  "DeleteItem",
  "TransactWriteItems",
  "BatchWriteItem",
]);

export class Choices {
  constructor(private readonly world: World) {}

  options(): Option[] {
    const { stage, queue, budget, jumps } = this.world;
    const parked = stage.parked();
    const waiting = queue.waiting();
    if (parked.length === 0) {
      // Nothing else can happen but SQS handing a message back.
      return distinctMessages(waiting).map((m): Option => ({ kind: "redeliver", copy: m.copy }));
    }
    const atPoint = parked.find((a) => a.gate?.point !== undefined);
    if (!atPoint) {
      // A call nobody else can touch goes first: taking it later ends up the same.
      const alone = parked.find((a) => this.touchesOnlyItsOwn(a.gate as Gate));
      if (alone) {
        return [
          { kind: "go", actor: alone },
          ...(this.mayCrash(alone.gate as Gate) ? [{ kind: "crash", actor: alone } as const] : []),
          ...this.losses(alone.gate as Gate).map(
            (what): Option => ({ kind: "lose", actor: alone, what }),
          ),
        ];
      }
    }
    const movers = atPoint ? [atPoint] : this.distinct(parked);
    const gateOf = (a: Actor) => a.gate as Gate;
    // The clock moves between calls, or before a copy's first one: see clockMayMove.
    const clockMoves: Option[] =
      atPoint && !queue.delivery(atPoint).firstGate
        ? []
        : [
            ...(budget.left("jumps", 1) ? jumps.map((ms): Option => ({ kind: "jump", ms })) : []),
            ...distinctMessages(waiting).map((m): Option => ({ kind: "redeliver", copy: m.copy })),
          ].filter((o) => {
            const killed = this.killedBy(o);
            const cost = killed + (o.kind === "jump" ? 1 : 0);
            return (
              (killed === 0 || budget.left("deaths", killed)) &&
              (cost === 0 || budget.left("total", cost))
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
      ...movers.flatMap((actor) =>
        this.losses(gateOf(actor)).map((what): Option => ({ kind: "lose", actor, what })),
      ),
      ...clockMoves,
    ];
  }

  /** Before a call, or after the last one (before-end): elsewhere a crash ends up the same. */
  mayCrash(gate: Gate): boolean {
    return (
      this.world.budget.left("deaths", 1) &&
      (gate.point === undefined || gate.point === "before-end")
    );
  }

  mayFail(gate: Gate): boolean {
    return (
      this.world.budget.left("fails", 1) &&
      gate.point !== undefined &&
      this.world.failAt.includes(gate.point)
    );
  }

  /**
   * What the network may lose of this attempt of a call. A call that writes the ledger is the
   * payment: only its answer can be lost (its request lost is a failed charge, a fail at
   * before-charge). Any other write: its answer, and where it could matter, its request.
   */
  losses(gate: Gate): Loss[] {
    const { call } = gate;
    const { budget, ledger, maxAttempts } = this.world;
    const left = budget.remaining("losses");
    if (!call || left < 1) return [];
    const writes = WRITES.has(call.operation);
    if (call.keys.some((k) => k.table === ledger)) return writes ? ["payment"] : [];
    const everyAttempt = left >= maxAttempts - (gate.attempt ?? 1) + 1;
    if (!writes) return everyAttempt ? ["answer"] : [];
    return everyAttempt ? ["answer", "request"] : ["answer"];
  }

  /**
   * Whether the clock may move while this copy stands at this failpoint. The worker reads the
   * clock only to build a call (leaseUntil, :now, Powertools' expiries), so a jump between two of
   * a copy's calls ends up the same wherever it falls between them, except before its first call:
   * only there can a jump come after the copy started and before it read the clock.
   */
  clockMayMove(d: Delivery): boolean {
    if (!d.firstGate) return false;
    const jumps = this.world.budget.left("jumps", 1) && this.world.jumps.length > 0;
    return jumps || this.world.queue.waiting().length > 0;
  }

  /** How many parked copies a jump or a redelivery would take past their deadline. */
  private killedBy(option: Option): number {
    const { clock, queue, stage } = this.world;
    const to =
      option.kind === "jump"
        ? clock.now() + option.ms
        : option.kind === "redeliver"
          ? Math.max(clock.now(), queue.message(option.copy).visibleAt)
          : clock.now();
    return stage.parked().filter((a) => queue.delivery(a).deadline <= to).length;
  }

  /**
   * The copies are copies: two deliveries received at the same time, at the same attempt, that
   * have done and said the same so far and stand at the same gate are interchangeable, so only
   * the first of them is offered (a schedule with the two swapped ends up the same).
   */
  private distinct(actors: Actor[]): Actor[] {
    const seen = new Set<string>();
    return actors.filter((actor) => {
      const d = this.world.queue.delivery(actor);
      const signature = [d.attempt, d.receivedAt, actor.gate?.name, actor.calls, ...d.said].join(
        "|",
      );
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
    const { ledger, freshChargeIds } = this.world;
    // A guard may record its charge under a key of its own, which other copies may name too.
    const fresh = (key: string) => freshChargeIds && FRESH_CHARGE_ID.test(key);
    return keys.length > 0 && keys.every((k) => k.table === ledger && fresh(k.key));
  }
}

/** The same for messages waiting to come back: their next delivery starts from nothing. */
function distinctMessages(waiting: Message[]): Message[] {
  const seen = new Set<string>();
  return waiting.filter((m) => {
    const signature = `${m.receives}|${m.visibleAt}`;
    if (seen.has(signature)) return false;
    seen.add(signature);
    return true;
  });
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
