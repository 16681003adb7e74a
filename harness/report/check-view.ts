// How a value, a check and a duration read in either report.
import type { Check } from "../check/facts.js";

/** A value as the reports print it: strings as they are, anything else as JSON. */
export const show = (value: unknown): string =>
  typeof value === "string" ? value : String(JSON.stringify(value));

export interface CheckView {
  name: string;
  pass: boolean;
  expected: string;
  actual: string;
}

export const checkView = (check: Check): CheckView => ({
  name: check.name,
  pass: check.pass,
  expected: show(check.expected),
  actual: show(check.actual),
});

export const seconds = (ms: number) => (ms / 1000).toFixed(1);
