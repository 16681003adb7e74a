// Progress and diagnostics go to stderr, so `--json` output on stdout stays machine-readable.
import { styleText } from "node:util";

export type Say = (message: string) => void;

const useColour = process.stderr.isTTY && !process.env.NO_COLOR;
const paint = (style: Parameters<typeof styleText>[0], text: string) =>
  useColour ? styleText(style, text) : text;

export const say: Say = (message) => process.stderr.write(`${paint("dim", "lab")} ${message}\n`);
export const quiet: Say = () => {};

/** Times a step and reports it when it takes long enough for a person to wonder. */
export async function step<T>(tell: Say, what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const slow = setTimeout(() => tell(`${what}…`), 1000);
  try {
    const result = await work();
    const ms = Date.now() - started;
    if (ms >= 1000) tell(`${what}: done in ${(ms / 1000).toFixed(1)} s`);
    return result;
  } finally {
    clearTimeout(slow);
  }
}

export { paint };
