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
import type { DuckDBDataChunk } from "@duckdb/node-api";
import { type ReadEngine, type Session, sqlIdent } from "./_duckdb.ts";
import { readAll, streamOf } from "./_statement.ts";
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

/** Runs `sql` on `session` and hands each of its chunks to `each`, never holding the whole result. */
async function eachChunk(session: Session, sql: string, each: (chunk: DuckDBDataChunk) => void): Promise<void> {
  const result = await session.run((c) => streamOf(c, sql));
  for (;;) {
    const chunk = await session.run(() => result.fetchChunk());
    if (!chunk || chunk.rowCount === 0) return;
    each(chunk);
  }
}

/** What a column of `records` records and `distinct` values holds as codes, ordinals and texts, roughly. */
function keptBytes(records: number, distinct: number, type: string): number {
  const codes = records * (distinct <= 65_536 ? 2 : 4);
  if (WHOLE.test(type)) return codes + distinct * 8;
  // A text's JSON and, for text, the string beside it in the map by text.
  return codes + distinct * (type === "DATE" ? 8 + 64 : type === "VARCHAR" ? 160 : 64);
}

/** The column's distinct values by code: whether each is null, their texts (not for whole numbers), their ordinals. */
async function distinctValues(session: Session, ranked: string, column: ViewColumn, distinct: number) {
  const name = sqlIdent(column.name);
  const ordinal = ordinalSql(name, column.type);
  const whole = WHOLE.test(column.type);
  const texts: string[] | null = whole ? null : [];
  const ordinals = ordinal ? new BigInt64Array(distinct) : null;
  let nullCode = -1;
  let code = 0;
  const sql = `SELECT any_value(${whole ? ordinal : name})${ordinal && !whole ? `, any_value(${ordinal})` : ""} ` +
    `FROM ${ranked} GROUP BY code ORDER BY code`;
  await eachChunk(session, sql, (chunk) => {
    const write = columnWriter(chunk.getColumnVector(0).type, "number");
    for (const row of chunk.getRows()) {
      if (code >= distinct) throw new RangeError(`more distinct values than the ${distinct} counted`);
      if (row[0] === null) nullCode = code;
      texts?.push(write(row[0]));
      if (ordinals && row[0] !== null) ordinals[code] = BigInt(row[whole ? 0 : 1] as bigint);
      code++;
    }
  });
  if (code !== distinct) throw new RangeError(`${code} distinct values, ${distinct} counted`);
  return { texts, ordinals, nullCode };
}

/** Each record's code, in the version's order, read a chunk at a time into the array. */
async function codesOf(session: Session, ranked: string, records: number, distinct: number) {
  const codes = distinct <= 65_536 ? new Uint16Array(records) : new Uint32Array(records);
  let at = 0;
  await eachChunk(session, `SELECT code FROM ${ranked} ORDER BY ${PART}, ${ROW}`, (chunk) => {
    if (at + chunk.rowCount > records) throw new RangeError(`more records than the ${records} counted`);
    const items = (chunk.getColumnVector(0) as unknown as { items: Uint32Array }).items;
    codes.set(items.subarray(0, chunk.rowCount), at);
    at += chunk.rowCount;
  });
  if (at !== records) throw new RangeError(`${at} records, ${records} counted`);
  return codes;
}

/**
 * The column `name` of the version whose parts are `paths` (of columns
 * `columns`, `uniform` when every part has them all) as a
 * {@linkcode KeptColumn}, read a chunk at a time; null when its type is not
 * kept, or it would hold more than `maxBytes` (known from two counts before
 * anything is read into memory).
 *
 * @example
 * ```ts ignore
 * import { readKeptColumn } from "./kept_column.ts";
 * const country = await readKeptColumn(engine, paths, shape.columns, shape.uniform, "country", 32 * 1024 ** 2);
 * ```
 */
export async function readKeptColumn(
  engine: ReadEngine,
  paths: readonly string[],
  columns: readonly ViewColumn[],
  uniform: boolean,
  name: string,
  maxBytes: number,
): Promise<KeptColumn | null> {
  const column = findViewColumn(columns, name);
  if (!column || !keepable(column.type) || paths.length === 0) return null;
  const quoted = sqlIdent(column.name);
  const { from } = viewSql(paths, columns, { filters: [], search: null, sort: null }, uniform);
  const session = await engine.session();
  try {
    const [records, distinct] = (await session.run((c) =>
      readAll(
        c,
        `SELECT count(*)::BIGINT, (count(DISTINCT ${quoted}) + max((${quoted} IS NULL)::INTEGER))::BIGINT ${from}`,
      )
    )).getRows()[0].map((n) => Number(n ?? 0));
    if (distinct > MAX_KEPT_DISTINCT || keptBytes(records, distinct, column.type) > maxBytes) return null;
    const ranked = `(SELECT ${PART}, ${ROW}, ${quoted}, ` +
      `(dense_rank() OVER (ORDER BY ${quoted} ASC NULLS LAST) - 1)::UINTEGER AS code ${from})`;
    const { texts, ordinals, nullCode } = await distinctValues(session, ranked, column, distinct);
    const codes = await codesOf(session, ranked, records, distinct);
    const byText = column.type === "VARCHAR"
      ? new Map(texts!.flatMap((t, i) => (i === nullCode ? [] : [[JSON.parse(t) as string, i]])))
      : null;
    return {
      name: column.name,
      type: column.type,
      codes,
      distinct,
      texts,
      ordinals,
      byText,
      nullCode,
      bytes: keptBytes(records, distinct, column.type),
    };
  } finally {
    await session.close();
  }
}
