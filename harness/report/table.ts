// Tables for the terminal, in one style: a header, no rule between rows, colour only on a TTY.
import Table from "cli-table3";

export const stdoutColour = process.stdout.isTTY && !process.env.NO_COLOR;

export function table(head: string[], rows: (string | number)[][], colWidths?: number[]): string {
  const t = new Table({
    head,
    style: { head: stdoutColour ? ["cyan"] : [], border: [] },
    chars: { mid: "", "left-mid": "", "mid-mid": "", "right-mid": "" },
    ...(colWidths ? { colWidths, wordWrap: true } : {}),
  });
  t.push(...rows.map((row) => row.map(String)));
  return t.toString();
}
