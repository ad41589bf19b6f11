/**
 * The lines of a GitHub-flavoured pipe table, for the README renderer
 * (`markdown.ts`): a header row, a delimiter row (`| :-- | --: | :-: |`,
 * giving each column's alignment) with as many cells, then body rows. Work
 * is one pass over each line.
 *
 * @module
 */

/** How a column of a table is aligned (null: as the page aligns it). */
export type Align = "left" | "right" | "center" | null;

/**
 * The cells of the table row `line` (pipes at its ends optional; `\|` is a
 * pipe inside a cell), or null when it has no pipe.
 *
 * @example
 * ```ts
 * import { tableCells } from "./markdown_table.ts";
 * tableCells("| a | b \\| c |"); // ["a", "b | c"]
 * ```
 */
export function tableCells(line: string): string[] | null {
  let t = line.trim();
  if (!t.includes("|")) return null;
  if (t.startsWith("|")) t = t.slice(1);
  if (t.endsWith("|") && !t.endsWith("\\|")) t = t.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === "\\" && t[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (c === "|") {
      cells.push(cell.trim());
      cell = "";
    } else {
      cell += c;
    }
  }
  cells.push(cell.trim());
  return cells;
}

const DELIMITER = /^:?-+:?$/;

/**
 * The alignments of the delimiter row `line`, or null when it is not one.
 *
 * @example
 * ```ts
 * import { tableAlign } from "./markdown_table.ts";
 * tableAlign("| :-- | --: | :-: | --- |"); // ["left", "right", "center", null]
 * ```
 */
export function tableAlign(line: string): Align[] | null {
  const cells = tableCells(line);
  if (!cells) return null;
  const out: Align[] = [];
  for (const c of cells) {
    if (!DELIMITER.test(c)) return null;
    const left = c.startsWith(":");
    const right = c.endsWith(":");
    out.push(left && right ? "center" : right ? "right" : left ? "left" : null);
  }
  return out;
}

/**
 * The header cells and alignments of a table starting at line `at` of
 * `lines`, or null when no table starts there.
 */
export function tableStart(lines: string[], at: number): { head: string[]; align: Align[] } | null {
  if (at + 1 >= lines.length) return null;
  const align = tableAlign(lines[at + 1]);
  if (!align) return null;
  const head = tableCells(lines[at]);
  return head && head.length === align.length ? { head, align } : null;
}

/** `cells` made `n` long: cut, or filled with empty cells. */
export function fitCells(cells: string[], n: number): string[] {
  const out = cells.slice(0, n);
  while (out.length < n) out.push("");
  return out;
}
