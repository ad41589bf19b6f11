/**
 * A view of a version's records: filtered per column, searched over the
 * string columns, sorted by one column, paged, with the view's total. Built
 * as one parameterised DuckDB query over the parts: column names are checked
 * against the parts' own columns and quoted, every value the caller gives is
 * a parameter cast to its column's type, never SQL text. Ties (and views
 * without a sort) keep the version's own order: part by part, row by row, so
 * paging a sorted view shows every record once.
 *
 * @module
 */
import { type ReadEngine, sqlIdent, sqlString } from "./_duckdb.ts";
import { type ColumnBounds, footerFacts } from "./_footer_facts.ts";
import { PART, ROW, valueError, viewColumn, viewSql } from "./_view_sql.ts";
import { placesKnown, recordsAtPlaces, viewPlaces } from "./_view_places.ts";
import { columnWriter } from "./json_text.ts";
import { recordEncoder } from "./rows.ts";

export { withoutIdleFilters } from "./_idle_filters.ts";
export {
  type ColumnFilter,
  type FilterOp,
  findViewColumn,
  spelledAsColumns,
  type ViewColumn,
  ViewError,
  type ViewSpec,
} from "./_view_sql.ts";
import type { ViewColumn, ViewSpec } from "./_view_sql.ts";
import { readAll, runOne } from "./_statement.ts";

/** A page of a view: the records as JSON texts, and the records the whole view holds. */
export interface ViewPage {
  /** Each record as JSON text. */
  records: string[];
  /** Records in the whole view. */
  total: number;
}

/** The columns of the parts and whether every part has them all, in that order. */
export interface ViewShape {
  /** The columns, by name in first-seen order. */
  columns: ViewColumn[];
  /** Every part has exactly these columns in this order (a scan needs no `union_by_name`). */
  uniform: boolean;
  /**
   * The columns no record holds a null in, as the parts' footers count
   * (DuckDB builds their lines the faster); none when not asked for (see
   * {@linkcode viewShape}).
   */
  nonNull: readonly string[];
  /**
   * The least and greatest value of each column of whole numbers or dates
   * with no null, as every row group's footer gives them (asked for with
   * the null counts), by name: what shows a filter leaves no record out
   * (`_idle_filters.ts`).
   */
  bounds?: ReadonlyMap<string, ColumnBounds>;
}

/** The columns of the parts (those a view may name; Delta Sharing's schema), by name in first-seen order, from DuckDB. */
export async function viewColumns(engine: ReadEngine, paths: readonly string[]): Promise<ViewColumn[]> {
  return (await viewShape(engine, paths)).columns;
}

/**
 * The {@linkcode ViewShape} of the parts at `paths`, read from their
 * footers; their null counts and bounds only when `options.nullCounts`
 * (one more read of every footer, 9 ms of 24-34 over 200 parts, which the
 * building of lines and the dropping of idle filters use).
 */
export async function viewShape(
  engine: ReadEngine,
  paths: readonly string[],
  options: { nullCounts?: boolean } = {},
): Promise<ViewShape> {
  if (paths.length === 0) return { columns: [], uniform: true, nonNull: [] };
  const list = `[${paths.map(sqlString).join(",")}]`;
  return await engine.use(async (c) => {
    const rows = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list}, union_by_name=true)`))
      .getRowObjectsJS();
    const columns = rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
    const schemas = await c.runAndReadAll(
      `SELECT file_name, string_agg(name || ':' || type || ':' || coalesce(logical_type::VARCHAR, ''), '|') ` +
        `FROM parquet_schema(${list}) GROUP BY file_name`,
    );
    const facts = options.nullCounts ? await footerFacts(c, paths, columns) : null;
    return {
      columns,
      uniform: new Set(schemas.getRows().map((r) => String(r[1]))).size <= 1,
      nonNull: columns.filter((col) => facts?.nonNull.has(col.name)).map((col) => col.name),
      bounds: facts?.bounds ?? new Map(),
    };
  });
}

/**
 * The records of a version at `places` (each its part's index among the
 * view's parts and its row there), in that order, when they can be had
 * without reading the parts (the page reader's cache holds them); else null.
 */
export type CachedRecords = (places: readonly { part: number; row: number }[]) => Promise<string[] | null>;

/**
 * Records `offset` to `offset + limit` of the view `spec` of the parts at
 * `paths` (in the version's order), and the view's total: `known` when the
 * caller knows it or is counting it (a view without filters or search holds
 * every record; facets count the view too), else counted beside the page on
 * a second connection. With `cached`, the page's records are found by place
 * first (reading only the columns the view filters and sorts on, and a page
 * in the version's order only as many parts as hold it: `_view_places.ts`) and
 * taken from there when it has them all (reading every column of the rows a
 * scan passes cost four times finding them: a filter's first page of ten),
 * else read at their places from the parts that hold them.
 */
export async function viewPage(
  engine: ReadEngine,
  paths: readonly string[],
  shape: ViewShape,
  spec: ViewSpec,
  offset: number,
  limit: number,
  known?: number | Promise<number>,
  cached?: CachedRecords,
): Promise<ViewPage> {
  const sql = viewSql(paths, shape.columns, spec, shape.uniform);
  const rows = `${sql.from}${sql.orderBy} LIMIT ${limit} OFFSET ${offset}`;
  const [records, total] = await Promise.all([
    engine.use(async (c) => {
      // Places are DuckDB's file_index and file_row_number: not when a part has a column of those names.
      if (cached && placesKnown(shape.columns, shape.uniform)) {
        const places = await viewPlaces(c, paths, shape.columns, spec, offset, limit);
        return await cached(places) ?? await recordsAtPlaces(c, paths, shape.columns, places);
      }
      const result = await runOne(c, `SELECT * EXCLUDE (${PART}, ${ROW}) ${rows}`, sql.params)
        .catch((e) => Promise.reject(valueError(e)));
      const encode = recordEncoder(result);
      const records: string[] = [];
      for (const chunk of await result.fetchAllChunks()) records.push(...encode(chunk));
      return records;
    }),
    known ?? engine.use(async (c) => {
      const counted = await readAll(c, `SELECT count(*)::BIGINT AS n ${sql.from}`, sql.params)
        .catch((e) => Promise.reject(valueError(e)));
      return Number(counted.getRows()[0][0]);
    }),
  ]);
  return { records, total };
}

/** The most frequent values of one column in a view. */
export interface Facet {
  /** The column. */
  column: string;
  /** Values (as JSON text) and how many records of the view hold each, most frequent first. */
  values: { value: string; count: number }[];
  /** The column holds more values than shown. */
  truncated: boolean;
}

/** A view's facets, and the records the view holds (counted in the same scan). */
export interface FacetsAndTotal {
  /** One facet per column asked for (each once). */
  facets: Facet[];
  /** Records in the view. */
  total: number;
}

/**
 * The `size` most frequent values of each column of `facets` among the
 * records of the view `spec` (ties by value, nulls last), and how many
 * records the view holds: one scan, grouped by each column in turn and by
 * nothing (`GROUPING SETS`).
 */
export async function viewFacetsAndTotal(
  engine: ReadEngine,
  paths: readonly string[],
  shape: ViewShape,
  spec: ViewSpec,
  facets: readonly string[],
  size: number,
): Promise<FacetsAndTotal> {
  const sql = viewSql(paths, shape.columns, spec, shape.uniform);
  const names = [...new Set(facets)].map((name) => viewColumn(shape.columns, name, "facet by").name);
  if (names.length === 0) {
    const counted = await engine.use((c) => readAll(c, `SELECT count(*)::BIGINT ${sql.from}`, sql.params))
      .catch((e) => Promise.reject(valueError(e)));
    return { facets: [], total: Number(counted.getRows()[0][0]) };
  }
  const quoted = names.map(sqlIdent);
  const sets = [...quoted.map((q) => `(${q})`), "()"].join(", ");
  const order = quoted.map((q) => `${q} ASC NULLS LAST`).join(", ");
  // GROUPING_ID is 0 for the column grouped on and 1 for the others, read as bits from the left; all 1 for ().
  const which = `GROUPING_ID(${quoted.join(", ")})`;
  // No aliases: a column of the parts named like one (`n`, `g`) would be ordered by in its place, or refused.
  const byPosition = ["1", `${names.length + 2} DESC`, ...quoted.map((_, i) => `${i + 2} ASC NULLS LAST`)].join(", ");
  const query = `SELECT ${which}, ${quoted.join(", ")}, count(*)::BIGINT ${sql.from} ` +
    `GROUP BY GROUPING SETS (${sets}) ` +
    `QUALIFY row_number() OVER (PARTITION BY ${which} ORDER BY count(*) DESC, ${order}) <= ${size + 1} ` +
    `ORDER BY ${byPosition}`;
  const { rows, types } = await engine.use(async (c) => {
    const result = await readAll(c, query, sql.params).catch((e) => Promise.reject(valueError(e)));
    return { rows: result.getRows(), types: result.columnTypes() };
  });
  const full = (1 << names.length) - 1;
  const total = Number(rows.find((r) => Number(r[0]) === full)?.[names.length + 1] ?? 0);
  const list = names.map((column, i) => {
    const g = full ^ (1 << (names.length - 1 - i));
    const mine = rows.filter((r) => Number(r[0]) === g)
      .map((r) => ({ value: r[i + 1], count: Number(r[names.length + 1]) }));
    // As its records write it: a FLOAT by its own shortest digits, not the double DuckDB hands over.
    const write = columnWriter(types[i + 1], "number");
    const values = mine.slice(0, size).map((v) => ({ value: write(v.value), count: v.count }));
    return { column, values, truncated: mine.length > size };
  });
  return { facets: list, total };
}

/**
 * The `size` most frequent values of each column of `facets` among the
 * records of the view `spec` (ties by value, nulls last); see
 * {@linkcode viewFacetsAndTotal}.
 */
export async function viewFacets(
  engine: ReadEngine,
  paths: readonly string[],
  shape: ViewShape,
  spec: ViewSpec,
  facets: readonly string[],
  size: number,
): Promise<Facet[]> {
  if (facets.length === 0) return [];
  return (await viewFacetsAndTotal(engine, paths, shape, spec, facets, size)).facets;
}
