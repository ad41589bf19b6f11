/**
 * Where a page of a view's records are (each its part's index among the
 * view's parts and its row there), found by reading only the columns the
 * view filters and sorts on, and the records at those places. A page of a
 * view in the version's order is looked for in the first few parts, then in
 * four times as many after them, and so on: a query over 200 parts paid 2-3
 * ms to set up its scan of every part (most of it before reading a row)
 * where the first eight parts usually hold a first page.
 *
 * @module
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { recordEncoder } from "./rows.ts";
import {
  oneScan,
  PART,
  ROW,
  scanKeepsOrder,
  valueError,
  type ViewColumn,
  type ViewSpec,
  viewSql,
} from "./_view_sql.ts";
import { readAll } from "./_statement.ts";

/** A record's place: its part's index among the view's parts and its row in that part. */
export interface Place {
  /** The part's index among the view's parts. */
  part: number;
  /** The row in that part, from 0. */
  row: number;
}

/** Parts the first look reads; each look after reads four times as many as the one before. */
export const FIRST_LOOK = 8;
/** The deepest page looked for part by part; a deeper one is found in one query over every part. */
export const LOOK_DEPTH = 10_000;

/** Whether the places of a view's records can be had: one scan numbers them (`file_index`, `file_row_number`). */
export function placesKnown(columns: readonly ViewColumn[], uniform: boolean): boolean {
  return uniform && oneScan(columns);
}

/**
 * The places of records `offset` to `offset + limit` of the view `spec` of
 * the parts at `paths` (uniform, see {@linkcode placesKnown}), in the view's
 * order.
 *
 * @example
 * ```ts ignore
 * const places = await viewPlaces(c, paths, columns, spec, 0, 10);
 * ```
 */
export async function viewPlaces(
  c: DuckDBConnection,
  paths: readonly string[],
  columns: readonly ViewColumn[],
  spec: ViewSpec,
  offset: number,
  limit: number,
): Promise<Place[]> {
  const wanted = offset + limit;
  if (!scanKeepsOrder(spec) || wanted > LOOK_DEPTH || paths.length <= FIRST_LOOK) {
    const sql = viewSql(paths, columns, spec, true);
    return await placesIn(
      c,
      `SELECT ${PART}, ${ROW} ${sql.from}${sql.orderBy} LIMIT ${limit} OFFSET ${offset}`,
      sql.params,
      0,
    );
  }
  const found: Place[] = [];
  for (let start = 0, size = FIRST_LOOK; start < paths.length && found.length < wanted; start += size, size *= 4) {
    const sql = viewSql(paths.slice(start, start + size), columns, spec, true);
    found.push(
      ...await placesIn(c, `SELECT ${PART}, ${ROW} ${sql.from} LIMIT ${wanted - found.length}`, sql.params, start),
    );
  }
  return found.slice(offset);
}

async function placesIn(
  c: DuckDBConnection,
  query: string,
  params: ReturnType<typeof viewSql>["params"],
  first: number,
): Promise<Place[]> {
  const rows = await readAll(c, query, params).catch((e) => Promise.reject(valueError(e)));
  return rows.getRows().map((r) => ({ part: first + Number(r[0]), row: Number(r[1]) }));
}

/**
 * The records at `places` (of the parts at `paths`, uniform: see
 * {@linkcode placesKnown}), in that order, as JSON texts: only the parts
 * from the first place's to the last's are read, and in them only the row
 * groups holding those rows (DuckDB skips the rest by `file_row_number`).
 *
 * @example
 * ```ts ignore
 * const records = await recordsAtPlaces(c, paths, columns, [{ part: 0, row: 7 }]);
 * ```
 */
export async function recordsAtPlaces(
  c: DuckDBConnection,
  paths: readonly string[],
  columns: readonly ViewColumn[],
  places: readonly Place[],
): Promise<string[]> {
  if (places.length === 0) return [];
  const first = Math.min(...places.map((p) => p.part));
  const last = Math.max(...places.map((p) => p.part));
  const key = `(${PART}::BIGINT << 32 | ${ROW})`;
  const keys = `[${places.map((p) => (p.part - first) * 2 ** 32 + p.row).join(", ")}]`;
  const rows = [...new Set(places.map((p) => p.row))].join(", ");
  const sql = viewSql(paths.slice(first, last + 1), columns, { filters: [], search: null, sort: null }, true, [
    `${ROW} IN (${rows})`,
    `list_contains(${keys}, ${key})`,
  ]);
  const result = await c.run(`SELECT * EXCLUDE (${PART}, ${ROW}) ${sql.from} ORDER BY list_position(${keys}, ${key})`);
  const encode = recordEncoder(result);
  const records: string[] = [];
  for (const chunk of await result.fetchAllChunks()) records.push(...encode(chunk));
  return records;
}
