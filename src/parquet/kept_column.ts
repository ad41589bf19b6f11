/**
 * A version's column kept in memory for counting: each record's value as a
 * code (its rank among the column's distinct values, in DuckDB's order,
 * nulls last), beside the distinct values themselves. DuckDB counts a
 * filtered view's facets by scanning and hashing the parts' columns again
 * every time (16 ms in-process for 1,000,000 records and two facets, 28 ms
 * through the node); over codes the same counts are one pass over typed
 * arrays (2-3 ms), see `kept_counts.ts`. DuckDB computes the codes and
 * the order of the values, so a kept column groups and orders exactly as
 * DuckDB's `GROUP BY` and `ORDER BY` do.
 *
 * Kept only for types whose values group and compare without surprises:
 * text, booleans, whole numbers of at most 64 bits and dates.
 *
 * @module
 */
import { type DuckDBConnection, DuckDBListValue } from "@duckdb/node-api";
import { type ReadEngine, sqlIdent } from "./_duckdb.ts";
import { readAll } from "./_statement.ts";
import { findViewColumn, PART, ROW, type ViewColumn, viewSql } from "./_view_sql.ts";
import { columnWriter } from "./json_text.ts";

/** Column types kept: whole numbers within 64 bits. */
const WHOLE = /^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER)$/;

/** Most distinct values a kept column holds (more: codes would outweigh what counting over them saves). */
export const MAX_KEPT_DISTINCT = 4_000_000;

/** A version's column as codes (see the module's documentation). */
export interface KeptColumn {
  /** The column's name, as the version spells it. */
  name: string;
  /** Its DuckDB type. */
  type: string;
  /** Each record's code, in the version's order: the rank of its value among the column's distinct values. */
  codes: Uint16Array | Uint32Array;
  /** How many distinct values (null among them) the column holds: codes run from 0 to this less one. */
  distinct: number;
  /**
   * Each distinct value's JSON text, as records write it, in DuckDB's `ASC
   * NULLS LAST` order; null for whole numbers, whose text is their digits
   * (see {@linkcode keptText}).
   */
  texts: string[] | null;
  /**
   * For whole numbers and dates, each distinct value exactly (days since
   * 1970 for a date), ascending, null last as 0; null for text and booleans.
   */
  ordinals: BigInt64Array | null;
  /** For text, each distinct value's code by its text, or null. */
  byText: Map<string, number> | null;
  /** The code of null, or -1 when no record holds a null. */
  nullCode: number;
  /** What it holds in memory, roughly. */
  bytes: number;
}

/**
 * Whether a column of DuckDB type `type` can be kept.
 *
 * @example
 * ```ts
 * import { keepable } from "./kept_column.ts";
 * keepable("VARCHAR"); // true
 * keepable("DOUBLE"); // false
 * ```
 */
export function keepable(type: string): boolean {
  return type === "VARCHAR" || type === "BOOLEAN" || type === "DATE" || WHOLE.test(type);
}

/** The SQL of a value of column `name` (type `type`) as a number to compare by, or null when it has none. */
function ordinalSql(name: string, type: string): string | null {
  if (type === "DATE") return `CAST(datediff('day', DATE '1970-01-01', ${name}) AS BIGINT)`;
  return WHOLE.test(type) ? `CAST(${name} AS BIGINT)` : null;
}

/**
 * The JSON text of `code`'s value in `column`, as records write it.
 *
 * @example
 * ```ts ignore
 * import { keptText } from "./kept_column.ts";
 * keptText(column, column.nullCode); // "null"
 * ```
 */
export function keptText(column: KeptColumn, code: number): string {
  if (code === column.nullCode) return "null";
  return column.texts ? column.texts[code] : column.ordinals![code].toString();
}

/** The column's distinct values by code: whether each is null, their texts (not for whole numbers), their ordinals. */
async function distinctValues(c: DuckDBConnection, ranked: string, column: ViewColumn) {
  const name = sqlIdent(column.name);
  const ordinal = ordinalSql(name, column.type);
  const whole = WHOLE.test(column.type);
  const result = await readAll(
    c,
    `SELECT any_value(${whole ? ordinal : name}), code${ordinal && !whole ? `, any_value(${ordinal})` : ""} ` +
      `FROM ${ranked} GROUP BY code ORDER BY code`,
  );
  const write = columnWriter(result.columnTypes()[0], "number");
  const rows = result.getRows();
  const at = whole ? 0 : 2;
  return {
    distinct: rows.length,
    texts: whole ? null : rows.map((r) => write(r[0])),
    isNull: rows.map((r) => r[0] === null),
    ordinals: ordinal ? BigInt64Array.from(rows, (r) => (r[0] === null ? 0n : BigInt(r[at] as bigint))) : null,
  };
}

/**
 * The column `name` of the version whose parts are `paths` (of columns
 * `columns`, `uniform` when every part has them all) as a
 * {@linkcode KeptColumn}, read in two queries; null when its type is not
 * kept or it holds too many distinct values.
 *
 * @example
 * ```ts ignore
 * import { readKeptColumn } from "./kept_column.ts";
 * const country = await readKeptColumn(engine, paths, shape.columns, shape.uniform, "country");
 * ```
 */
export async function readKeptColumn(
  engine: ReadEngine,
  paths: readonly string[],
  columns: readonly ViewColumn[],
  uniform: boolean,
  name: string,
): Promise<KeptColumn | null> {
  const column = findViewColumn(columns, name);
  if (!column || !keepable(column.type) || paths.length === 0) return null;
  const quoted = sqlIdent(column.name);
  const { from } = viewSql(paths, columns, { filters: [], search: null, sort: null }, uniform);
  const ranked = `(SELECT ${PART}, ${ROW}, ${quoted}, ` +
    `(dense_rank() OVER (ORDER BY ${quoted} ASC NULLS LAST) - 1)::UINTEGER AS code ${from})`;
  return await engine.use(async (c) => {
    const values = await distinctValues(c, ranked, column);
    if (values.distinct > MAX_KEPT_DISTINCT) return null;
    const listed = (await readAll(c, `SELECT list(code ORDER BY ${PART}, ${ROW}) FROM ${ranked}`)).getRows()[0][0];
    const items = listed instanceof DuckDBListValue ? listed.items as number[] : [];
    const codes = values.distinct <= 65_536 ? Uint16Array.from(items) : Uint32Array.from(items);
    const nullCode = values.isNull.indexOf(true);
    const byText = column.type === "VARCHAR"
      ? new Map(values.texts!.flatMap((t, i) => (i === nullCode ? [] : [[JSON.parse(t) as string, i]])))
      : null;
    const ordinals = values.ordinals;
    const textBytes = (values.texts ?? []).reduce((n, t) => n + 2 * t.length + 40, 0);
    return {
      name: column.name,
      type: column.type,
      codes,
      distinct: values.distinct,
      texts: values.texts,
      ordinals,
      byText,
      nullCode,
      bytes: codes.byteLength + (ordinals?.byteLength ?? 0) + textBytes * (byText ? 2 : 1),
    };
  });
}
