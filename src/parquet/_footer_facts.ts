/**
 * What the parts' footers say of each column over every record, read once
 * with a version's shape (`parquet_metadata`, no data): which columns hold
 * no null, and the least and greatest value of the columns whose footer
 * bounds are exact and compared here (whole numbers and dates, as ordinals).
 * A column counts only when every part has it and every row group's footer
 * gives the figure: a footer silent about a row group says nothing of it.
 *
 * @module
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { sqlString } from "./_duckdb.ts";
import { refusedFilterValue } from "./_filter_values.ts";

/** The least and greatest value of a column over every record, as ordinals (see {@linkcode ordinalOf}). */
export interface ColumnBounds {
  /** The least value. */
  min: bigint;
  /** The greatest value. */
  max: bigint;
}

/** What the footers say of the parts' columns. */
export interface FooterFacts {
  /** Columns no record holds a null in. */
  nonNull: Set<string>;
  /** Bounds of the columns of an ordered type (see {@linkcode ordinalOf}), by name. */
  bounds: Map<string, ColumnBounds>;
}

const WHOLE_TYPES = /^(TINYINT|SMALLINT|INTEGER|BIGINT)$/;
const WHOLE = /^-?\d{1,19}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * The value of the text `text` of a column of type `type` as a number that
 * orders as the column's values do: a whole number itself, a date its day
 * since 1970 (only `YYYY-MM-DD` of a day that exists); null for any other
 * type or text, which is then never compared here.
 *
 * @example
 * ```ts
 * import { ordinalOf } from "./_footer_facts.ts";
 * ordinalOf("-12", "BIGINT"); // -12n
 * ordinalOf("1970-01-02", "DATE"); // 1n
 * ordinalOf("2023-02-29", "DATE"); // null
 * ordinalOf("1.5", "DOUBLE"); // null
 * ```
 */
export function ordinalOf(text: string, type: string): bigint | null {
  if (WHOLE_TYPES.test(type)) return WHOLE.test(text) ? BigInt(text) : null;
  if (type !== "DATE") return null;
  const day = DAY.exec(text);
  if (!day) return null;
  const ms = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  // Date.UTC takes the 30th of February as the 1st of March, and years below 100 as 19xx: both refused.
  return new Date(ms).toISOString().slice(0, 10) === text ? BigInt(Math.round(ms / DAY_MS)) : null;
}

/**
 * The exact value a filter's text `text` compares a column of `type` by
 * (see {@linkcode ordinalOf}), or null when DuckDB would refuse it or is left
 * to read it its own way (`+5`, `1970-1-5`).
 *
 * @example
 * ```ts
 * import { filterOrdinal } from "./_footer_facts.ts";
 * filterOrdinal("12", "INTEGER"); // 12n
 * filterOrdinal("99999999999", "INTEGER"); // null (out of range)
 * ```
 */
export function filterOrdinal(text: string, type: string): bigint | null {
  return refusedFilterValue(text, type) === null ? ordinalOf(text, type) : null;
}

/**
 * The {@linkcode FooterFacts} of the parts at `paths`, whose columns are
 * `columns`, in one read of their footers.
 *
 * @example
 * ```ts ignore
 * const { nonNull, bounds } = await footerFacts(connection, ["/store/p/parts/a.parquet"], [{ name: "id", type: "BIGINT" }]);
 * bounds.get("id"); // { min: 0n, max: 999999n }
 * ```
 */
export async function footerFacts(
  c: DuckDBConnection,
  paths: readonly string[],
  columns: readonly { name: string; type: string }[],
): Promise<FooterFacts> {
  const rows = await c.runAndReadAll(
    `SELECT path_in_schema, bool_and(coalesce(stats_null_count = 0, false)), ` +
      `list(stats_min_value), list(stats_max_value) ` +
      `FROM parquet_metadata([${paths.map(sqlString).join(", ")}]) GROUP BY path_in_schema ` +
      `HAVING count(DISTINCT file_name) = ${paths.length}`,
  );
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const nonNull = new Set<string>();
  const bounds = new Map<string, ColumnBounds>();
  for (const [path, noNulls, mins, maxes] of rows.getRowsJS()) {
    const name = String(path);
    if (noNulls === true) nonNull.add(name);
    const type = types.get(name);
    const found = type === undefined ? null : boundsOf(mins, maxes, type);
    if (found) bounds.set(name, found);
  }
  return { nonNull, bounds };
}

/** The bounds over every row group's, or null when a row group's is missing or not of `type`. */
function boundsOf(mins: unknown, maxes: unknown, type: string): ColumnBounds | null {
  if (!Array.isArray(mins) || !Array.isArray(maxes) || mins.length === 0) return null;
  let min: bigint | null = null;
  let max: bigint | null = null;
  for (let i = 0; i < mins.length; i++) {
    const lo = typeof mins[i] === "string" ? ordinalOf(mins[i], type) : null;
    const hi = typeof maxes[i] === "string" ? ordinalOf(maxes[i], type) : null;
    if (lo === null || hi === null) return null;
    if (min === null || lo < min) min = lo;
    if (max === null || hi > max) max = hi;
  }
  return { min: min!, max: max! };
}
