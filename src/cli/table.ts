/**
 * Query answers as a plain text table for terminals.
 *
 * @module
 */

const MAX_CELL = 48;

function cell(value: unknown): string {
  const text = value === null ? "NULL" : typeof value === "string" ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, " ");
  return flat.length > MAX_CELL ? flat.slice(0, MAX_CELL - 1) + "…" : flat;
}

/**
 * Renders `columns` and `rows` as an aligned text table (cells cut at 48
 * characters), numbers right-aligned.
 *
 * @example
 * ```ts
 * import { renderTable } from "./table.ts";
 * renderTable(["city", "n"], [["Seoul", 3]]);
 * ```
 */
export function renderTable(columns: string[], rows: unknown[][]): string {
  const cells = rows.map((row) => row.map(cell));
  const widths = columns.map((name, i) => Math.max(cell(name).length, ...cells.map((r) => r[i].length)));
  const numeric = columns.map((_, i) =>
    rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === "number")
  );
  const line = (values: string[]) =>
    values.map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join("  ").trimEnd();
  return [line(columns.map(cell)), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n") + "\n";
}
