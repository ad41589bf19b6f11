/**
 * One statement of the node's own SQL run with its parameters bound,
 * prepared directly. `DuckDBConnection.run(sql, values)` (and its
 * `runAndReadAll` and `stream`) first splits the text into statements, so
 * DuckDB parses it twice, and takes three trips to DuckDB's thread where
 * this takes two; it does so whenever `values` is given, even empty. Over
 * the 200 parts of the bench data (a query's text holds every part's path)
 * that was 1.9 ms of a 19.5 ms facets query (docs/benchmarks.md, "facets").
 * A text of more than one statement is refused by DuckDB here.
 *
 * @module
 */
import type {
  DuckDBConnection,
  DuckDBMaterializedResult,
  DuckDBResult,
  DuckDBResultReader,
  DuckDBValue,
} from "@duckdb/node-api";

/** `sql` prepared, `params` bound, `use`d, and the statement let go. */
async function prepared<T>(
  c: DuckDBConnection,
  sql: string,
  params: readonly DuckDBValue[],
  use: (statement: Awaited<ReturnType<DuckDBConnection["prepare"]>>) => Promise<T>,
): Promise<T> {
  const statement = await c.prepare(sql);
  try {
    if (params.length > 0) statement.bind([...params]);
    return await use(statement);
  } finally {
    statement.destroySync();
  }
}

/**
 * Every row of the one statement `sql` with `params` bound.
 *
 * @example
 * ```ts ignore
 * const reader = await readAll(c, "SELECT count(*) FROM read_parquet($1)", ["/store/p/parts/a.parquet"]);
 * reader.getRows();
 * ```
 */
export function readAll(
  c: DuckDBConnection,
  sql: string,
  params: readonly DuckDBValue[] = [],
): Promise<DuckDBResultReader> {
  return params.length === 0 ? c.runAndReadAll(sql) : prepared(c, sql, params, (s) => s.runAndReadAll());
}

/**
 * The one statement `sql` run with `params` bound, its result materialized.
 *
 * @example
 * ```ts ignore
 * await runOne(c, "COPY (SELECT * FROM read_parquet($1)) TO '/tmp/x.parquet'", ["/store/p/parts/a.parquet"]);
 * ```
 */
export function runOne(
  c: DuckDBConnection,
  sql: string,
  params: readonly DuckDBValue[] = [],
): Promise<DuckDBMaterializedResult> {
  return params.length === 0 ? c.run(sql) : prepared(c, sql, params, (s) => s.run());
}

/**
 * The one statement `sql` run with `params` bound, its rows streamed.
 *
 * @example
 * ```ts ignore
 * const result = await streamOf(c, "SELECT * FROM read_parquet($1)", ["/store/p/parts/a.parquet"]);
 * await result.fetchChunk();
 * ```
 */
export function streamOf(c: DuckDBConnection, sql: string, params: readonly DuckDBValue[] = []): Promise<DuckDBResult> {
  return prepared(c, sql, params, (s) => s.stream());
}
