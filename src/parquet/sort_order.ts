/**
 * The order of a version's records by one column, as a view sorted by it
 * shows them: each record's position in the version (part after part, row
 * after row), nulls last, ties in the version's order. Computed by one DuckDB
 * sort, handed over as 32-bit positions (4 bytes a record); with it a sorted
 * page is the records at its positions, cut from the page cache, instead of
 * a sort of every record per page.
 *
 * @module
 */
import type { ReadEngine } from "./_duckdb.ts";
import { oneScan, PART, ROW, viewColumn, viewSql } from "./_view_sql.ts";
import type { ViewShape } from "./view.ts";
import { streamOf } from "./_statement.ts";

/** A sort a kept order is for: the column and the direction. */
export interface SortKey {
  /** The column, as the parts name it. */
  column: string;
  /** Largest first. */
  descending: boolean;
}

/**
 * Whether an order of the parts of `shape` by `sort` can be kept: its column
 * compares (a scalar type) and the parts are read by one scan numbered by
 * DuckDB (no column of theirs takes those names), and the version holds at
 * most 2^32 - 1 records.
 *
 * @example
 * ```ts
 * import { orderable } from "./sort_order.ts";
 * orderable({ columns: [{ name: "n", type: "BIGINT" }], uniform: true, nonNull: [] }, { column: "n", descending: false }, 10); // true
 * ```
 */
export function orderable(shape: ViewShape, sort: SortKey, records: number): boolean {
  const column = shape.columns.find((c) => c.name === sort.column && c.name !== "_extra");
  return column !== undefined &&
    /^(BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\)|VARCHAR|DATE|TIME|TIMESTAMP|TIMESTAMP WITH TIME ZONE|UUID)$/
      .test(column.type) &&
    oneScan(shape.columns) && records < 2 ** 32;
}

/**
 * The positions of the records of the parts at `paths` (of `counts` records
 * each, of shape `shape`) in the order of `sort`.
 *
 * @example
 * ```ts ignore
 * const order = await sortOrder(engine, paths, [1000, 500], shape, { column: "score", descending: true });
 * order[0]; // the position of the record with the highest score
 * ```
 */
export async function sortOrder(
  engine: ReadEngine,
  paths: readonly string[],
  counts: readonly number[],
  shape: ViewShape,
  sort: SortKey,
): Promise<Uint32Array> {
  const records = counts.reduce((a, b) => a + b, 0);
  if (!orderable(shape, sort, records)) throw new RangeError(`no order can be kept by ${JSON.stringify(sort.column)}`);
  viewColumn(shape.columns, sort.column, "sort by");
  const sql = viewSql(paths, shape.columns, { filters: [], search: null, sort }, shape.uniform);
  const starts: number[] = [];
  counts.reduce((at, n) => (starts.push(at), at + n), 0);
  const position = `([${starts.join(", ")}]::BIGINT[])[CAST(${PART} AS BIGINT) + 1] + ${ROW}`;
  const order = new Uint32Array(records);
  const session = await engine.session();
  try {
    const result = await session.run((c) =>
      // No alias: a column of the parts named like it would be sorted by in the column's place.
      streamOf(c, `SELECT CAST(${position} AS UINTEGER) ${sql.from} ORDER BY ${sql.order}`, sql.params)
    );
    let at = 0;
    for (;;) {
      const chunk = await session.run(() => result.fetchChunk());
      if (!chunk || chunk.rowCount === 0) break;
      const items = (chunk.getColumnVector(0) as unknown as { items: Uint32Array }).items;
      order.set(items.subarray(0, chunk.rowCount), at);
      at += chunk.rowCount;
    }
    if (at !== records) throw new Error(`the parts hold ${at} records, their footers ${records}`);
  } finally {
    await session.close();
  }
  return order;
}
