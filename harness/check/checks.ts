// The checker's vocabulary: each check names what it compares and keeps both sides.
import { isDeepStrictEqual } from "node:util";
import type { LedgerItem } from "../../contract/ledger.js";
import { unendedDeliveries } from "../observe/deliveries.js";
import type { Check, CheckId, IntendedOutcome, Observed, PhaseFacts } from "./facts.js";

export const withId = (id: CheckId, check: Check): Check => ({ id, ...check });

export function equal(name: string, actual: unknown, expected: unknown): Check {
  return { name, pass: isDeepStrictEqual(actual, expected), expected, actual };
}

/** The claims table as "orderId/status" pairs, sorted by orderId, against what it should hold. */
export function claimsAre(name: string, observed: Observed, expected: string[]): Check {
  return equal(
    name,
    observed.claims.map((c) => `${c.orderId}/${c.status}`),
    expected,
  );
}

/** A phase about one order: how many charges the ledger holds, and the verdict the order got. */
export function oneOrderEnded(
  observed: Observed,
  orderId: string,
  verdict: IntendedOutcome["verdict"],
  charges: number,
): Check[] {
  return [
    equal("charges", observed.charges.charges, charges),
    equal(`${orderId} ${verdict}`, observed.intended[orderId]?.verdict, verdict),
  ];
}

/** How many events of this type a phase logged; 0 when none (eventCounts leaves it out). */
export const eventCount = ({ observed }: Pick<PhaseFacts, "observed">, type: string): number =>
  observed.eventCounts[type] ?? 0;

export function atLeast(name: string, actual: number, minimum: number): Check {
  return { name, pass: actual >= minimum, expected: `≥ ${minimum}`, actual };
}

export function greaterThan(name: string, actual: number, bound: number): Check {
  return { name, pass: actual > bound, expected: `> ${bound}`, actual };
}

export function oneOf(name: string, actual: unknown, allowed: readonly unknown[]): Check {
  return {
    name,
    pass: allowed.some((value) => isDeepStrictEqual(value, actual)),
    expected: `one of ${allowed.length} sent`,
    actual,
  };
}

/**
 * Two lists of ids that should hold the same ids, once each. When they do not, the check says
 * which ids are missing from which side: "expected 3, got 3" would tell nobody anything.
 */
export function sameIds(
  name: string,
  sides: { expected: string; actual: string },
  expectedIds: string[],
  actualIds: string[],
): Check {
  const expected = [...expectedIds].sort();
  const actual = [...actualIds].sort();
  const pass = isDeepStrictEqual(expected, actual);
  const onlyIn = (these: string[], those: string[]) => {
    const left = [...those];
    return these.filter((id) => {
      const at = left.indexOf(id);
      if (at === -1) return true;
      left.splice(at, 1);
      return false;
    });
  };
  return {
    name,
    pass,
    expected: `${expected.length} ${sides.expected}`,
    actual: pass
      ? `the same ${actual.length === 1 ? "id" : `${actual.length} ids`} in both`
      : [
          `${actual.length} ${sides.actual}`,
          `not in ${sides.actual}: ${show(onlyIn(expected, actual))}`,
          `only in ${sides.actual}: ${show(onlyIn(actual, expected))}`,
        ].join("; "),
  };
}

const show = (ids: string[]) => (ids.length === 0 ? "none" : ids.join(", "));

/**
 * A charge_applied line that names another chargeId than the ledger item its own delivery wrote:
 * a guard that wrote its charge under an id of its own, around the ledger it was handed.
 */
export interface RenamedCharge {
  requestId: string;
  messageId: string;
  /** What the line says. */
  logged: string;
  /** What the ledger holds. */
  recorded: string;
}

/**
 * The lines and items that differ only in their chargeId: each pair of one line no item has and
 * one item no line names, of the same delivery (requestId and messageId), one to one. The ledger
 * holds the charge; the line names it wrong: a finding, not a charge missing from either side.
 */
export function renamedCharges(facts: Pick<PhaseFacts, "events" | "ledgerItems">): RenamedCharge[] {
  const lines = facts.events.filter((e) => e.type === "charge_applied");
  const stored = new Set(facts.ledgerItems.map((item) => item.chargeId));
  const named = new Set(lines.map((e) => String(e.chargeId)));
  const unnamed = facts.ledgerItems.filter((item) => !named.has(item.chargeId));
  const renamed: RenamedCharge[] = [];
  for (const line of lines) {
    if (stored.has(String(line.chargeId))) continue;
    const at = unnamed.findIndex(
      (item) => item.requestId === line.requestId && item.messageId === line.messageId,
    );
    if (at === -1) continue;
    const [item] = unnamed.splice(at, 1) as [LedgerItem];
    const { requestId, messageId } = line;
    renamed.push({ requestId, messageId, logged: String(line.chargeId), recorded: item.chargeId });
  }
  return renamed;
}

/** True in every phase of every scenario: what the lab's evidence rests on. */
export function invariantChecks(facts: PhaseFacts, notEnded: string[]): Check[] {
  const { messageIds } = facts.sent;
  // A line that names its delivery's item by another id still has exactly one item: the one.
  const renamed = new Map(renamedCharges(facts).map((r) => [r.logged, r.recorded]));
  const logged = facts.events
    .filter((e) => e.type === "charge_applied")
    .map((e) => String(e.chargeId))
    .map((id) => renamed.get(id) ?? id);
  const ledger = sameIds(
    "charge_applied lines with exactly one ledger item",
    { expected: "charge_applied lines", actual: "ledger items" },
    logged,
    facts.ledgerItems.map((item) => item.chargeId),
  );
  return [
    withId(
      "messages-ended",
      sameIds(
        "sent messages that ended (acknowledged or dead-lettered)",
        { expected: "sent", actual: "ended" },
        messageIds,
        messageIds.filter((id) => !notEnded.includes(id)),
      ),
    ),
    withId(
      "charges-in-ledger",
      ledger.pass
        ? ledger
        : { ...ledger, actual: `${ledger.actual}${unloggedCharges(facts, logged)}` },
    ),
  ];
}

/**
 * Why a charge has no line: its delivery stopped between the ledger write and the log. If that
 * delivery never logged its end either, it was killed there: on purpose (a crash), or by Lambda
 * at the function timeout, which a machine too busy for the lesson's clock makes happen.
 */
function unloggedCharges(facts: PhaseFacts, logged: string[]): string {
  const unended = new Set(
    unendedDeliveries(facts.events).map((start) => `${start.requestId}/${start.messageId}`),
  );
  const sent = new Set(facts.sent.messageIds);
  const why = facts.ledgerItems
    .filter((item) => !logged.includes(item.chargeId))
    .map(
      (item) =>
        `${item.chargeId} was charged by delivery ${item.requestId} (attempt ${item.attempt}), ` +
        (!sent.has(item.messageId)
          ? `of message ${item.messageId}, which this phase did not send (an earlier phase's, still delivered after that phase ended)`
          : unended.has(`${item.requestId}/${item.messageId}`)
            ? "which never ended: killed after its charge (a crash, or the function timeout on a busy machine)"
            : "which ended without its charge line"),
    );
  return why.length === 0 ? "" : ` (${why.join("; ")})`;
}
