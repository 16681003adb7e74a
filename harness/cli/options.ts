// The lab command's option values, checked as commander reads them: a bad one is a usage error
// (exit 2) naming what is wrong, before the lab is touched.
import { type Command, InvalidArgumentError } from "commander";
import { GUARD_WORDS, GUARDS, type GuardName, guardFromWord } from "../../contract/settings.js";
import { type GuardFile, guardFileAt, looksLikeGuardFile } from "../aws/guard-file.js";
import { UsageError } from "../common/errors.js";
import {
  copiesProblem,
  mangleLikePowerShell,
  orderBody,
  readBodyFile,
} from "../drive/order-body.js";
import { closest } from "./closest.js";

/** `lab guard <mode>`: a guard of the lab, or a guard file (checked, not yet built). */
export function parseGuardOrFile(value: string): GuardName | GuardFile {
  return looksLikeGuardFile(value) ? guardFileAt(value) : parseGuard(value);
}

export function parseGuard(value: string): GuardName {
  const guard = guardFromWord(value);
  if (guard) return guard;
  const hint = closest(value, GUARDS);
  throw new UsageError(
    `"${value}" is not a guard; use ${GUARD_WORDS.join(", ")}${hint.length ? ` (did you mean ${hint[0]}?)` : ""}`,
  );
}

export function parseCopies(value: string): number {
  const copies = Number(value);
  const problem = copiesProblem(copies, value);
  if (problem) throw new InvalidArgumentError(problem);
  return copies;
}

export function parseAmount(value: string): number {
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount < 0)
    throw new InvalidArgumentError(`"${value}" is not an amount`);
  return amount;
}

export function parseMs(value: string): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 10_000) {
    throw new InvalidArgumentError(
      `milliseconds must be a whole number from 0 to 10000, got "${value}"`,
    );
  }
  return ms;
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
