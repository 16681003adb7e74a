// A matrix scenario's table as data: guards across, failure modes down, each cell what one
// phase measured, and each phase's run beside it. Both reports draw it.
import type { Cell } from "../check/facts.js";
import type { ScenarioResult } from "../scenario/result.js";
import { type CheckView, checkView, seconds } from "./check-view.js";
import { cellText } from "./failure-words.js";

export interface MatrixCellView {
  text: string;
  ok: boolean;
  charges: number;
  orders: number;
  /** The number of the phase that measured it. */
  phase?: number;
}

export interface MatrixView {
  corner: string;
  columns: string[];
  rows: { row: string; cells: (MatrixCellView | undefined)[] }[];
  /** One per phase: how its run went, and the checks that failed. */
  runs: {
    name: string;
    pass: boolean;
    cell?: MatrixCellView;
    seconds: string;
    failed: CheckView[];
  }[];
}

export function matrixView(result: ScenarioResult): MatrixView | undefined {
  const { matrix } = result;
  if (!matrix) return undefined;
  const key = (cell: { row: string; column: string }) => `${cell.row}\u0000${cell.column}`;
  const phaseOf = new Map(result.phases.flatMap((p, i) => (p.cell ? [[key(p.cell), i + 1]] : [])));
  const cellView = (cell: Cell) => ({
    text: cellText(cell),
    ok: cell.ok,
    charges: cell.charges,
    orders: cell.orders,
  });
  return {
    corner: "failure mode",
    columns: matrix.columns,
    rows: matrix.rows.map((row) => ({
      row,
      cells: matrix.columns.map((column) => {
        const cell = matrix.cells.find((c) => c.row === row && c.column === column);
        const phase = phaseOf.get(key({ row, column }));
        return cell && { ...cellView(cell), ...(phase === undefined ? {} : { phase }) };
      }),
    })),
    runs: result.phases.map((phase) => ({
      name: phase.name,
      pass: phase.pass,
      ...(phase.cell ? { cell: cellView(phase.cell) } : {}),
      seconds: seconds(phase.durationMs),
      failed: phase.checks.filter((c) => !c.pass).map(checkView),
    })),
  };
}
