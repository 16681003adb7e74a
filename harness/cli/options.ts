// The lab's vocabulary on the command line, one parser per kind of value (a guard word, a count, a
// seed, a budget, a file name), checked as commander reads them: a bad one is a usage error
// (exit 2) naming what is wrong, before the lab is touched.
import { type Command, InvalidArgumentError, Option } from "commander";
import { UsageError } from "../common/errors.js";
import { MAX_COPIES, mangleLikePowerShell, orderBody, readBodyFile } from "../drive/order-body.js";
import type { ExploreBudgetName } from "../explore/budgets.js";

export { parseGuard, parseGuardList, parseGuardOrFile } from "../aws/guard-word.js";

/** A whole number from min to max, for the flag named: every count, number and seed is read so. */
export function wholeNumber(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    throw new InvalidArgumentError(
      `${flag} must be a whole number from ${min} to ${max}, got "${value}"`,
    );
  };
}

/** `lab send --copies`: as many copies as one send may make. */
export const parseCopies = wholeNumber("--copies", 1, MAX_COPIES);

/** `--work-ms`: the simulated work before the charge. */
export const parseMs = wholeNumber("--work-ms", 0, 10_000);

/** --seed: fast-check's seed, for the explorer and a grade; a fresh one when left out. */
export const seedOption = () =>
  new Option("--seed <n>", "fast-check's seed (default: a fresh one, printed)").argParser(
    wholeNumber("--seed", 0, 2 ** 31 - 1),
  );

/** --budget: how much of the explorer to run, among the sizes this command offers. */
export const budgetOption = (sizes: readonly ExploreBudgetName[], fallback: ExploreBudgetName) =>
  new Option("--budget <size>", "how much of the explorer to run").choices(sizes).default(fallback);

/** A comma-separated value's parts, trimmed, empty ones left out. */
export const commaList = (value: string): string[] =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");

/** A file name a command writes to: not empty. */
export function parseFileName(flag: string): (value: string) => string {
  return (value) => {
    if (value.trim() === "") throw new InvalidArgumentError(`${flag} needs a file name`);
    return value;
  };
}

export function parseAmount(value: string): number {
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < 0)
    throw new InvalidArgumentError(`"${value}" is not an amount`);
  return amount;
}

export function parseOrderId(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("the order id is empty");
  return value;
}

export interface SendOptions {
  orderId: string;
  copies: number;
  customerId: string;
  amount: number;
  bodyFile?: string;
  powershellQuoting?: boolean;
  wait: boolean;
}

/** The body `lab send` sends, and the order it means; options that contradict each other are refused. */
export function messageToSend(options: SendOptions, command: Command) {
  const typed = ["orderId", "customerId", "amount"].filter(
    (o) => command.getOptionValueSource(o) === "cli",
  );
  if (options.bodyFile && typed.length > 0) {
    throw new UsageError(
      "--body-file sends the file as it is: leave out --order-id, --customer-id and --amount",
    );
  }
  if (options.bodyFile && options.powershellQuoting) {
    throw new UsageError(
      "--body-file and --powershell-quoting do not go together: the file is sent as it is",
    );
  }
  const message = options.bodyFile
    ? readBodyFile(options.bodyFile)
    : { body: orderBody(options), intendedOrderId: options.orderId };
  if (options.powershellQuoting) message.body = mangleLikePowerShell(message.body);
  return message;
}
