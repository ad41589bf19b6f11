/**
 * One line of text per record, built by DuckDB: the record's JSON (as data
 * pages write it) or its CSV line (as `_csv.ts` writes it). Asking DuckDB for
 * finished lines instead of values is what makes exports and downloads fast:
 * turning a million records' values into JavaScript and writing them there
 * cost three to four times what DuckDB takes to build the lines
 * (docs/benchmarks.md, "downloads").
 *
 * Only columns of the types below are built here; a version with any other
 * column (dates, lists, structs, blobs, ...) takes the JavaScript writers.
 *
 * @module
 */
import { sqlIdent, sqlString } from "./_duckdb.ts";
import { EXTRA_COLUMN } from "./rows.ts";

/** Column types whose JSON text DuckDB writes exactly as the record encoder does. */
const SQL_TEXT_TYPES =
  /^(VARCHAR|BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\))$/;

/** A column: its name and DuckDB type. */
export interface LineColumn {
  /** Name. */
  name: string;
  /** DuckDB's type, as DESCRIBE spells it. */
  type: string;
}

/**
 * Whether DuckDB can write every column of `columns` as the JavaScript
 * writers do.
 *
 * @example
 * ```ts
 * import { sqlWritable } from "./_line_sql.ts";
 * sqlWritable([{ name: "id", type: "BIGINT" }]); // true
 * sqlWritable([{ name: "day", type: "DATE" }]); // false
 * ```
 */
export function sqlWritable(columns: readonly LineColumn[]): boolean {
  return columns.every((c) => SQL_TEXT_TYPES.test(c.type));
}

/**
 * The JSON text of a non-null value of column `c` (quoted) of type `type`,
 * as the JavaScript writers give it: decimals with their scale, NaN and
 * infinities as null, 32-bit floats by their shortest text, doubles as
 * `JSON.stringify` writes them (DuckDB's shortest digits are the same; whole
 * ones lose its `.0`, and exponents of 1e21 and up take a `+`).
 */
function jsonValueSql(c: string, type: string): string {
  if (type.startsWith("DECIMAL")) return `CAST(${c} AS VARCHAR)`;
  if (type !== "FLOAT" && type !== "DOUBLE") return `CAST(to_json(${c}) AS VARCHAR)`;
  const d = type === "FLOAT" ? `CAST(CAST(${c} AS VARCHAR) AS DOUBLE)` : c;
  const text = `CAST(to_json(${d}) AS VARCHAR)`;
  return `CASE WHEN NOT isfinite(${d}) THEN 'null' ` +
    `WHEN ${d} = floor(${d}) AND abs(${d}) < 1e15 THEN CAST(CAST(${d} AS BIGINT) AS VARCHAR) ` +
    `WHEN abs(${d}) >= 1e21 THEN replace(${text}, 'e', 'e+') ` +
    `WHEN ${d} = floor(${d}) THEN regexp_replace(${text}, '\\.0$', '') ` +
    `ELSE ${text} END`;
}

/**
 * A string's JSON text built without DuckDB's `to_json`, for the rare lines
 * where that differs from `JSON.stringify` (which writes control characters
 * with lower-case hex digits, `\u001f`, where DuckDB writes `\u001F`).
 */
function exactStringSql(c: string): string {
  let text = `replace(replace(${c}, '\\', '\\\\'), '"', '\\"')`;
  for (let code = 0; code < 32; code++) {
    text = `replace(${text}, chr(${code}), ${sqlString(JSON.stringify(String.fromCharCode(code)).slice(1, -1))})`;
  }
  return `'"' || ${text} || '"'`;
}

/**
 * The SQL of one member of a record's JSON (`"name":value`), NULL when the
 * column is null (so `concat_ws` leaves it out); `_extra`'s members inlined.
 * `exact` writes strings without `to_json` (see {@linkcode jsonLineSql}).
 *
 * @example
 * ```ts
 * import { memberSql } from "./_line_sql.ts";
 * memberSql("id", "BIGINT"); // a CASE giving '"id":' || the value's JSON
 * ```
 */
export function memberSql(name: string, type: string, exact = false): string {
  const c = sqlIdent(name);
  if (name === EXTRA_COLUMN && type === "VARCHAR") {
    const inner = `trim(substr(trim(${c}), 2, length(trim(${c})) - 2))`;
    return `CASE WHEN starts_with(trim(${c}), '{') AND ends_with(trim(${c}), '}') AND ${inner} <> '' THEN ${inner} END`;
  }
  const value = exact && type === "VARCHAR" ? exactStringSql(c) : jsonValueSql(c, type);
  return `CASE WHEN ${c} IS NOT NULL THEN ${sqlString(JSON.stringify(name) + ":")} || ${value} END`;
}

/** A record's line as SQL: over its columns, and how a line that may be wrong is made again. */
export interface LineSql {
  /** The line, over the record's columns. */
  line: string;
  /** When set, the line is wrong where `when` (over the first line, named `__svc_first`) holds, and `exact` then. */
  fix: { when: string; exact: string } | null;
}

/** What the first try at a line is called while it is checked. */
const FIRST = "__svc_first";

/**
 * The SQL of a record's JSON text over `columns` (null columns left out,
 * `_extra` folded in), or null when a column's type is not written here. A
 * line holding an escape (`\u00..`, a control character in a string) is
 * made again without `to_json`: one cheap test a line, and the rare line
 * that holds one pays for the exact escapes.
 *
 * @example
 * ```ts
 * import { jsonLineSql } from "./_line_sql.ts";
 * jsonLineSql([{ name: "id", type: "BIGINT" }])?.line; // "'{' || concat_ws(',', ...) || '}'"
 * ```
 */
export function jsonLineSql(columns: readonly LineColumn[]): LineSql | null {
  if (!sqlWritable(columns)) return null;
  const line = (exact: boolean) =>
    `'{' || concat_ws(',', ${columns.map((c) => memberSql(c.name, c.type, exact)).join(", ")}) || '}'`;
  if (!columns.some((c) => c.type === "VARCHAR" && c.name !== EXTRA_COLUMN)) return { line: line(false), fix: null };
  return { line: line(false), fix: { when: `contains(${FIRST}, '\\u00')`, exact: line(true) } };
}

/**
 * The SELECT of every record's line as `alias`, and the columns `keep`,
 * over `from` (a `FROM ... [WHERE ...]` clause).
 *
 * @example
 * ```ts
 * import { csvLineSql, linesSelect } from "./_line_sql.ts";
 * linesSelect(csvLineSql([{ name: "id", type: "BIGINT" }])!, "l", [], "FROM t");
 * ```
 */
export function linesSelect(sql: LineSql, alias: string, keep: readonly string[], from: string): string {
  const kept = keep.map((k) => `, ${k}`).join("");
  if (sql.fix === null) return `SELECT ${sql.line} AS ${alias}${kept} ${from}`;
  return `SELECT CASE WHEN ${sql.fix.when} THEN ${sql.fix.exact} ELSE ${FIRST} END AS ${alias}${kept} ` +
    `FROM (SELECT ${sql.line} AS ${FIRST}, * ${from})`;
}

/**
 * The SQL of one CSV field of column `name` (see `_csv.ts`): empty for a
 * null (and NaN or an infinity), text as it is, quoted when it holds a comma,
 * a double quote, CR or LF, starts or ends with a space or tab, or is empty;
 * anything else as its JSON text.
 */
function csvFieldSql(name: string, type: string): string {
  const c = sqlIdent(name);
  if (type === "VARCHAR") {
    const needsQuotes = [`','`, `'"'`, "chr(10)", "chr(13)"].map((s) => `contains(${c}, ${s})`)
      .concat([`' '`, "chr(9)"].flatMap((s) => [`starts_with(${c}, ${s})`, `ends_with(${c}, ${s})`]));
    return `CASE WHEN ${c} IS NULL THEN '' WHEN ${c} = '' THEN '""' WHEN ${needsQuotes.join(" OR ")} ` +
      `THEN '"' || replace(${c}, '"', '""') || '"' ELSE ${c} END`;
  }
  if (type === "FLOAT" || type === "DOUBLE") {
    const d = type === "FLOAT" ? `CAST(CAST(${c} AS VARCHAR) AS DOUBLE)` : c;
    return `CASE WHEN ${c} IS NULL OR NOT isfinite(${d}) THEN '' ELSE ${jsonValueSql(c, type)} END`;
  }
  return `coalesce(${jsonValueSql(c, type)}, '')`;
}

/**
 * The SQL of a record's CSV line over `columns`, without its line end, or
 * null when a column's type is not written here.
 *
 * @example
 * ```ts
 * import { csvLineSql } from "./_line_sql.ts";
 * csvLineSql([{ name: "id", type: "BIGINT" }, { name: "s", type: "VARCHAR" }])?.line; // "concat_ws(',', ...)"
 * ```
 */
export function csvLineSql(columns: readonly LineColumn[]): LineSql | null {
  if (!sqlWritable(columns)) return null;
  if (columns.length === 1) return { line: csvFieldSql(columns[0].name, columns[0].type), fix: null };
  return { line: `concat_ws(',', ${columns.map((c) => csvFieldSql(c.name, c.type)).join(", ")})`, fix: null };
}
