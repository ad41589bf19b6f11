/**
 * A SQL answer's rows (the JSON text of an array of arrays, as the SQL
 * worker writes it) taken apart into each cell's JSON text, so that every
 * digit a cell holds is kept; the column names a download keys records by;
 * and the rows as the JSON that DuckDB's `from_json_strict` turns into typed
 * columns for Parquet.
 *
 * @module
 */
import { cellOfJson } from "./_csv.ts";

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN = new Set([91, 123]); // [ {
const CLOSE = new Set([93, 125]); // ] }

/**
 * The cells of `rows` (a JSON array of arrays), each as its own JSON text.
 *
 * @example
 * ```ts
 * import { resultCells } from "./_result_rows.ts";
 * resultCells('[[1,"a,b",[2,3]],[12345678901234567890.5,null,{"k":"]"}]]');
 * // [["1", '"a,b"', "[2,3]"], ["12345678901234567890.5", "null", '{"k":"]"}']]
 * ```
 */
export function resultCells(rows: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < rows.length; i++) {
    const ch = rows.charCodeAt(i);
    if (ch === QUOTE) {
      for (i++; i < rows.length && rows.charCodeAt(i) !== QUOTE; i++) if (rows.charCodeAt(i) === BACKSLASH) i++;
    } else if (OPEN.has(ch)) {
      if (++depth === 2) [row, start] = [[], i + 1];
    } else if (CLOSE.has(ch)) {
      if (depth-- === 2) {
        const last = rows.slice(start, i).trim();
        if (last !== "" || row.length > 0) row.push(last);
        out.push(row);
      }
    } else if (ch === COMMA && depth === 2) {
      row.push(rows.slice(start, i).trim());
      start = i + 1;
    }
  }
  return out;
}

/**
 * The names records are keyed by: the columns' own, a name met again
 * (ignoring case, as DuckDB compares names) given `_2`, `_3`, ..., and an
 * empty name `column_<n>` (its place, from 1).
 *
 * @example
 * ```ts
 * import { uniqueNames } from "./_result_rows.ts";
 * uniqueNames(["id", "ID", "", "id"]); // ["id", "ID_2", "column_3", "id_3"]
 * ```
 */
export function uniqueNames(columns: readonly string[]): string[] {
  const taken = new Set<string>();
  return columns.map((column, i) => {
    const base = column === "" ? `column_${i + 1}` : column;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** Types a Parquet download keeps, written from the cell's text. */
const TYPED =
  /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\)|VARCHAR|DATE|TIME|TIMESTAMP|TIMESTAMP_S|TIMESTAMP_MS|TIMESTAMP_NS|TIMESTAMP WITH TIME ZONE|UUID)$/;
/** Lists a Parquet download keeps, written from the cell's JSON (whose numbers and text read back exactly). */
const LISTED =
  /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|VARCHAR|DATE|TIMESTAMP|UUID)(\[\])+$/;

/** How a column's cells become Parquet: typed from their text, a blob from hex, a list from JSON, or text. */
type Kind = "typed" | "blob" | "list" | "text";

function kindOf(type: string): Kind {
  if (type === "BLOB") return "blob";
  if (TYPED.test(type)) return "typed";
  return LISTED.test(type) ? "list" : "text";
}

function parquetValue(kind: Kind, cell: string): string {
  if (cell === "null" || kind === "list") return cell;
  const text = cellOfJson(cell)!;
  return JSON.stringify(text);
}

/**
 * The rows of an answer as `from_json_strict` reads them into Parquet
 * columns: `structure` (an array of one object naming each column's type) and `rows`
 * (an array of objects), both JSON text, and the columns that are blobs
 * (given as their hex text, for `unhex`). Types Parquet keeps exactly (numbers
 * of every width, decimals, booleans, text, dates, times, timestamps, UUIDs,
 * blobs, lists of plain values) keep their type; any other (structs, maps,
 * intervals, enums, ...) is its CSV text, a string.
 *
 * @example
 * ```ts
 * import { parquetRows } from "./_result_rows.ts";
 * parquetRows(["n", "s"], ["BIGINT", "STRUCT(a INTEGER)"], [['"9007199254740993"', '{"a":1}']]);
 * // { structure: '[{"n":"BIGINT","s":"VARCHAR"}]', rows: '[{"n":"9007199254740993","s":"{\\"a\\":1}"}]', blobs: [] }
 * ```
 */
export function parquetRows(
  names: readonly string[],
  types: readonly string[],
  rows: readonly string[][],
): { structure: string; rows: string; blobs: string[] } {
  const kinds = types.map(kindOf);
  const structure: Record<string, string> = {};
  names.forEach((name, i) => {
    structure[name] = kinds[i] === "text" || kinds[i] === "blob" ? "VARCHAR" : types[i];
  });
  const keys = names.map((n) => JSON.stringify(n) + ":");
  const objects = rows.map((row) => `{${row.map((cell, i) => keys[i] + parquetValue(kinds[i], cell)).join(",")}}`);
  const blobs = names.filter((_, i) => kinds[i] === "blob");
  return { structure: `[${JSON.stringify(structure)}]`, rows: `[${objects.join(",")}]`, blobs };
}
