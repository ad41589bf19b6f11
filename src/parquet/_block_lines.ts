/**
 * A block of records for the page cache, built by DuckDB: each record's JSON
 * text made by DuckDB (see `_line_sql.ts`), the block's texts joined by
 * commas there and handed over as one value with each record's length, where
 * decoding a block in JavaScript (DuckDB's values converted, then written as
 * JSON) cost 24-32 ms of CPU for 10,240 records (docs/benchmarks.md,
 * "budget"). A part whose columns DuckDB does not write as the data page
 * does, or that has its own `file_row_number` column, is decoded in
 * JavaScript as before.
 *
 * @module
 */
import { DuckDBBlobValue, type DuckDBConnection, DuckDBListValue } from "@duckdb/node-api";
import { sqlString } from "./_duckdb.ts";
import { footerFacts } from "./_footer_facts.ts";
import { jsonLineSql, type LineSql, linesSelect } from "./_line_sql.ts";
import { type CachedGroup, cachedGroupOfText } from "./cached_group.ts";

/**
 * The SQL of a record's JSON text over the columns of the part at `path`,
 * or null when they are not all written by DuckDB here (or one is named
 * `file_row_number`).
 *
 * @example
 * ```ts ignore
 * const line = await partLineSql(connection, "/store/cities/parts/ab.parquet");
 * ```
 */
export async function partLineSql(c: DuckDBConnection, path: string): Promise<LineSql | null> {
  const columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`)).getRows()
    .map(([name, type]) => ({ name: String(name), type: String(type) }));
  if (columns.some((col) => col.name === "file_row_number")) return null;
  const { nonNull } = await footerFacts(c, [path], columns);
  return jsonLineSql(columns.map((col) => ({ ...col, nonNull: nonNull.has(col.name) })));
}

/**
 * Rows `from` to `from + want` of the part at `path` as plain
 * {@linkcode CachedGroup}s of `blockRows` records each (the last may hold
 * fewer), every record's text built by `line`, in one query.
 *
 * @example
 * ```ts ignore
 * const [first, second] = await rowGroupOfLines(connection, path, line, 0, 20_480, 10_240);
 * ```
 */
export async function rowGroupOfLines(
  c: DuckDBConnection,
  path: string,
  line: LineSql,
  from: number,
  want: number,
  blockRows: number,
): Promise<CachedGroup[]> {
  const range = `FROM read_parquet(${sqlString(path)}, file_row_number = true) ` +
    `WHERE file_row_number >= ${from} AND file_row_number < ${from + want}`;
  const reader = await c.runAndReadAll(
    `SELECT (r - ${from}) // ${blockRows} AS b, encode(string_agg(l, ',' ORDER BY r)), ` +
      `list(strlen(l)::INTEGER ORDER BY r) FROM (${linesSelect(line, "l", ["file_row_number AS r"], range)}) ` +
      `GROUP BY b ORDER BY b`,
  );
  const blocks = Array.from({ length: Math.ceil(want / blockRows) }, () => cachedGroupOfText(new Uint8Array(0), []));
  for (const [b, text, lengths] of reader.getRows()) {
    const counts = lengths instanceof DuckDBListValue ? lengths.items.map(Number) : [];
    blocks[Number(b)] = cachedGroupOfText(text instanceof DuckDBBlobValue ? text.bytes : new Uint8Array(0), counts);
  }
  return blocks;
}
